#pragma once

#include "dto.h"
#include "location.h"
#include "result.h"

#include <QObject>

#include <memory>

namespace Broker {

// Tunables with the reference's defaults; the host fills them from config file + environment.
struct Settings
{
    Location location;
    int heartbeatTimeoutMs = 60000;   // a peer silent this long counts as gone
    int rateLimitPerMinute = 60;      // per sending peer; 0 disables
    int maxConnections = 1024;
    int idleTimeoutMs = 60000;
    int maxBodyBytes = 1024 * 1024;
    int tokenRereadMs = 60000;

    // Reads ~/.claude-peers-config.json ("broker" object) and the environment overrides.
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

    // Takes the lock beside the database, opens/migrates it, loads or creates the token,
    // listens on 127.0.0.1:<port>. Error codes: "locked" (another broker holds the
    // database; message names its pid), "port_in_use", "database", "token".
    Result<void> start();
    // Stops listening, answers pending waits, closes the database, releases the lock.
    void stop();
    bool isRunning() const;

    quint16 port() const;
    const Settings &settings() const;

    // SIGHUP / POST /reload: re-read token and config.
    void reload();

    // Read model for GUIs (local peers only, liveness-pruned view of the table).
    QList<Peer> peers() const;
    qint64 pendingMessageCount() const;

Q_SIGNALS:
    void peerRegistered(const QString &peerId);
    void peerUpdated(const QString &peerId);   // name, summary, channel push, heartbeat
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
