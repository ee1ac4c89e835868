#pragma once

#include "brokermodule.h"
#include "federationlink.h"
#include "federationsettings.h"
#include "inboundhandler.h"
#include "linktransport.h"
#include "remotelinks.h"
#include "subnetfilter.h"

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

class PskKeeper;
class ReplayGuard;

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
    };

    FederationModule(FederationSettings settings, Parts parts);
    ~FederationModule() override;

    // BrokerModule
    QString name() const override { return QStringLiteral("federation"); }
    QList<Broker::ModuleMigration> migrations() const override;
    Broker::Result<void> start(Broker::ModuleContext &context) override;
    QList<Broker::Route> routes() override;
    QList<Broker::ModuleJob> jobs() override;
    void stop() override;

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
    // Emitted once the PSK is loaded and the saved remotes are being reached.
    Q_SIGNAL void ready();

    // Local peer changes are announced to linked remotes this long after the first of a burst.
    static constexpr int kAnnounceDelayMs = 200;

private:
    void pskLoaded();
    void localPeersChanged();
    void announceIfChanged();
    void remoteConnected(const Remote &remote);
    void inboundHandshake(const QHostAddress &from, const QString &hostname, std::optional<int> port);
    void rotatePsk(Broker::RouteCall &call);
    void token(Broker::RouteCall &call);
    void join(Broker::RouteCall &call);
    void init(Broker::RouteCall &call);
    QString joinUrl(const QString &host, bool legacy) const;

    FederationSettings m_settings;
    Parts m_parts;
    Broker::ModuleContext *m_context = nullptr;
    std::unique_ptr<PskKeeper> m_psk;
    std::unique_ptr<ReplayGuard> m_guard;
    std::unique_ptr<RemoteLinks> m_links;
    std::unique_ptr<InboundHandler> m_inbound;
    std::unique_ptr<Broker::Http::HttpServer> m_server;
    void setUpTls();
    QString pinFor(const RemoteAddress &address) const;
    void keepFirstUsePin(const RemoteAddress &address, const QString &pin);

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
