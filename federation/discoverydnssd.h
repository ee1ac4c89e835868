#pragma once

#include "federation/discovery.h"

#include <map>
#include <memory>

class QSocketNotifier;

// DNS-SD through dns_sd.h (Avahi's compat library on Linux, Bonjour elsewhere): register
// `_claude-peers._tcp`, browse it, resolve each instance (host, port, TXT) and ask for the
// host's A record (the system resolver may not know .local names). Every DNSServiceRef's socket
// is watched by a QSocketNotifier, so everything runs on the caller's event loop.
namespace Federation {

class DnsSdDiscovery final : public Discovery
{
    Q_OBJECT
public:
    static constexpr const char *kServiceType = "_claude-peers._tcp"; // 0.7's
    static constexpr int kMaxLookups = 32; // resolves/queries in flight; more announcements wait
    static constexpr int kLookupTimeoutMs = 10'000;

    explicit DnsSdDiscovery(QObject *parent = nullptr);
    ~DnsSdDiscovery() override;

    void start(const QString &instance, quint16 port, const QByteArray &txt) override;
    void stop() override;
    bool isActive() const override { return m_active; }

    struct Operation;

private:
    enum class Kind { Register, Browse, Resolve, Query };
    Operation *add(Kind kind, const QString &instance, quint32 interfaceIndex);
    bool watch(Operation *operation);
    void processResult(quint64 id);
    void finish(quint64 id);
    void removeFinished();
    void fail(const QString &reason);

    // The dns_sd callbacks (discoverydnssd.cpp) call back into these.
    friend struct DnsSdCallbacks;
    void browsed(Operation *op, bool added, quint32 interfaceIndex, const char *name, const char *type,
                 const char *domain);
    void resolved(Operation *op, const char *hostTarget, quint16 port, QByteArray txt);
    void answered(Operation *op, const QString &address);

    std::map<quint64, std::unique_ptr<Operation>> m_operations;
    quint64 m_nextId = 1;
    bool m_active = false;
    bool m_cleanupQueued = false;
};

} // namespace Federation
