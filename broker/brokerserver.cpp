#include "brokerserver.h"
#include "clock.h"
#include "federationlink.h"
#include "logging.h"
#include "secretstore.h"

#include "http/fdlimit.h"
#include "http/httpserver.h"
#include "internal/api.h"
#include "internal/brokercore.h"
#include "internal/deliveryhub.h"
#include "internal/jobscheduler.h"
#include "internal/ratelimiter.h"
#include "internal/service.h"
#include "internal/store.h"
#include "internal/tokenkeeper.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QLockFile>
#include <QSaveFile>
#include <QTimer>

namespace Broker {

class BrokerServer::Private
{
public:
    explicit Private(Settings s) : settings(std::move(s)) { }

    Settings settings;
    std::shared_ptr<Clock> clock = systemClock();
    std::shared_ptr<FederationLink> federation;
    std::shared_ptr<SecretStore> keychain;
    QList<std::shared_ptr<BrokerModule>> modules;
    std::function<QByteArray()> federationKey;

    std::unique_ptr<QLockFile> lock;
    std::unique_ptr<BrokerCore> core;
    Service *service = nullptr; // core's, while running
    std::unique_ptr<Http::HttpServer> http;
    // Not a job: it notices the broker's own pause, which a job on the monotonic clock cannot.
    QTimer clockTimer;
    bool running = false;
    bool pidFileWritten = false;
    qint64 fdLimit = -1; // soft RLIMIT_NOFILE after raising it; -1 none

    int connectionCap() const { return Http::connectionCapForFdLimit(fdLimit, settings.maxConnections); }

    Http::ServerLimits limits() const
    {
        Http::ServerLimits l;
        l.maxBodyBytes = settings.maxBodyBytes;
        l.maxHeaderBytes = settings.maxHeaderBytes;
        l.maxConnections = connectionCap();
        l.idleTimeoutMs = settings.idleTimeoutMs;
        l.requestTimeoutMs = settings.requestTimeoutMs;
        // Answers wait for the group commit: take a client's pipelined requests in one pass so
        // that they share the commit (answered in order all the same).
        l.maxPipelinedRequests = 64;
        return l;
    }

    Result<void> takeLock()
    {
        lock = std::make_unique<QLockFile>(settings.location.lockPath());
        // Staleness by PID only: a broker may hold the lock for months.
        lock->setStaleLockTime(0);
        if (lock->tryLock(0))
            return {};
        const QLockFile::LockError error = lock->error();
        qint64 pid = 0;
        QString host, app;
        lock->getLockInfo(&pid, &host, &app);
        lock.reset();
        if (error == QLockFile::LockFailedError)
            return fail(
                ErrorKind::Locked,
                QStringLiteral("Another claude-peers broker (pid %1) is already using %2. Stop it with: "
                               "claude-peers kill-broker")
                    .arg(pid)
                    .arg(settings.location.databasePath));
        return fail(
            ErrorKind::Lock,
            QStringLiteral("Cannot create the lock file %1 (%2). Check that the directory exists and is "
                           "writable, or set CLAUDE_PEERS_DB.")
                .arg(settings.location.lockPath(),
                     error == QLockFile::PermissionError ? QStringLiteral("permission denied")
                                                         : QStringLiteral("unknown error")));
    }

    void writePidFile()
    {
        QSaveFile file(settings.location.pidPath());
        if (file.open(QIODevice::WriteOnly)) {
            file.write(QByteArray::number(QCoreApplication::applicationPid()) + '\n');
            pidFileWritten = file.commit();
        }
        if (!pidFileWritten)
            qCWarning(lcServer).noquote() << "Cannot write pid file" << settings.location.pidPath();
    }

    void rereadToken() { core->tokens().rereadFile(); }

    void runSweeps()
    {
        if (auto stale = service->sweepStalePeers(); !stale)
            qCWarning(lcMaintenance).noquote() << "Stale-peer sweep failed:" << stale.error().message;
        if (auto orphans = service->sweepOrphans(); !orphans)
            qCWarning(lcMaintenance).noquote() << "Orphan sweep failed:" << orphans.error().message;
    }

    // A look at the clocks a few times per heartbeat timeout; a gap of more than two looks
    // (plus a second of slack for a loaded machine) means the broker itself was not running.
    void scheduleClockChecks()
    {
        const int timeout = settings.heartbeatTimeoutMs;
        if (timeout <= 0) {
            clockTimer.stop();
            return;
        }
        const int interval = qBound(250, timeout / 4, 5000);
        service->setPauseThresholdMs(2 * interval + 1000);
        clockTimer.start(interval);
    }

    void runPurge()
    {
        if (auto purged = service->purgeDelivered(settings.deliveredRetentionMs); !purged)
            qCWarning(lcMaintenance).noquote() << "Purge failed:" << purged.error().message;
    }

    // The broker's own periodic work, as jobs like the modules' (timed by the broker's clock, so
    // a test's ManualClock drives them too).
    QList<ModuleJob> maintenanceJobs()
    {
        return {
            {QStringLiteral("stale-peer and orphan sweep"), settings.sweepIntervalMs,
             [this] { runSweeps(); }},
            {QStringLiteral("purge of delivered messages"), settings.purgeIntervalMs, [this] { runPurge(); }},
            {QStringLiteral("token file re-read"), settings.tokenRereadMs, [this] { rereadToken(); }},
            {QStringLiteral("request counter and rate-limit cleanup"), settings.statsIntervalMs,
             [this] {
                 core->api().rotateRequestCounter();
                 core->rateLimiter().collectGarbage(clock->msecsSinceEpoch());
             }},
        };
    }

    void teardown()
    {
        clockTimer.stop();
        // Jobs and modules stop, waits are answered and the batch committed before the server
        // closes the connections.
        if (core)
            core->close();
        if (http)
            http->close();
        http.reset();
        service = nullptr;
        core.reset();
        if (pidFileWritten) {
            QFile::remove(settings.location.pidPath());
            pidFileWritten = false;
        }
        if (lock) {
            lock->unlock();
            lock.reset();
        }
    }
};

BrokerServer::BrokerServer(Settings settings, QObject *parent)
    : QObject(parent), d(std::make_unique<Private>(std::move(settings)))
{
    d->clockTimer.setTimerType(Qt::CoarseTimer);
    d->clockTimer.callOnTimeout(this, [this] { d->service->observeClocks(); });
}

BrokerServer::~BrokerServer()
{
    stop();
}

void BrokerServer::setClock(std::shared_ptr<Clock> clock)
{
    Q_ASSERT(!d->running);
    if (clock)
        d->clock = std::move(clock);
}

void BrokerServer::setFederationLink(std::shared_ptr<FederationLink> link)
{
    Q_ASSERT(!d->running);
    d->federation = std::move(link);
}

void BrokerServer::setSecretStore(std::shared_ptr<SecretStore> keychain)
{
    Q_ASSERT(!d->running);
    d->keychain = std::move(keychain);
}

void BrokerServer::addModule(std::shared_ptr<BrokerModule> module)
{
    Q_ASSERT(!d->running && module);
    d->modules.append(std::move(module));
}

void BrokerServer::setFederationKey(std::function<QByteArray()> key)
{
    Q_ASSERT(!d->running);
    d->federationKey = std::move(key);
}

SecretsStatus BrokerServer::secretsStatus() const
{
    if (!d->core)
        return {SecretLocation {SecretLocation::Kind::File, d->settings.location.tokenPath},
                d->settings.location.tokenPath, QStringLiteral("The broker is not running.")};
    return d->core->tokens().status();
}

Result<void> BrokerServer::start()
{
    if (d->running)
        return {};
    const Location &location = d->settings.location;
    if (auto locked = d->takeLock(); !locked)
        return locked;

    if (!d->federation)
        d->federation = std::make_shared<DisabledFederationLink>(d->settings.federationPort);
    d->core = std::make_unique<BrokerCore>(
        d->settings, BrokerCore::Parts {d->clock, d->federation, d->keychain, d->modules, this});
    if (auto opened = d->core->open(); !opened) {
        d->teardown();
        return opened;
    }
    if (d->federationKey)
        d->core->api().setFederationKey(d->federationKey);
    d->service = &d->core->service();

    Service *service = d->service;
    connect(service, &Service::peerRegistered, this, &BrokerServer::peerRegistered);
    connect(service, &Service::peerUpdated, this, &BrokerServer::peerUpdated);
    connect(service, &Service::peerRemoved, this, &BrokerServer::peerRemoved);
    connect(service, &Service::messageStored, this, [this](const Message &message) {
        Q_EMIT messageStored(message.id, message.fromId, message.toId);
    });
    connect(service, &Service::messageDelivered, this, &BrokerServer::messageDelivered);
    connect(&d->core->api(), &Api::reloadRequested, this, &BrokerServer::reload);
    connect(&d->core->api(), &Api::shutdownRequested, this, &BrokerServer::shutdownRequested);

    // Startup order of the reference (§5): stale peers, purge, orphans, then listen.
    d->runSweeps();
    d->runPurge();

    d->fdLimit = Http::raiseFileDescriptorLimit();
    if (d->connectionCap() < d->settings.maxConnections)
        qCInfo(lcServer).noquote()
            << QStringLiteral("At most %1 connections (not %2): the open-file limit is %3. Raise it with "
                              "`ulimit -n` or the unit's LimitNOFILE for more.")
                   .arg(d->connectionCap())
                   .arg(d->settings.maxConnections)
                   .arg(d->fdLimit);
    d->http = std::make_unique<Http::HttpServer>(&d->core->api(), d->limits());
    if (auto listening = d->http->listen(QHostAddress::LocalHost, location.port); !listening) {
        const Error error = listening.error();
        d->teardown();
        if (error.kind == ErrorKind::PortInUse)
            return fail(
                ErrorKind::PortInUse,
                QStringLiteral("Port %1 is already in use. Another broker or program listens there; set "
                               "CLAUDE_PEERS_PORT or stop it.")
                    .arg(location.port));
        return fail(ErrorKind::Listen, error.message);
    }
    d->writePidFile();

    for (ModuleJob &job : d->maintenanceJobs()) {
        if (auto added = d->core->jobs().add(QStringLiteral("broker"), std::move(job)); !added) {
            const Error error = added.error();
            d->teardown();
            return fail(error.kind, error.message);
        }
    }
    d->scheduleClockChecks();
    d->core->jobs().start();
    d->running = true;
    qCInfo(lcServer).noquote() << QStringLiteral("Broker listening on 127.0.0.1:%1 (pid %2, database %3)")
                                      .arg(d->http->serverPort())
                                      .arg(QCoreApplication::applicationPid())
                                      .arg(location.databasePath);
    return {};
}

void BrokerServer::stop()
{
    if (!d->running)
        return;
    d->running = false;
    d->teardown();
    qCInfo(lcServer) << "Broker stopped";
}

bool BrokerServer::isRunning() const
{
    return d->running;
}

quint16 BrokerServer::port() const
{
    return d->http ? d->http->serverPort() : d->settings.location.port;
}

const Settings &BrokerServer::settings() const
{
    return d->settings;
}

void BrokerServer::reload()
{
    if (!d->running)
        return;
    d->rereadToken();
    if (d->settings.reloadable) {
        const Settings fresh = Settings::load(d->settings.location);
        d->settings.heartbeatTimeoutMs = fresh.heartbeatTimeoutMs;
        d->settings.rateLimitPerMinute = fresh.rateLimitPerMinute;
        d->settings.maxConnections = fresh.maxConnections;
        d->settings.idleTimeoutMs = fresh.idleTimeoutMs;
        d->settings.maxBodyBytes = fresh.maxBodyBytes;
        d->service->setHeartbeatTimeoutMs(d->settings.heartbeatTimeoutMs);
        d->scheduleClockChecks();
        d->core->rateLimiter().setLimit(d->settings.rateLimitPerMinute);
        d->http->setLimits(d->limits());
    }
    for (const auto &module : std::as_const(d->modules))
        module->reload();
    qCInfo(lcServer) << "Reloaded token and configuration";
}

void BrokerServer::runMaintenance()
{
    if (!d->running)
        return;
    d->runSweeps();
    d->runPurge();
}

void BrokerServer::runDueJobs()
{
    if (d->running)
        d->core->jobs().runDue();
}

QList<Peer> BrokerServer::remotePeers() const
{
    return d->running && d->federation ? d->federation->remotePeers() : QList<Peer> {};
}

QStringList BrokerServer::federationWarnings() const
{
    QStringList warnings;
    if (d->running && d->federation && d->federation->isEnabled()) {
        const QJsonArray list = d->federation->status().value(QLatin1String("warnings")).toArray();
        for (const QJsonValue &warning : list)
            warnings << warning.toString();
    }
    return warnings;
}

QList<Peer> BrokerServer::peers() const
{
    if (!d->running)
        return {};
    auto all = d->core->store().peers();
    if (!all)
        return {};
    QList<Peer> alive;
    for (const Peer &peer : std::as_const(*all)) {
        if (!d->service->isGone(peer))
            alive.append(peer);
    }
    return alive;
}

qint64 BrokerServer::pendingMessageCount() const
{
    if (!d->running)
        return 0;
    auto counts = d->core->store().counts();
    return counts ? counts->pending : 0;
}

Result<QList<Peer>> BrokerServer::localPeers()
{
    if (!d->running)
        return fail(ErrorKind::Stopped, QStringLiteral("The broker is not running"));
    return d->service->listPeers(QStringLiteral("machine"), {}, {}, {});
}

Result<qint64> BrokerServer::storeRelayedMessage(const QString &fromId, const QString &toId,
                                                 const QString &text, const QString &type,
                                                 const QJsonValue &metadata, std::optional<qint64> replyTo)
{
    if (!d->running)
        return fail(ErrorKind::Stopped, QStringLiteral("The broker is not running"));
    return d->service->storeRelayed(fromId, toId, text, type, metadata, replyTo);
}

int BrokerServer::waitingPeerCount() const
{
    return d->core && d->core->isOpen() ? d->core->hub().waitingCount() : 0;
}

} // namespace Broker
