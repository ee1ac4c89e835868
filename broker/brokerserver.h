#pragma once

#include "dto.h"
#include "location.h"
#include "result.h"

#include <QJsonValue>
#include <QObject>
#include <QProcessEnvironment>

#include <memory>
#include <optional>

namespace Broker {

class Clock;
class FederationLink;
class SecretStore;
struct SecretsStatus;

// Tunables with the reference's defaults; the host fills them from config file + environment.
struct Settings
{
    Location location;
    int heartbeatTimeoutMs = 60000; // a peer silent this long counts as gone; 0 disables
    int rateLimitPerMinute = 60; // per sending peer; 0 disables
    int maxConnections = 1024;
    int idleTimeoutMs = 60000;
    int maxBodyBytes = 1024 * 1024;
    int maxHeaderBytes = 16 * 1024;
    int requestTimeoutMs = 10000; // a request must arrive in full this long after its first byte
    int tokenRereadMs = 60000;
    int keychainRetryMs = 10000; // the one retry when the keychain does not answer at start
    int sweepIntervalMs = 30000; // stale peers + orphan bounce (reference §11.8, §11.9)
    int purgeIntervalMs = 60000; // delivered messages older than the retention
    qint64 deliveredRetentionMs = qint64(7) * 24 * 3600 * 1000;
    int statsIntervalMs = 60000; // request counter rotation and rate-limit map GC
    quint16 federationPort = 7900; // shown by /federation/status even when disabled
    bool reloadable = false; // set by load(): reload() re-reads the config file too

    // Reads ~/.claude-peers-config.json ("broker" object) and the environment overrides
    // (CLAUDE_PEERS_RATE_LIMIT, CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS). A missing or malformed
    // file or value keeps the default and logs a warning; it never fails.
    static Settings load(const Location &location,
                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
};

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

    // Takes the lock beside the database, opens/migrates it, loads or creates the token,
    // listens on 127.0.0.1:<port>. Error codes: "locked" (another broker holds the
    // database; message names its pid), "port_in_use", "database", "token", "listen".
    Result<void> start();
    // Stops listening, answers pending waits, closes the database, releases the lock.
    void stop();
    bool isRunning() const;

    quint16 port() const;
    const Settings &settings() const;

    // SIGHUP / POST /reload: re-read token and config.
    void reload();
    // Runs the periodic jobs now: stale peers, orphan bounce, purge of old delivered messages.
    void runMaintenance();

    // Read model for GUIs (local peers only, liveness-pruned view of the table).
    QList<Peer> peers() const;
    qint64 pendingMessageCount() const;
    // For the federation side (reference §4.3/§4.4), on the broker's thread while running:
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
    // POST /shutdown was accepted; the answer has been sent. The host decides what stopping
    // means (the headless broker quits, the tray hands over or quits).
    void shutdownRequested();

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Broker
