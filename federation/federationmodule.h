#pragma once

#include "brokermodule.h"
#include "federationlink.h"
#include "federationsettings.h"
#include "inboundhandler.h"
#include "linktransport.h"
#include "remotelinks.h"

#include <QHostAddress>
#include <QObject>
#include <QPointer>

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
        std::shared_ptr<LinkTransport> transport; // default: plain HTTP
        ServerFactory server; // default: plain HTTP on the federation port
        QHostAddress listenAddress = QHostAddress::Any; // 0.7: all interfaces
        // Whether a source address may use the federation port (§6.6); default: the configured
        // subnet (empty: everyone).
        std::function<bool(const QHostAddress &, const QString &subnet)> subnetAllows;
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
    const FederationSettings &settings() const { return m_settings; }
    // Emitted once the PSK is loaded and the saved remotes are being reached.
    Q_SIGNAL void ready();

private:
    void pskLoaded();
    void remoteConnected(const Remote &remote);
    void inboundHandshake(const QHostAddress &from, const QString &hostname, std::optional<int> port);
    void rotatePsk(Broker::RouteCall &call);
    void token(Broker::RouteCall &call);

    FederationSettings m_settings;
    Parts m_parts;
    Broker::ModuleContext *m_context = nullptr;
    std::unique_ptr<PskKeeper> m_psk;
    std::unique_ptr<ReplayGuard> m_guard;
    std::unique_ptr<RemoteLinks> m_links;
    std::unique_ptr<InboundHandler> m_inbound;
    std::unique_ptr<Broker::Http::HttpServer> m_server;
    QString m_listenError;
    QString m_pskError;
    bool m_started = false;
};

} // namespace Federation
