#include "federation/federationmodule.h"

#include "broker/brokerserver.h"
#include "broker/clock.h"
#include "broker/filesecretstore.h"
#include "broker/handover/fdpassing.h"
#include "broker/http/httpserver.h"
#include "common/config.h"
#include "federation/certificate.h"
#include "federation/challengeserver.h"
#include "federation/challengespeakers.h"
#include "federation/federationlogging.h"
#include "federation/ignoredmachines.h"
#include "federation/internal/localroute.h"
#include "federation/joinurl.h"
#include "federation/pairing.h"
#include "federation/pendingrequests.h"
#include "federation/pskkeeper.h"
#include "federation/relayenvelope.h"
#include "federation/replayguard.h"
#include "federation/revokedremotes.h"
#include "federation/sessiontransport.h"
#include "federation/tlsserver.h"

#include <QJsonArray>
#include <QNetworkInterface>
#include <QSqlQuery>

#include <unistd.h>

using Broker::ErrorKind;
using Broker::fail;

namespace Federation {

bool FederationModule::listsRemote(const QList<Broker::ConfigFile::Remote> &remotes,
                                   const Broker::ConfigFile::Remote &remote)
{
    return std::any_of(remotes.cbegin(), remotes.cend(), [&](const Broker::ConfigFile::Remote &listed) {
        return listed.host == remote.host && listed.port == remote.port;
    });
}

FederationModule::FederationModule(FederationSettings settings, Parts parts)
    : m_settings(std::move(settings)), m_parts(std::move(parts))
{
    if (!m_parts.pskFile) {
        m_parts.pskFile = std::make_shared<Broker::FileSecretStore>(
            QHash<QString, QString> {{QString(Broker::SecretStore::federationPskKey),
                                      m_settings.home + QStringLiteral("/.claude-peers-federation-psk")}});
    }
    if (!m_parts.transport && m_parts.plainHttp)
        m_parts.transport = std::make_shared<PlainHttpTransport>();
    if (!m_parts.transport) {
        m_parts.transport = std::make_shared<TlsLinkTransport>(
            [this](const RemoteAddress &address) { return pinFor(address); },
            // A pin first seen is kept only once the remote proved the PSK over it (keepProvenPin).
            [](const RemoteAddress &, const QString &) {});
    }
    if (!m_parts.server && m_parts.plainHttp) {
        m_parts.server = [](Broker::Http::RequestHandler *handler, const Broker::Http::ServerLimits &limits) {
            return std::make_unique<Broker::Http::HttpServer>(handler, limits);
        };
    }
}

FederationModule::~FederationModule()
{
    stop();
}

QList<Broker::ModuleMigration> FederationModule::migrations() const
{
    return ReplayGuard::migrations() + ChallengeSpeakers::migrations() + RevokedRemotes::migrations() +
        AttemptLog::migrations() + IgnoredMachines::migrations();
}

QByteArray FederationModule::psk() const
{
    return m_psk ? m_psk->psk() : QByteArray();
}

quint16 FederationModule::listeningPort() const
{
    return m_server && m_server->isListening() ? m_server->serverPort() : 0;
}

Broker::Result<void> FederationModule::start(Broker::ModuleContext &context)
{
    m_context = &context;
    m_started = true;
    m_psk = std::make_unique<PskKeeper>(m_parts.keychain, m_parts.pskFile, m_settings.tokenPath);
    m_guard = std::make_unique<ReplayGuard>([this] { return m_context->database(); }, context.clock());
    m_speakers =
        std::make_unique<ChallengeSpeakers>([this] { return m_context->database(); }, context.clock());
    m_revoked = std::make_unique<RevokedRemotes>([this] { return m_context->database(); }, context.clock());
    m_attempts = std::make_unique<AttemptLog>([this] { return m_context->database(); }, context.clock());
    m_ignored = std::make_unique<IgnoredMachines>([this] { return m_context->database(); }, context.clock());
    startPairing(context);
    // A successor takes the federation port over with the local one.
    context.server().registerListener(QStringLiteral("federation"),
                                      {[this] { return m_server ? m_server->listenerDescriptor() : -1; },
                                       [this] {
                                           if (m_server)
                                               m_server->stopAccepting();
                                       }});
    if (m_settings.enabled)
        bringUp();
    return {};
}

void FederationModule::applySubnets()
{
    m_subnetError.clear();
    if (m_settings.subnets.isEmpty()) {
        m_subnets = SubnetFilter::detectLocal(m_parts.environment);
    } else if (auto parsed = SubnetFilter::parse(m_settings.subnets)) {
        m_subnets = *parsed;
    } else {
        // 0.7 refuses everyone on a bad subnet; we do too, and say why in status.
        m_subnets = SubnetFilter();
        m_subnetError = parsed.error().message;
        qCWarning(lcFederation).noquote() << m_subnetError << "The federation port refuses every source.";
    }
}

void FederationModule::openServer()
{
    m_listenError.clear();
    m_certificateError.clear();
    Broker::Http::ServerLimits limits;
    limits.maxBodyBytes = m_context->server().settings().maxBodyBytes; // the relay's limit = the local API's
    limits.maxHeaderBytes = m_context->server().settings().maxHeaderBytes;
    limits.maxConnections = 256;
    m_tls = nullptr;
    if (m_parts.server) {
        m_server = m_parts.server(m_recorder.get(), limits);
    } else {
        auto identity =
            ensureIdentity(CertificateFiles::fromEnvironment(m_parts.environment, m_settings.home),
                           m_settings.hostname, {}, kRenewBeforeDays, m_context->clock().now());
        if (!identity) {
            m_certificateError =
                QStringLiteral("The federation certificate is not usable: %1").arg(identity.error().message);
            qCWarning(lcFederation).noquote() << m_certificateError;
        } else {
            m_ownPin = identity->identity.pin;
            TlsServerOptions options;
            options.limits = limits;
            auto server = std::make_unique<TlsHttpServer>(m_recorder.get(), identity->identity, options);
            m_tls = server.get();
            m_server = std::move(server);
        }
    }
    if (!m_server) {
        // No certificate, no port; outbound links still work.
    } else if (auto listening = listenOrAdopt(); !listening) {
        // 0.7 logs a failed federation start and serves the local API without it.
        m_listenError = QStringLiteral("The federation port %1 cannot be opened: %2")
                            .arg(m_settings.port)
                            .arg(listening.error().message);
        qCWarning(lcFederation).noquote() << m_listenError;
    } else {
        qCInfo(lcFederation).noquote()
            << "federation port" << m_server->serverPort() << "as" << m_settings.hostname;
    }
}

// The socket the broker before us (a hand-over) or systemd passed for our port, else a new one.
Broker::Result<void> FederationModule::listenOrAdopt()
{
    const int inherited =
        m_context->server().takeInheritedListener(QStringLiteral("federation"), quint16(m_settings.port));
    if (inherited >= 0) {
        if (auto port = Broker::Handover::Fd::listeningPort(inherited); port && *port == m_settings.port)
            return m_server->adopt(inherited);
        ::close(inherited); // the port changed since: a socket of our own
    }
    return m_server->listen(m_parts.listenAddress, m_settings.port);
}

void FederationModule::closeServer()
{
    m_tls = nullptr;
    if (m_server)
        m_server->close();
    m_server.reset();
}

void FederationModule::bringUp()
{
    if (!m_settings.hostnameError.isEmpty()) {
        // 0.7: federation startup fails, the broker goes on without it.
        qCWarning(lcFederation).noquote() << m_settings.hostnameError << "Federation stays off.";
        m_settings.enabled = false;
        return;
    }
    Broker::ModuleContext &context = *m_context;
    InboundHandler::Context inbound;
    inbound.hostname = m_settings.hostname;
    inbound.acceptLegacy = m_settings.acceptLegacy;
    inbound.psk = [this] { return psk(); };
    applySubnets();
    inbound.subnets = &m_subnets;
    inbound.broker = &context.server();
    inbound.clock = &context.clock();
    inbound.guard = m_guard.get();
    m_challenges = std::make_unique<ChallengeServer>(ChallengeServer::Context {
        m_settings.hostname, [this] { return psk(); }, [this] { return m_ownPin; }, &context.clock()});
    inbound.challenges = m_challenges.get();
    inbound.onHandshake = [this](const QHostAddress &from, const QString &hostname, std::optional<int> port) {
        inboundHandshake(from, hostname, port);
    };
    inbound.onPeersChanged = [this](const QString &hostname) {
        if (m_links)
            m_links->syncRemote(hostname);
    };
    inbound.pairing = [this](const Broker::Http::Request &request,
                             const Broker::Http::ResponderPtr &responder) {
        return m_pairing && m_pairing->handleInbound(request, responder);
    };
    inbound.revoked = [this](const QString &hostname, const QString &pin) {
        return m_revoked ? m_revoked->refusal(hostname, pin) : QString();
    };
    m_inbound = std::make_unique<InboundHandler>(std::move(inbound));
    m_recorder = std::make_unique<AttemptRecordingHandler>(m_inbound.get(), m_attempts.get());
    openServer();

    // The handshake tells the callee our port, so it can reach us back.
    LinkIdentity identity {m_settings.hostname, listeningPort() ? listeningPort() : m_settings.port,
                           [this] { return psk(); }};
    const Broker::Clock &clock = context.clock();
    auto sign = [this, &clock](const Broker::RemoteMessage &message, const QString &peerId,
                               const QString &remoteHostname) {
        RelayMessage relay;
        relay.fromId = m_settings.hostname + QLatin1Char(':') + message.fromId;
        relay.fromMachine = m_settings.hostname;
        relay.toId = peerId;
        relay.text = message.text;
        relay.type = message.type.isEmpty() ? QStringLiteral("text") : message.type;
        relay.metadata = message.metadata ? JsonValue::fromQJson(*message.metadata) : JsonValue::null();
        relay.replyTo = message.replyTo;
        return signRelay(relay, RelayReplay::fresh(clock.msecsSinceEpoch(), remoteHostname), psk());
    };
    SessionTransport::Hooks hooks;
    hooks.hostname = m_settings.hostname;
    hooks.federationPort = [this] { return listeningPort() ? listeningPort() : quint16(m_settings.port); };
    hooks.ownPin = [this] { return m_ownPin; };
    hooks.pinFor = [this](const RemoteAddress &address) { return pinFor(address); };
    hooks.keepPin = [this](const RemoteAddress &address, const QString &pin) { keepProvenPin(address, pin); };
    hooks.speaksChallenge = [this](const QString &identity) {
        return m_speakers && m_speakers->speaks(identity);
    };
    hooks.recordSpeaker = [this](const QString &identity, const RemoteAddress &address,
                                 const QString &hostname) {
        if (m_speakers)
            m_speakers->record(identity, address.key(), hostname);
    };
    hooks.legacyChosen = [this](const RemoteAddress &address) { outboundLegacy(address); };
    m_sessions = std::make_unique<SessionTransport>(*m_parts.transport, clock, std::move(hooks));
    m_links = std::make_unique<RemoteLinks>(*m_sessions, clock, identity, sign);
    m_links->onConnected = [this](const Remote &remote) { remoteConnected(remote); };
    m_links->onPeersChanged = [this] { remotePeersChanged(); };

    // Register, unregister, rename, summary: linked brokers of ours hear of it at once instead
    // of at their next 30 s sync (heartbeats change nothing they list and are not announced).
    m_announceTimer.setSingleShot(true);
    connect(&m_announceTimer, &QTimer::timeout, this, &FederationModule::announceIfChanged,
            Qt::UniqueConnection);
    Broker::BrokerServer *server = &context.server();
    connect(server, &Broker::BrokerServer::peerRegistered, this, &FederationModule::localPeersChanged,
            Qt::UniqueConnection);
    connect(server, &Broker::BrokerServer::peerUpdated, this, &FederationModule::localPeersChanged,
            Qt::UniqueConnection);
    connect(server, &Broker::BrokerServer::peerRemoved, this, &FederationModule::localPeersChanged,
            Qt::UniqueConnection);

    m_psk->load([this](Broker::Result<void> loaded) {
        if (!loaded) {
            m_pskError = loaded.error().message;
            qCWarning(lcFederation).noquote() << m_pskError;
            return;
        }
        pskLoaded();
    });
}

void FederationModule::bringDown()
{
    m_announceTimer.stop();
    if (m_context)
        disconnect(&m_context->server(), nullptr, this, nullptr);
    stopDiscovery();
    closeServer();
    m_recorder.reset();
    m_inbound.reset();
    if (m_links)
        m_links->clear();
    m_links.reset();
    m_sessions.reset();
    m_challenges.reset();
    m_listenError.clear();
    m_certificateError.clear();
    m_subnetError.clear();
}

void FederationModule::pskLoaded()
{
    if (!m_links)
        return;
    m_pskError.clear();
    qCInfo(lcFederation).noquote() << "federation PSK kept in" << m_psk->where().describe();
    if (m_psk->equalsLocalToken())
        qCWarning(lcFederation).noquote() << "the federation PSK is a copy of the local token; run "
                                             "`claude-peers federation rotate-psk` to separate them";
    for (const auto &remote : m_settings.remotes)
        m_links->connect({remote.host, remote.port}, RemoteOrigin::Config, nullptr);
    startDiscovery();
    Q_EMIT ready();
}

void FederationModule::localPeersChanged()
{
    // The first change of a burst starts the delay; later ones ride along.
    if (m_links && !m_announceTimer.isActive())
        m_announceTimer.start(kAnnounceDelayMs);
}

void FederationModule::announceIfChanged()
{
    if (!m_links || !m_context)
        return;
    auto local = m_context->server().localPeers();
    if (!local)
        return;
    // What a remote keeps of each peer (RemoteLinks::mapPeers), without last_seen.
    QByteArray listed;
    for (const Broker::Peer &peer : *local) {
        for (const QString &field : {peer.id, peer.cwd, peer.gitRoot, peer.sessionName, peer.summary})
            listed += field.toUtf8() + '\0';
        listed += '\n';
    }
    if (listed == m_announcedPeers)
        return;
    m_announcedPeers = listed;
    m_links->announcePeersChanged();
}

QList<Broker::Route> FederationModule::routes()
{
    // The CLI's federation commands: the user's own token only, small JSON bodies.
    const auto route = [this](const char *path, void (FederationModule::*handler)(Broker::RouteCall &)) {
        return Internal::localRoute(this, path, handler);
    };
    QList<Broker::Route> routes {route("/federation/rotate-psk", &FederationModule::rotatePsk),
                                 route("/federation/token", &FederationModule::token),
                                 route("/federation/join", &FederationModule::join),
                                 route("/federation/init", &FederationModule::init),
                                 route("/federation/doctor", &FederationModule::doctor),
                                 route("/federation/attempts", &FederationModule::attempts),
                                 route("/federation/revoke", &FederationModule::revoke),
                                 route("/federation/unignore", &FederationModule::unignore)};
    // Pairing's routes answer only while federation is on, like the others.
    for (Broker::Route pairing : m_pairing ? m_pairing->routes() : QList<Broker::Route> {}) {
        pairing.handler = [this, handler = pairing.handler](Broker::RouteCall &call) {
            if (!m_settings.enabled)
                Broker::RouteAnswer::json(
                    call.responder,
                    {{QStringLiteral("ok"), false},
                     {QStringLiteral("error"), Broker::DisabledFederationLink::disabledMessage()}});
            else
                handler(call);
        };
        routes.append(pairing);
    }
    return routes;
}

PendingRequests *FederationModule::pendingRequests()
{
    return m_pairing ? &m_pairing->pendingRequests() : nullptr;
}

QList<Broker::ModuleJob> FederationModule::jobs()
{
    QList<Broker::ModuleJob> jobs;
    jobs.append({QStringLiteral("federation sync"), RemoteLinks::kSyncIntervalMs, [this] {
                     if (m_links)
                         m_links->syncRound();
                 }});
    jobs.append({QStringLiteral("federation reconnect"), 1000, [this] {
                     if (m_links)
                         m_links->reconnectDue();
                 }});
    jobs.append({QStringLiteral("federation nonce purge"), 60'000, [this] {
                     if (m_guard)
                         m_guard->purgeExpired();
                 }});
    // Renewal 30 days before expiry, while running: a broker that runs for months keeps a
    // valid certificate (same key, same pin) without a restart.
    jobs.append({QStringLiteral("federation certificate renewal"), kCertificateCheckIntervalMs,
                 [this] { refreshCertificate(); }});
    return jobs;
}

void FederationModule::stop()
{
    if (!m_started)
        return;
    m_started = false;
    bringDown();
    m_speakers.reset();
    m_revoked.reset();
    m_attempts.reset();
    m_ignored.reset();
    m_guard.reset(); // drops its database copies
    m_psk.reset();
    m_context = nullptr;
}

QList<Broker::Peer> FederationModule::remotePeers() const
{
    return m_settings.enabled && m_links ? m_links->remotePeers() : QList<Broker::Peer> {};
}

void FederationModule::connectRemote(const QString &host, int port, Callback done)
{
    if (!m_settings.enabled || !m_links) {
        done(fail(ErrorKind::FederationDisabled, Broker::DisabledFederationLink::disabledMessage()));
        return;
    }
    if (!m_psk->isLoaded()) {
        done(fail(ErrorKind::Unreachable,
                  m_pskError.isEmpty()
                      ? QStringLiteral("The federation PSK is still being read; try again shortly")
                      : m_pskError));
        return;
    }
    if (host.isEmpty() || port <= 0 || port > 65535) {
        done(fail(ErrorKind::BadRequest,
                  QStringLiteral("Connect needs a host and a port between 1 and 65535")));
        return;
    }
    liftRevocation(pinFor({host, port}), RemoteAddress {host, port}.key()); // the user asked for it again
    m_links->connect({host, port}, RemoteOrigin::Manual, std::move(done));
}

void FederationModule::disconnectRemote(const QString &host, int port, Callback done)
{
    if (!m_settings.enabled || !m_links) {
        done(fail(ErrorKind::FederationDisabled, Broker::DisabledFederationLink::disabledMessage()));
        return;
    }
    const RemoteAddress address {host, port};
    if (m_sessions)
        m_sessions->forget(address); // a later connect proves the PSK afresh
    if (!m_links->disconnect(address)) {
        done(fail(ErrorKind::Rejected, QStringLiteral("Not connected to %1").arg(address.key())));
        return;
    }
    if (auto saved = Broker::ConfigFile::update(
            m_settings.configPath,
            [&](Broker::ConfigFile &config) { return config.removeRemote(host, port); });
        !saved)
        qCWarning(lcFederation).noquote()
            << "removing" << address.key() << "from the config:" << saved.error().message;
    m_settings.remotes.removeIf(
        [&](const Broker::ConfigFile::Remote &remote) { return remote.host == host && remote.port == port; });
    done(QJsonObject {});
}

void FederationModule::sendToRemote(const Broker::RemoteMessage &message, Callback done)
{
    if (!m_settings.enabled || !m_links) {
        done(fail(ErrorKind::FederationDisabled, Broker::DisabledFederationLink::disabledMessage()));
        return;
    }
    m_links->send(message, std::move(done));
}

void FederationModule::remoteConnected(const Remote &remote)
{
    if (m_context) {
        QSqlQuery query(m_context->database());
        query.prepare(QStringLiteral("INSERT OR REPLACE INTO federation_remotes (host, port, hostname, "
                                     "last_connected_at) VALUES (?, ?, ?, ?)"));
        query.addBindValue(remote.address.host);
        query.addBindValue(remote.address.port);
        query.addBindValue(remote.hostname);
        query.addBindValue(Broker::Clock::toIso(remote.connectedAt));
        if (!query.exec())
            qCWarning(lcFederation) << "recording the remote failed";
    }
    m_discovered.removeIf([&](const DiscoveredHost &host) { return host.hostname == remote.hostname; });
    if (remote.origin == RemoteOrigin::Inbound)
        return; // reached back because it called us: its own config keeps it, not ours
    // docs/spec/peers-api.md §6.3 step 5: the remote goes into federation.remotes, labelled with
    // its hostname.
    const Broker::ConfigFile::Remote entry {remote.address.host, remote.address.port, remote.hostname};
    if (!listsRemote(m_settings.remotes, entry))
        m_settings.remotes.append(entry); // a later reload that no longer lists it disconnects it
    const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &config) {
        if (config.remotes().contains(entry))
            return false;
        config.upsertRemote(entry);
        return true;
    });
    if (!saved)
        qCWarning(lcFederation).noquote()
            << "saving" << remote.address.key() << "to the config:" << saved.error().message;
}

void FederationModule::inboundHandshake(const QHostAddress &from, const QString &hostname,
                                        std::optional<int> port)
{
    // Bidirectional links (0.7's are one-way, docs/spec/peers-api.md §6.9): a caller that says its
    // port is reached back, unless we already have (or are making) a link to that machine.
    if (!m_links || !port || hostname == m_settings.hostname || m_links->hasHostname(hostname))
        return;
    const RemoteAddress address {from.toString(), *port};
    if (m_links->find(address))
        return;
    qCInfo(lcFederation).noquote() << hostname << "connected to us; reaching it back at" << address.key();
    m_links->connect(address, RemoteOrigin::Inbound, nullptr);
}

QString FederationModule::pinFor(const RemoteAddress &address) const
{
    const QString configured = Broker::ConfigFile::load(m_settings.configPath).pins().value(address.key());
    return configured.isEmpty() ? m_provenPins.value(address.key()) : configured;
}

void FederationModule::keepProvenPin(const RemoteAddress &address, const QString &pin)
{
    // Trust on first use, but only once the remote proved our PSK over this key.
    qCInfo(lcFederation).noquote() << "pinning" << address.key() << "to" << pin
                                   << "(it proved the federation PSK over that key)";
    m_provenPins.insert(address.key(), pin);
    if (auto saved = Broker::ConfigFile::update(m_settings.configPath,
                                                [&](Broker::ConfigFile &config) {
                                                    config.setPin(address.host, address.port, pin);
                                                    return true;
                                                });
        !saved)
        qCWarning(lcFederation).noquote()
            << "keeping the pin of" << address.key() << ":" << saved.error().message;
}

void FederationModule::outboundLegacy(const RemoteAddress &address)
{
    if (m_guard && m_context &&
        m_guard->recordLegacyUse(address.key(), QStringLiteral("outbound-psk-header")))
        qCWarning(lcFederation).noquote()
            << address.key()
            << "speaks claude-peers 0.7's protocol only: it gets the legacy PSK header (its certificate is "
               "pinned and it never spoke the challenge exchange)";
}

namespace {
void answerFailure(const Broker::Http::ResponderPtr &responder, const QString &message);
} // namespace

void FederationModule::rotatePsk(Broker::RouteCall &call)
{
    auto responder = call.responder;
    if (!m_settings.enabled) { // `federation init` makes the PSK when it turns federation on
        answerFailure(responder, Broker::DisabledFederationLink::disabledMessage());
        return;
    }
    if (!m_psk) {
        Broker::RouteAnswer::json(responder,
                                  {{QStringLiteral("ok"), false},
                                   {QStringLiteral("error"), QStringLiteral("The broker is stopping")}});
        return;
    }
    m_psk->rotate([this, responder](Broker::Result<void> rotated) {
        if (!rotated) {
            Broker::RouteAnswer::json(
                responder,
                {{QStringLiteral("ok"), false}, {QStringLiteral("error"), rotated.error().message}});
            return;
        }
        qCInfo(lcFederation).noquote() << "federation PSK rotated; kept in" << m_psk->where().describe();
        recordDecision(QStringLiteral("key-rotated"), {}, m_settings.hostname, {});
        if (m_challenges)
            m_challenges->clear(); // sessions proved the old key
        Broker::RouteAnswer::json(
            responder,
            {{QStringLiteral("ok"), true}, {QStringLiteral("location"), m_psk->where().describe()}});
    });
}

namespace {

void answerFailure(const Broker::Http::ResponderPtr &responder, const QString &message)
{
    Broker::RouteAnswer::json(responder, {{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}});
}

// The address another machine should dial: the first up, non-loopback IPv4 address (0.7 picks a
// LAN IPv4 the same way); loopback when there is none.
QString lanAddress()
{
    for (const QNetworkInterface &interface : QNetworkInterface::allInterfaces()) {
        const auto flags = interface.flags();
        if (!flags.testFlag(QNetworkInterface::IsUp) || !flags.testFlag(QNetworkInterface::IsRunning) ||
            flags.testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &entry : interface.addressEntries()) {
            if (entry.ip().protocol() == QAbstractSocket::IPv4Protocol)
                return entry.ip().toString();
        }
    }
    return QStringLiteral("127.0.0.1");
}

} // namespace

QString FederationModule::joinUrl(const QString &host, bool legacy) const
{
    JoinUrl url;
    url.host = host.isEmpty() ? lanAddress() : host;
    url.port = listeningPort() ? listeningPort() : m_settings.port;
    url.token = m_psk->psk();
    if (!legacy)
        url.fingerprint = m_ownPin;
    return formatJoinUrl(url);
}

void FederationModule::token(Broker::RouteCall &call)
{
    if (!m_settings.enabled) {
        answerFailure(call.responder, Broker::DisabledFederationLink::disabledMessage());
        return;
    }
    if (!m_psk || !m_psk->isLoaded()) {
        answerFailure(call.responder,
                      m_pskError.isEmpty()
                          ? QStringLiteral("The federation PSK is still being read; try again shortly")
                          : m_pskError);
        return;
    }
    auto request = Broker::FederationTokenRequest::fromJson(call.body);
    if (!request) {
        answerFailure(call.responder, request.error().message);
        return;
    }
    const QString url = joinUrl(request->host, request->legacy);
    const JoinUrl parsed = parseJoinUrl(url).value_or(JoinUrl {});
    Broker::RouteAnswer::json(call.responder,
                              {{QStringLiteral("ok"), true},
                               {QStringLiteral("url"), url},
                               {QStringLiteral("host"), parsed.host},
                               {QStringLiteral("port"), int(parsed.port)},
                               {QStringLiteral("hostname"), m_settings.hostname},
                               {QStringLiteral("fingerprint"), request->legacy ? QString() : m_ownPin}});
}

void FederationModule::join(Broker::RouteCall &call)
{
    auto responder = call.responder;
    if (!m_settings.enabled || !m_links) {
        answerFailure(responder, Broker::DisabledFederationLink::disabledMessage());
        return;
    }
    auto request = Broker::FederationJoinRequest::fromJson(call.body);
    if (!request) {
        answerFailure(responder, request.error().message);
        return;
    }
    auto url = parseJoinUrl(request->url);
    if (!url) {
        answerFailure(responder, QStringLiteral("Not a usable join URL: %1").arg(url.error().message));
        return;
    }
    const JoinUrl target = *url;
    liftRevocation(target.fingerprint, RemoteAddress {target.host, int(target.port)}.key());
    if (m_ignored)
        m_ignored->remove(target.fingerprint); // the user pairs it after all
    if (!target.fingerprint.isEmpty()) {
        const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &config) {
            config.setPin(target.host, target.port, target.fingerprint);
            return true;
        });
        if (!saved) {
            answerFailure(responder, saved.error().message);
            return;
        }
    }
    // The mesh's PSK becomes ours (0.7's join overwrites the token file with it).
    m_psk->replace(target.token, [this, responder, target](Broker::Result<void> kept) {
        if (!kept) {
            answerFailure(responder, kept.error().message);
            return;
        }
        if (!m_links) {
            answerFailure(responder, QStringLiteral("The broker is stopping"));
            return;
        }
        if (m_challenges)
            m_challenges->clear(); // sessions proved the old key
        m_links->connect({target.host, target.port}, RemoteOrigin::Manual,
                         [this, responder, target](Broker::Result<QJsonObject> connected) {
                             if (!connected) {
                                 answerFailure(responder, connected.error().message);
                                 return;
                             }
                             recordDecision(QStringLiteral("joined"),
                                            RemoteAddress {target.host, int(target.port)}.key(),
                                            connected->value(u"hostname").toString(), target.fingerprint);
                             Broker::RouteAnswer::json(
                                 responder,
                                 {{QStringLiteral("ok"), true},
                                  {QStringLiteral("hostname"), connected->value(u"hostname").toString()},
                                  {QStringLiteral("host"), target.host},
                                  {QStringLiteral("port"), int(target.port)},
                                  {QStringLiteral("fingerprint"), target.fingerprint}});
                         });
    });
}

void FederationModule::init(Broker::RouteCall &call)
{
    auto responder = call.responder;
    auto request = Broker::FederationInitRequest::fromJson(call.body);
    if (!request) {
        answerFailure(responder, request.error().message);
        return;
    }
    if (!request->subnets.isEmpty()) {
        if (auto parsed = SubnetFilter::parse(request->subnets); !parsed) {
            answerFailure(responder, parsed.error().message);
            return;
        }
    }
    const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &config) {
        config.setFederationEnabled(true);
        if (request->port)
            config.setFederationPort(int(*request->port));
        if (!request->subnets.isEmpty())
            config.setFederationSubnets(request->subnets);
        return true;
    });
    if (!saved) {
        answerFailure(responder, saved.error().message);
        return;
    }
    // Our certificate (made now if missing), for the fingerprint in the join URL.
    if (m_ownPin.isEmpty() && !m_parts.plainHttp) {
        auto identity = ensureIdentity(
            CertificateFiles::fromEnvironment(m_parts.environment, m_settings.home), m_settings.hostname);
        if (!identity) {
            answerFailure(responder, identity.error().message);
            return;
        }
        m_ownPin = identity->identity.pin;
    }
    const bool restartNeeded = !m_settings.enabled || (request->port && *request->port != m_settings.port);
    auto finish = [this, responder, restartNeeded](Broker::Result<void> kept) {
        if (!kept) {
            answerFailure(responder, kept.error().message);
            return;
        }
        QJsonObject answer {{QStringLiteral("ok"), true},
                            {QStringLiteral("fingerprint"), m_ownPin},
                            {QStringLiteral("psk_location"), m_psk->where().describe()},
                            {QStringLiteral("restart_needed"), restartNeeded}};
        if (!restartNeeded)
            answer.insert(QStringLiteral("url"), joinUrl({}, false));
        Broker::RouteAnswer::json(responder, answer);
    };
    // Our own PSK: a fresh one when there is none yet or only the token's copy.
    m_psk->load([this, finish](Broker::Result<void> loaded) {
        if (!loaded || m_psk->equalsLocalToken())
            m_psk->rotate(finish);
        else
            finish({});
    });
}

void FederationModule::startPairing(Broker::ModuleContext &context)
{
    if (m_pairing)
        return; // kept across stop()/start(): the routes hold it
    Pairing::Hooks hooks;
    hooks.ownPin = [this] { return m_ownPin; };
    hooks.hostname = [this] { return m_settings.hostname; };
    hooks.federationPort = [this] { return int(listeningPort() ? listeningPort() : m_settings.port); };
    hooks.dialAddress = [] { return lanAddress(); };
    hooks.psk = [this] { return psk(); };
    hooks.pskIsTokenCopy = [this] { return m_psk && m_psk->equalsLocalToken(); };
    hooks.replacePsk = [this](const QByteArray &key, std::function<void(Broker::Result<void>)> done) {
        if (!m_psk) {
            done(fail(ErrorKind::Unreachable, QStringLiteral("The broker is stopping")));
            return;
        }
        m_psk->replace(key, std::move(done));
    };
    hooks.pinFor = [this](const RemoteAddress &address) { return pinFor(address); };
    hooks.setPin = [this](const RemoteAddress &address, const QString &pin) -> Broker::Result<void> {
        liftRevocation(pin, address.key()); // paired again
        const auto saved = Broker::ConfigFile::update(m_settings.configPath, [&](Broker::ConfigFile &config) {
            config.setPin(address.host, address.port, pin);
            return true;
        });
        return saved ? Broker::Result<void> {} : std::unexpected(saved.error());
    };
    hooks.connect = [this](const RemoteAddress &address, Callback done) {
        if (!m_links) {
            done(fail(ErrorKind::FederationDisabled, Broker::DisabledFederationLink::disabledMessage()));
            return;
        }
        m_links->connect(address, RemoteOrigin::Manual, std::move(done));
    };
    hooks.decided = [this](const PendingRequest &request) { pairingDecided(request); };
    hooks.clock = &context.clock();
    m_pairing = std::make_unique<Pairing>(std::move(hooks));
}

} // namespace Federation
