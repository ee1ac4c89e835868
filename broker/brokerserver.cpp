#include "broker/brokerserver.h"
#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/federationlink.h"
#include "broker/secretstore.h"

#include "broker/handover/handoverserver.h"
#include "broker/handover/socketactivation.h"
#include "broker/handover/successor.h"
#include "broker/http/fdlimit.h"
#include "broker/http/httpserver.h"
#include "broker/internal/api.h"
#include "broker/internal/brokercore.h"
#include "broker/internal/deliveryhub.h"
#include "broker/internal/jobscheduler.h"
#include "broker/internal/ratelimiter.h"
#include "broker/internal/requestkey.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"
#include "broker/internal/tokenkeeper.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLockFile>
#include <QSaveFile>
#include <QTimer>

namespace Broker {

class BrokerServer::Private
{
public:
    Private(BrokerServer *owner, Settings s) : q(owner), settings(std::move(s)) { }

    BrokerServer *q;
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

    // Hand-over (docs/decisions.md "Listening sockets handed over").
    bool takeOver = false;
    qint64 tookOverFrom = 0;
    struct InheritedListener
    {
        QString name; // empty: from systemd, known by its port only
        quint16 port = 0;
        Handover::Fd::Owned fd;
    };
    std::vector<InheritedListener> inherited;
    QHash<QString, ListenerHandle> listeners; // the modules' sockets a successor takes too
    std::unique_ptr<Handover::HandoverServer> handoverServer;
    Handover::Fd::Owned successor; // while handing over
    qint64 successorPid = 0;
    QTimer drainTimer;
    QDeadlineTimer drainDeadline;
    QElapsedTimer handoverClock;
    static constexpr int kDrainMs = 1000; // a client that connected just before: its first request

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
        const qint64 cutoff = clock->msecsSinceEpoch() - RequestKey::keepMs;
        if (auto forgotten = core->store().forgetKeyedAnswersBefore(cutoff); !forgotten)
            qCWarning(lcMaintenance).noquote()
                << "Forgetting old request keys failed:" << forgotten.error().message;
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
        drainTimer.stop();
        // Its socket file goes now; the object later: this may run inside its own callback.
        if (handoverServer) {
            handoverServer->close();
            handoverServer.release()->deleteLater();
        }
        listeners.clear();
        inherited.clear();
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
        // The database is closed and the lock free: the successor may open it now.
        if (successor.isValid()) {
            if (auto sent = Handover::Fd::send(successor.get(), Handover::encode(Handover::Done {}), {},
                                               QDeadlineTimer(1000));
                !sent)
                qCWarning(lcServer).noquote()
                    << "Hand-over: cannot tell the successor we are done:" << sent.error().message;
            successor.reset();
        }
    }

    void adoptActivatedSockets()
    {
        for (Handover::ActivatedSocket &socket : Handover::takeActivatedSockets()) {
            qCInfo(lcServer).noquote() << "Socket activation: listening socket on port" << socket.port;
            inherited.push_back({QString(), socket.port, std::move(socket.fd)});
        }
    }

    void takeOverFromRunning()
    {
        const QString path = Handover::socketPath(settings.location.port);
        auto taken = Handover::takeOver(
            path, Handover::Request {QCoreApplication::applicationPid(), settings.location.databasePath});
        if (!taken) {
            if (taken.error().kind != ErrorKind::Missing)
                qCWarning(lcServer).noquote()
                    << QStringLiteral("Hand-over from the running broker failed (%1); starting the usual way")
                           .arg(taken.error().message);
            return;
        }
        tookOverFrom = taken->fromPid;
        for (Handover::Inherited::Socket &socket : taken->sockets)
            inherited.push_back({socket.listener.name, socket.listener.port, std::move(socket.fd)});
        qCInfo(lcServer).noquote()
            << QStringLiteral("Hand-over: took the listening sockets of the broker with pid %1 in %2 ms; its "
                              "database was closed after %3 ms")
                   .arg(tookOverFrom)
                   .arg(taken->offerMs)
                   .arg(taken->doneMs);
    }

    void listenForSuccessor()
    {
        handoverServer = std::make_unique<Handover::HandoverServer>(
            [this](const Handover::Request &request, Handover::Fd::Owned connection) {
                onHandoverRequest(request, std::move(connection));
            });
        const QString path = Handover::socketPath(http->serverPort());
        if (auto listening = handoverServer->listen(path); !listening) {
            qCWarning(lcServer).noquote() << "No hand-over socket (a successor will ask this broker to shut "
                                             "down instead):"
                                          << listening.error().message;
            handoverServer.reset();
        }
    }

    void refuse(const Handover::Fd::Owned &connection, const QString &why)
    {
        qCWarning(lcServer).noquote() << "Hand-over refused:" << why;
        (void)Handover::Fd::send(connection.get(), Handover::encode(Handover::Refusal {why}), {},
                                 QDeadlineTimer(500));
    }

    void onHandoverRequest(const Handover::Request &request, Handover::Fd::Owned connection)
    {
        if (!running || successor.isValid()) {
            refuse(connection, QStringLiteral("this broker is not running or already handing over"));
            return;
        }
        if (QFileInfo(request.databasePath).absoluteFilePath() !=
            QFileInfo(settings.location.databasePath).absoluteFilePath()) {
            refuse(connection,
                   QStringLiteral("this broker serves the database %1, not %2")
                       .arg(settings.location.databasePath, request.databasePath));
            return;
        }
        Handover::Offer offer {QCoreApplication::applicationPid(), {}};
        std::vector<int> fds;
        const auto add = [&](const QString &name, int fd) {
            if (fd < 0 || int(fds.size()) >= Handover::kMaxListeners)
                return;
            const auto port = Handover::Fd::listeningPort(fd);
            if (!port)
                return;
            offer.listeners.append({name, *port});
            fds.push_back(fd);
        };
        add(QStringLiteral("local"), http->listenerDescriptor());
        for (auto it = listeners.cbegin(); it != listeners.cend(); ++it)
            add(it.key(), it->descriptor ? it->descriptor() : -1);
        if (fds.empty() || offer.listeners.first().name != QLatin1String("local")) {
            refuse(connection, QStringLiteral("this broker has no listening socket to hand over"));
            return;
        }
        if (auto sent =
                Handover::Fd::send(connection.get(), Handover::encode(offer), fds, QDeadlineTimer(1000));
            !sent) {
            qCWarning(lcServer).noquote()
                << "Hand-over: cannot send the listening sockets:" << sent.error().message << "- serving on";
            return;
        }
        // From here the successor holds the sockets: we accept no more, serve what we accepted,
        // answer the held waits, and close the database before it opens it.
        handoverClock.start();
        successor = std::move(connection);
        successorPid = request.pid;
        handoverServer->close(); // its file goes: the successor makes its own
        http->stopAccepting();
        for (const ListenerHandle &listener : std::as_const(listeners)) {
            if (listener.stopAccepting)
                listener.stopAccepting();
        }
        qCInfo(lcServer).noquote()
            << QStringLiteral("Hand-over to pid %1: sent %2 listening socket(s), no longer accepting; "
                              "finishing %3 connection(s)")
                   .arg(successorPid)
                   .arg(fds.size())
                   .arg(http->connectionCount());
        drainDeadline = QDeadlineTimer(kDrainMs);
        http->drain(); // first: the answers below then close their connections
        core->hub().stopHolding();
        continueDrain();
    }

    void continueDrain()
    {
        if (!successor.isValid() || !http)
            return;
        if (!http->drain() && !drainDeadline.hasExpired()) {
            if (!drainTimer.isActive())
                drainTimer.start();
            return;
        }
        drainTimer.stop();
        const qint64 pid = successorPid;
        const qint64 drainedMs = handoverClock.elapsed();
        running = false;
        teardown(); // commit, close the database, release the lock, then "done" to the successor
        qCInfo(lcServer).noquote()
            << QStringLiteral("Hand-over to pid %1 complete: connections finished in %2 ms, database closed "
                              "after %3 ms")
                   .arg(pid)
                   .arg(drainedMs)
                   .arg(handoverClock.elapsed());
        Q_EMIT q->handedOver(pid);
    }

    int takeInherited(const QString &name, quint16 port)
    {
        for (auto it = inherited.begin(); it != inherited.end(); ++it) {
            if ((!it->name.isEmpty() && it->name == name) || (it->name.isEmpty() && it->port == port)) {
                const int fd = it->fd.release();
                inherited.erase(it);
                return fd;
            }
        }
        return -1;
    }
};

BrokerServer::BrokerServer(Settings settings, QObject *parent)
    : QObject(parent), d(std::make_unique<Private>(this, std::move(settings)))
{
    d->drainTimer.setInterval(5);
    d->drainTimer.callOnTimeout(this, [this] { d->continueDrain(); });
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
    if (d->federation)
        d->federation->setRemotePeersChanged([this] { Q_EMIT remotePeersChanged(); });
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
    d->inherited.clear();
    d->tookOverFrom = 0;
    d->adoptActivatedSockets();
    if (d->takeOver && d->inherited.empty())
        d->takeOverFromRunning();
    if (auto locked = d->takeLock(); !locked) {
        d->inherited.clear();
        return locked;
    }

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

    // Startup order of the reference (docs/spec/peers-api.md §5): stale peers, purge, orphans, then listen.
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
    const int inheritedFd = d->takeInherited(QStringLiteral("local"), location.port);
    if (auto listening = inheritedFd >= 0 ? d->http->adopt(inheritedFd)
                                          : d->http->listen(QHostAddress::LocalHost, location.port);
        !listening) {
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
    for (const auto &left : std::as_const(d->inherited))
        qCWarning(lcServer).noquote()
            << "An inherited listening socket on port" << left.port << "is not used; closed";
    d->inherited.clear();
    d->listenForSuccessor();
    qCInfo(lcServer).noquote() << QStringLiteral("Broker listening on 127.0.0.1:%1 (pid %2, database %3)")
                                      .arg(d->http->serverPort())
                                      .arg(QCoreApplication::applicationPid())
                                      .arg(location.databasePath);
    return {};
}

void BrokerServer::setTakeOver(bool takeOver)
{
    Q_ASSERT(!d->running);
    d->takeOver = takeOver;
}

qint64 BrokerServer::tookOverFrom() const
{
    return d->tookOverFrom;
}

void BrokerServer::registerListener(const QString &name, ListenerHandle handle)
{
    d->listeners.insert(name, std::move(handle));
}

int BrokerServer::takeInheritedListener(const QString &name, quint16 port)
{
    return d->takeInherited(name, port);
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
