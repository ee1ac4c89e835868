#include "federation/discoverydnssd.h"

#include "federation/federationlogging.h"

#include <QHostAddress>
#include <QSocketNotifier>
#include <QTimer>

#include <arpa/inet.h>
#include <dns_sd.h>

namespace Federation {

struct DnsSdDiscovery::Operation
{
    quint64 id = 0;
    Kind kind = Kind::Browse;
    DnsSdDiscovery *owner = nullptr;
    DNSServiceRef ref = nullptr;
    std::unique_ptr<QSocketNotifier> notifier;
    QString instance; // Resolve/Query: the service instance it is about
    quint32 interfaceIndex = 0;
    quint16 port = 0; // Query: from the resolve
    QByteArray txt; // Query: from the resolve
    bool finished = false;

    ~Operation()
    {
        notifier.reset(); // before the socket goes away with the ref
        if (ref)
            DNSServiceRefDeallocate(ref);
    }
};

struct DnsSdCallbacks
{
    static void DNSSD_API registered(DNSServiceRef, DNSServiceFlags, DNSServiceErrorType error,
                                     const char *name, const char *, const char *, void *context)
    {
        auto *op = static_cast<DnsSdDiscovery::Operation *>(context);
        if (error != kDNSServiceErr_NoError) {
            qCWarning(lcFederation).noquote() << "mDNS: announcing ourselves failed, DNS-SD error" << error;
            return;
        }
        qCInfo(lcFederation).noquote()
            << "mDNS: announced as" << QString::fromUtf8(name) << "on" << DnsSdDiscovery::kServiceType;
        Q_UNUSED(op);
    }

    static void DNSSD_API browsed(DNSServiceRef, DNSServiceFlags flags, uint32_t interfaceIndex,
                                  DNSServiceErrorType error, const char *name, const char *type,
                                  const char *domain, void *context)
    {
        auto *op = static_cast<DnsSdDiscovery::Operation *>(context);
        if (error != kDNSServiceErr_NoError) {
            qCWarning(lcFederation).noquote() << "mDNS: browsing failed, DNS-SD error" << error;
            return;
        }
        op->owner->browsed(op, flags & kDNSServiceFlagsAdd, interfaceIndex, name, type, domain);
    }

    static void DNSSD_API resolved(DNSServiceRef, DNSServiceFlags, uint32_t, DNSServiceErrorType error,
                                   const char *, const char *hostTarget, uint16_t networkPort,
                                   uint16_t txtLength, const unsigned char *txt, void *context)
    {
        auto *op = static_cast<DnsSdDiscovery::Operation *>(context);
        if (error != kDNSServiceErr_NoError || !hostTarget) {
            qCDebug(lcFederation).noquote() << "mDNS: resolving" << op->instance << "failed:" << error;
            op->owner->finish(op->id);
            return;
        }
        op->owner->resolved(op, hostTarget, ntohs(networkPort),
                            QByteArray(reinterpret_cast<const char *>(txt), txtLength));
    }

    static void DNSSD_API answered(DNSServiceRef, DNSServiceFlags, uint32_t, DNSServiceErrorType error,
                                   const char *, uint16_t type, uint16_t, uint16_t length, const void *data,
                                   uint32_t, void *context)
    {
        auto *op = static_cast<DnsSdDiscovery::Operation *>(context);
        if (error != kDNSServiceErr_NoError || type != kDNSServiceType_A || length != 4 || !data) {
            if (error != kDNSServiceErr_NoError)
                op->owner->finish(op->id);
            return; // another record type: wait for the A record
        }
        quint32 ipv4 = 0;
        memcpy(&ipv4, data, 4);
        op->owner->answered(op, QHostAddress(ntohl(ipv4)).toString());
    }
};

DnsSdDiscovery::DnsSdDiscovery(QObject *parent) : Discovery(parent)
{
    // Avahi's compat layer prints a banner to stderr on first use unless told not to; the
    // broker's stderr is its log.
    if (!qEnvironmentVariableIsSet("AVAHI_COMPAT_NOWARN"))
        qputenv("AVAHI_COMPAT_NOWARN", "1");
}

DnsSdDiscovery::~DnsSdDiscovery()
{
    stop();
}

DnsSdDiscovery::Operation *DnsSdDiscovery::add(Kind kind, const QString &instance, quint32 interfaceIndex)
{
    auto op = std::make_unique<Operation>();
    op->id = m_nextId++;
    op->kind = kind;
    op->owner = this;
    op->instance = instance;
    op->interfaceIndex = interfaceIndex;
    Operation *raw = op.get();
    m_operations.emplace(raw->id, std::move(op));
    return raw;
}

bool DnsSdDiscovery::watch(Operation *op)
{
    const int fd = DNSServiceRefSockFD(op->ref);
    if (fd < 0)
        return false;
    op->notifier = std::make_unique<QSocketNotifier>(fd, QSocketNotifier::Read);
    const quint64 id = op->id;
    connect(op->notifier.get(), &QSocketNotifier::activated, this, [this, id] { processResult(id); });
    if (op->kind == Kind::Resolve || op->kind == Kind::Query)
        QTimer::singleShot(kLookupTimeoutMs, this, [this, id] { finish(id); });
    return true;
}

void DnsSdDiscovery::start(const QString &instance, quint16 port, const QByteArray &txt)
{
    stop();
    Operation *announce = add(Kind::Register, instance, 0);
    DNSServiceErrorType error = DNSServiceRegister(
        &announce->ref, 0, kDNSServiceInterfaceIndexAny, instance.toUtf8().constData(), kServiceType, nullptr,
        nullptr, htons(port), quint16(txt.size()), txt.constData(), &DnsSdCallbacks::registered, announce);
    if (error != kDNSServiceErr_NoError) {
        announce->ref = nullptr;
        // Avahi's compat library answers kDNSServiceErr_Unknown (-65537) when no daemon runs.
        fail(QStringLiteral("no mDNS daemon answers (DNS-SD error %1); start avahi-daemon (Linux) or the "
                            "Bonjour service (Windows) for discovery")
                 .arg(error));
        return;
    }
    if (!watch(announce)) {
        fail(QStringLiteral("the mDNS daemon's connection has no socket"));
        return;
    }
    Operation *browse = add(Kind::Browse, {}, 0);
    error = DNSServiceBrowse(&browse->ref, 0, kDNSServiceInterfaceIndexAny, kServiceType, nullptr,
                             &DnsSdCallbacks::browsed, browse);
    if (error != kDNSServiceErr_NoError) {
        browse->ref = nullptr;
        fail(QStringLiteral("browsing for %1 failed (DNS-SD error %2)")
                 .arg(QLatin1String(kServiceType))
                 .arg(error));
        return;
    }
    if (!watch(browse)) {
        fail(QStringLiteral("the mDNS daemon's connection has no socket"));
        return;
    }
    m_active = true;
}

void DnsSdDiscovery::stop()
{
    m_active = false;
    m_operations.clear();
}

void DnsSdDiscovery::fail(const QString &reason)
{
    stop();
    Q_EMIT unavailable(reason);
}

void DnsSdDiscovery::processResult(quint64 id)
{
    const auto it = m_operations.find(id);
    if (it == m_operations.end() || it->second->finished)
        return;
    Operation *op = it->second.get();
    const DNSServiceErrorType error = DNSServiceProcessResult(op->ref);
    if (error == kDNSServiceErr_NoError)
        return;
    if (op->kind == Kind::Register || op->kind == Kind::Browse) {
        // Queued: we are inside this operation's notifier.
        QMetaObject::invokeMethod(
            this,
            [this, error] {
                fail(QStringLiteral("the mDNS daemon stopped answering (DNS-SD error %1)").arg(error));
            },
            Qt::QueuedConnection);
        op->finished = true;
        op->notifier->setEnabled(false);
        return;
    }
    finish(id);
}

void DnsSdDiscovery::finish(quint64 id)
{
    const auto it = m_operations.find(id);
    if (it == m_operations.end() || it->second->finished)
        return;
    it->second->finished = true;
    if (it->second->notifier)
        it->second->notifier->setEnabled(false);
    // Deallocating a ref inside its own callback is not allowed: later, on the event loop.
    if (!m_cleanupQueued) {
        m_cleanupQueued = true;
        QMetaObject::invokeMethod(this, &DnsSdDiscovery::removeFinished, Qt::QueuedConnection);
    }
}

void DnsSdDiscovery::removeFinished()
{
    m_cleanupQueued = false;
    std::erase_if(m_operations, [](const auto &entry) {
        return entry.second->finished && entry.second->kind != Kind::Register &&
            entry.second->kind != Kind::Browse;
    });
}

void DnsSdDiscovery::browsed(Operation *, bool added, quint32 interfaceIndex, const char *name,
                             const char *type, const char *domain)
{
    const QString instance = QString::fromUtf8(name);
    if (!added) {
        for (auto &[id, op] : m_operations)
            if ((op->kind == Kind::Resolve || op->kind == Kind::Query) && op->instance == instance)
                finish(id);
        Q_EMIT lost(instance);
        return;
    }
    qsizetype lookups = 0;
    for (const auto &[id, op] : m_operations)
        if (!op->finished && (op->kind == Kind::Resolve || op->kind == Kind::Query))
            ++lookups;
    if (lookups >= kMaxLookups) {
        qCWarning(lcFederation).noquote() << "mDNS: too many announcements at once; skipping" << instance;
        return;
    }
    Operation *resolve = add(Kind::Resolve, instance, interfaceIndex);
    const DNSServiceErrorType error = DNSServiceResolve(&resolve->ref, 0, interfaceIndex, name, type, domain,
                                                        &DnsSdCallbacks::resolved, resolve);
    if (error != kDNSServiceErr_NoError) {
        resolve->ref = nullptr;
        finish(resolve->id);
        return;
    }
    if (!watch(resolve))
        finish(resolve->id);
}

void DnsSdDiscovery::resolved(Operation *op, const char *hostTarget, quint16 port, QByteArray txt)
{
    Operation *query = add(Kind::Query, op->instance, op->interfaceIndex);
    query->port = port;
    query->txt = std::move(txt);
    finish(op->id);
    const DNSServiceErrorType error =
        DNSServiceQueryRecord(&query->ref, 0, query->interfaceIndex, hostTarget, kDNSServiceType_A,
                              kDNSServiceClass_IN, &DnsSdCallbacks::answered, query);
    if (error != kDNSServiceErr_NoError) {
        query->ref = nullptr;
        finish(query->id);
        return;
    }
    if (!watch(query))
        finish(query->id);
}

void DnsSdDiscovery::answered(Operation *op, const QString &address)
{
    const DiscoveredService service {op->instance, address, op->port, op->txt};
    finish(op->id);
    Q_EMIT found(service);
}

} // namespace Federation
