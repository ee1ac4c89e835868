#pragma once

#include "broker/settings.h"
#include "common/dto.h"
#include "common/result.h"

#include <QJsonValue>
#include <QObject>

#include <functional>

#include <memory>
#include <optional>

namespace Broker {

class BrokerModule;
class Clock;
class FederationLink;
class SecretStore;
struct SecretsStatus;

// The broker as a library: the headless broker and the tray host the same object.
// Public surface for hosts and GUIs; everything else is internal.
class BrokerServer : public QObject
{
    Q_OBJECT
public:
    explicit BrokerServer(Settings settings, QObject *parent = nullptr);
    ~BrokerServer() override;

    // Before start(): the time source (default: system clock) and the federation side
    // (default: disabled; the federation module provides the real one).
    void setClock(std::shared_ptr<Clock> clock);
    void setFederationLink(std::shared_ptr<FederationLink> link);
    // Before start(): the OS keychain that keeps the local token (default: none, the token
    // file alone). Only the broker hosts give one; see TokenKeeper.
    void setSecretStore(std::shared_ptr<SecretStore> keychain);
    // Before start(): a module (its tables, routes and jobs, brokermodule.h). The composition
    // roots in app/ add them; the broker library depends on none.
    void addModule(std::shared_ptr<BrokerModule> module);
    // Before start(): whether start() first asks a running broker of the same port and database
    // to hand its listening sockets over (the hand-over socket in the runtime dir,
    // docs/decisions.md); default off. Whatever the setting, sockets passed by systemd
    // (LISTEN_FDS) are adopted, and a running server offers its sockets to a successor.
    void setTakeOver(bool takeOver);
    // Before start(): the key that X-Claude-Peers-PSK must carry on RouteAuth::FederationPsk
    // routes (default: the local token, as the reference).
    void setFederationKey(std::function<QByteArray()> key);

    // Takes the lock beside the database, opens/migrates it, loads or creates the token,
    // runs the modules' migrations and starts them, listens on 127.0.0.1:<port>, starts the
    // jobs. Error codes: "locked" (another broker holds the database; message names its pid),
    // "port_in_use", "database", "token", "listen", "module_schema" and "module" (the message
    // names the module and says why).
    Result<void> start();
    // Stops listening, answers pending waits, closes the database, releases the lock.
    void stop();
    bool isRunning() const;

    quint16 port() const;
    const Settings &settings() const;
    // The broker whose sockets this one took over at start (0: none), and how it went.
    qint64 tookOverFrom() const;

    // A module's listening socket that a successor takes over with the local one (the
    // federation port), on the broker thread while running: its descriptor now (-1: none) and
    // how to stop accepting on it without closing its connections.
    struct ListenerHandle
    {
        std::function<int()> descriptor;
        std::function<void()> stopAccepting;
    };
    void registerListener(const QString &name, ListenerHandle handle);
    // A listening socket this broker was given at start (by the broker before it, or systemd)
    // for that name or port; the caller owns it. -1 when none.
    int takeInheritedListener(const QString &name, quint16 port);

    // SIGHUP / POST /reload: re-read token and config, then each module's reload().
    void reload();
    // Runs the periodic jobs now: stale peers, orphan bounce, purge of old delivered messages.
    void runMaintenance();
    // Runs the modules' jobs that are due by the broker's clock now (the timer does it on its
    // own; a test that moved a ManualClock calls it).
    void runDueJobs();

    // Read model for GUIs (local peers only, liveness-pruned view of the table).
    QList<Peer> peers() const;
    // The peers of linked remote brokers (the lan scope; ids are "host:id"), empty without federation.
    QList<Peer> remotePeers() const;
    // What the federation side wants the user to act on (status "warnings": a PSK still copied
    // from the local token, a port that did not open, …); empty without federation.
    QStringList federationWarnings() const;
    qint64 pendingMessageCount() const;
    // For the federation side (docs/spec/peers-api.md §4.3/§4.4), on the broker's thread while running:
    // the local peers with the liveness prune applied, and a relayed message for a local peer
    // (errors carry httpStatus 404 unknown peer, 410 dead peer, 400 metadata/size, with the
    // reference's texts; code "database" otherwise). The recipient's wait is woken at once.
    Result<QList<Peer>> localPeers();
    Result<qint64> storeRelayedMessage(const QString &fromId, const QString &toId, const QString &text,
                                       const QString &type, const QJsonValue &metadata,
                                       std::optional<qint64> replyTo);

    // Where the local token is kept (keychain or file), and why; also POST /secrets.
    SecretsStatus secretsStatus() const;

    // Peers holding an open delivery stream (/wait-messages) right now: they get pushes.
    int waitingPeerCount() const;

Q_SIGNALS:
    void peerRegistered(const QString &peerId);
    void peerUpdated(const QString &peerId); // name, summary, channel push, heartbeat
    void peerRemoved(const QString &peerId);
    void messageStored(qint64 messageId, const QString &fromId, const QString &toId);
    void messageDelivered(qint64 messageId);
    // The peers of linked remote brokers (remotePeers()) may have changed.
    void remotePeersChanged();
    // POST /shutdown was accepted; the answer has been sent. The host decides what stopping
    // means (the headless broker quits, the tray hands over or quits).
    void shutdownRequested();
    // A successor took the listening sockets over; this broker has answered its waits, closed
    // its database and stopped (isRunning() is false). The host exits or says it no longer
    // hosts the broker.
    void handedOver(qint64 successorPid);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Broker
