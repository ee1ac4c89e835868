#pragma once

#include "broker/brokermodule.h"
#include "broker/federationlink.h"
#include "federation/attemptlog.h"
#include "federation/discovery.h"
#include "federation/federationsettings.h"
#include "federation/inboundhandler.h"
#include "federation/linktransport.h"
#include "federation/remotelinks.h"
#include "federation/subnetfilter.h"

#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

namespace Broker {
class SecretStore;
namespace Http {
class HttpServer;
struct ServerLimits;
} // namespace Http
} // namespace Broker

namespace Federation {

class ChallengeServer;
class ChallengeSpeakers;
class IgnoredMachines;
class Pairing;
class PendingRequests;
struct PendingRequest;
class PskKeeper;
class ReplayGuard;
class RevokedRemotes;
class SessionTransport;
class TlsHttpServer;

// The federation module (issue #9): the broker's FederationLink (the lan scope, /federation/*
// local routes, metrics) and a BrokerModule (its tables, its jobs, the federation port and the
// PSK routes). It reaches the broker only through brokermodule.h, routes.h, federationlink.h,
// secretstore.h and BrokerServer's public calls. Add it with both
// BrokerServer::addModule() and setFederationLink() (app/brokerhost/brokercomposition.cpp).
class FederationModule final : public QObject, public Broker::BrokerModule, public Broker::FederationLink
{
    Q_OBJECT
public:
    using ServerFactory = std::function<std::unique_ptr<Broker::Http::HttpServer>(
        Broker::Http::RequestHandler *handler, const Broker::Http::ServerLimits &limits)>;

    // What the composition root plugs in; every empty part gets its default.
    struct Parts
    {
        std::shared_ptr<Broker::SecretStore> keychain; // null: the PSK lives in its file only
        std::shared_ptr<Broker::SecretStore> pskFile; // default: FileSecretStore beside the config
        // Plain HTTP on both sides: the loopback tests without certificates. Otherwise TLS (0.7's
        // wire): our certificate on the port (generated or given), pinned TLS to remotes.
        bool plainHttp = false;
        std::shared_ptr<LinkTransport> transport; // default: by plainHttp
        ServerFactory server; // default: by plainHttp
        QHostAddress listenAddress = QHostAddress::Any; // 0.7: all interfaces
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment(); // cert paths, WSL2
        // DNS-SD (default: dns_sd.h when built with it); tests give a fake.
        std::function<std::unique_ptr<Discovery>()> discovery;
        // What reload() re-reads (default: FederationSettings::load on the broker's location).
        std::function<FederationSettings()> settingsSource;
    };

    // A host found by discovery that is not (yet) paired: shown in status as "discovered".
    struct DiscoveredHost
    {
        QString instance;
        QString hostname;
        QString address;
        quint16 port = 0;
        QString fingerprint; // empty: a 0.7 broker
        QString version;
        QString reason;
        QDateTime seenAt;
    };
    static constexpr int kMaxDiscoveredHosts = 64;
    static constexpr int kRenewBeforeDays = 30;
    static constexpr qint64 kCertificateCheckIntervalMs = 6LL * 3600 * 1000;

    FederationModule(FederationSettings settings, Parts parts);
    ~FederationModule() override;

    // BrokerModule
    QString name() const override { return QStringLiteral("federation"); }
    QList<Broker::ModuleMigration> migrations() const override;
    Broker::Result<void> start(Broker::ModuleContext &context) override;
    QList<Broker::Route> routes() override;
    QList<Broker::ModuleJob> jobs() override;
    void stop() override;
    // SIGHUP / POST /reload: re-reads the config and applies, without a restart, enable/disable
    // (the port opens/closes), subnets, port, remotes added/removed, mdns, and changed
    // certificate files (used for the next handshakes). The hostname needs a restart.
    void reload() override;

    // FederationLink
    bool isEnabled() const override { return m_settings.enabled; }
    QJsonObject status() const override;
    QList<Broker::Peer> remotePeers() const override;
    void connectRemote(const QString &host, int port, Callback done) override;
    void disconnectRemote(const QString &host, int port, Callback done) override;
    void sendToRemote(const Broker::RemoteMessage &message, Callback done) override;

    // The key RouteAuth::FederationPsk checks (BrokerServer::setFederationKey).
    QByteArray psk() const;
    // The federation port actually bound (settings.port, or the OS's choice for 0); 0 when not
    // listening.
    quint16 listeningPort() const;
    // Our certificate's pin, "sha256-<b64url>" (empty on plain HTTP or before start).
    QString ownPin() const { return m_ownPin; }
    const FederationSettings &settings() const { return m_settings; }
    // Pairing requests (a discovered unknown host becomes one: PendingRequests::add); null
    // before start().
    PendingRequests *pendingRequests();
    // The audit trail: refusals on the federation port and the user's pairing decisions (SQLite);
    // null before start().
    AttemptLog *attemptLog() { return m_attempts.get(); }
    // Emitted once the PSK is loaded and the saved remotes are being reached.
    Q_SIGNAL void ready();
    // A discovered host waits for pairing (fedpair's pending requests take it from here).
    Q_SIGNAL void hostDiscovered(const Federation::FederationModule::DiscoveredHost &host);
    QList<DiscoveredHost> discoveredHosts() const { return m_discovered; }
    // Whether DNS-SD runs, and why not.
    bool discoveryActive() const { return m_discovery && m_discovery->isActive(); }
    QString discoveryOffReason() const { return m_discoveryOff; }
    // Re-reads the certificate files, renewing a self-signed one 30 days before expiry (by the
    // broker's clock); a different certificate is served from the next handshake on.
    void refreshCertificate();

    // Local peer changes are announced to linked remotes this long after the first of a burst.
    static constexpr int kAnnounceDelayMs = 200;

private:
    void bringUp();
    void bringDown();
    void applySubnets();
    void openServer();
    Broker::Result<void> listenOrAdopt();
    void closeServer();
    void startDiscovery(); // federationdiscovery.cpp
    void stopDiscovery(); // federationdiscovery.cpp
    void serviceFound(const DiscoveredService &service); // federationdiscovery.cpp
    void serviceLost(const QString &instance); // federationdiscovery.cpp
    void pskLoaded();
    void localPeersChanged();
    void announceIfChanged();
    void remoteConnected(const Remote &remote);
    void inboundHandshake(const QHostAddress &from, const QString &hostname, std::optional<int> port);
    void rotatePsk(Broker::RouteCall &call);
    void token(Broker::RouteCall &call);
    void join(Broker::RouteCall &call);
    void init(Broker::RouteCall &call);
    void doctor(Broker::RouteCall &call); // federationstatus.cpp
    void attempts(Broker::RouteCall &call); // federationaudit.cpp
    void revoke(Broker::RouteCall &call); // federationaudit.cpp
    void unignore(Broker::RouteCall &call); // federationaudit.cpp
    // A pairing request decided by the user: audited; an ignored (rejected) machine is
    // remembered, an accepted one forgotten from that list. federationaudit.cpp
    void pairingDecided(const PendingRequest &request);
    void recordDecision(const QString &kind, const QString &address, const QString &hostname,
                        const QString &fingerprint); // federationaudit.cpp
    void liftRevocation(const QString &pin, const QString &addressKey); // federationaudit.cpp
    static bool listsRemote(const QList<Broker::ConfigFile::Remote> &remotes,
                            const Broker::ConfigFile::Remote &remote);
    void startPairing(Broker::ModuleContext &context);
    QString joinUrl(const QString &host, bool legacy) const;

    FederationSettings m_settings;
    Parts m_parts;
    Broker::ModuleContext *m_context = nullptr;
    std::unique_ptr<PskKeeper> m_psk;
    std::unique_ptr<ReplayGuard> m_guard;
    std::unique_ptr<ChallengeServer> m_challenges; // inbound: challenges and sessions
    std::unique_ptr<ChallengeSpeakers> m_speakers;
    std::unique_ptr<SessionTransport> m_sessions; // outbound: in front of m_parts.transport
    std::unique_ptr<RemoteLinks> m_links;
    std::unique_ptr<InboundHandler> m_inbound;
    std::unique_ptr<AttemptLog> m_attempts;
    std::unique_ptr<IgnoredMachines> m_ignored;
    std::unique_ptr<AttemptRecordingHandler> m_recorder; // in front of m_inbound on the port
    std::unique_ptr<RevokedRemotes> m_revoked;
    std::unique_ptr<Broker::Http::HttpServer> m_server;
    TlsHttpServer *m_tls = nullptr; // m_server when it is ours over TLS
    std::unique_ptr<Discovery> m_discovery;
    QString m_discoveryOff; // why discovery is off ("" while it runs)
    QList<DiscoveredHost> m_discovered;
    std::unique_ptr<Pairing> m_pairing;
    void setUpTls();
    QString pinFor(const RemoteAddress &address) const;
    void keepProvenPin(const RemoteAddress &address, const QString &pin);
    void outboundLegacy(const RemoteAddress &address);
    QHash<QString, QString> m_provenPins; // kept in memory too, should the config not be writable

    SubnetFilter m_subnets;
    QString m_subnetError;
    QString m_certificateError;
    QString m_ownPin; // our certificate's SPKI pin ("" on plain HTTP)
    QString m_listenError;
    QString m_pskError;
    QTimer m_announceTimer;
    QByteArray m_announcedPeers; // what the remotes list of ours, as last announced
    bool m_started = false;
};

} // namespace Federation
