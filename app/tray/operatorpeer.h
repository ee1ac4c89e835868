#pragma once

#include "common/brokerapi.h"
#include "common/location.h"

#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>

namespace Broker {
class BrokerClient;
}

namespace App {

// The human at the tray, as a peer of the broker: registered like a session (its own id,
// "operator" when free; the tray's pid, so the broker's liveness check keeps it while the tray
// runs; cwd = $HOME), so AI sessions list it, message it and get its replies like any peer's,
// also through a 0.7 client. It holds the /wait-messages stream (the reference's 1 s poll
// against a 0.7 broker), acknowledges what it received once messagesReceived() was emitted,
// heartbeats, and registers again after a broker restart or hand-over (404 on the stream, a
// voided session secret, the broker unreachable for a while). GUI-free; on the GUI thread,
// over a BrokerClient of its own (it carries the operator's session secret, which would bind
// every other request of a shared client to this peer).
class OperatorPeer : public QObject
{
    Q_OBJECT
public:
    struct Identity
    {
        QString requestedId = QStringLiteral("operator");
        QString sessionName = QStringLiteral("operator");
        QString summary; // empty = "the human at the tray (<login>@<host>)"
        QString cwd; // empty = $HOME
        qint64 pid = 0; // 0 = this process
    };
    enum class State { Stopped, Registering, Online, Offline };
    Q_ENUM(State)

    struct SendOptions
    {
        std::optional<QString> type; // absent = the broker's default ("text")
        std::optional<qint64> replyTo;
        QJsonValue metadata; // an object, or null
    };
    // The stored message's id; 0 for a message relayed to another machine (it gets its id there).
    using SendDone = std::function<void(Broker::Result<qint64>)>;
    using BroadcastDone = std::function<void(Broker::Result<Broker::BroadcastAnswer>)>;

    static constexpr int HeartbeatMs = 15000;
    static constexpr int WaitTimeoutMs = 25000;
    static constexpr int PollMs = 1000; // against a broker without /wait-messages
    static constexpr int RetryMinMs = 500;
    static constexpr int RetryMaxMs = 5000;

    explicit OperatorPeer(const Broker::Location &location, QObject *parent = nullptr);
    OperatorPeer(const Broker::Location &location, Identity identity, QObject *parent = nullptr);
    ~OperatorPeer() override;

    // Registers and keeps registered until stop(). Calling it again does nothing.
    void start();
    // Stops heartbeats and the stream (pending requests are dropped). The row stays until the
    // broker finds the tray's pid gone.
    void stop();

    State state() const { return m_state; }
    bool isOnline() const { return m_state == State::Online; }
    QString id() const { return m_id; } // empty until registered
    const Identity &identity() const { return m_identity; }
    // "the human at the tray (<login>@<host>)"
    static QString defaultSummary();

    // As the operator. Refused (ErrorKind::Stopped) while not registered; the broker's
    // refusals (peer not found, not running, too large) come back as ErrorKind::Rejected with
    // its text. toId "<host>:<peer>" goes through /federation/send-to-remote.
    void send(const QString &toId, const QString &text, SendDone done, const SendOptions &options = {});
    // A reply to a message: to its sender, type "response", reply_to its id (not for a message
    // relayed from another machine, whose ids are that broker's). Refused for a bounce
    // ("system") and the CLI ("cli"), which nobody can answer.
    void reply(const Broker::Message &message, const QString &text, SendDone done);
    // /broadcast from the operator: scope machine, directory (cwd) or repo (gitRoot), or lan.
    void broadcast(const QString &scope, const QString &text, const QString &cwd, const QString &gitRoot,
                   BroadcastDone done);

    Broker::BrokerClient &client() const { return *m_client; }

Q_SIGNALS:
    void stateChanged(App::OperatorPeer::State state);
    void registered(const QString &id);
    // Messages sent to the operator, each once (by id, per broker database), oldest first.
    void messagesReceived(const QList<Broker::Message> &messages);

private:
    void setState(State state);
    void registerNow();
    void onRegistered(const Broker::RegisterAnswer &answer);
    void waitNext();
    void pollNext();
    void receive(const QList<Broker::Message> &messages);
    void lost(const QString &why);
    void heartbeat();
    Broker::Result<void> requireOnline() const;

    Broker::BrokerClient *m_client;
    Broker::BrokerApi m_api;
    Identity m_identity;
    State m_state = State::Stopped;
    QString m_id;
    QString m_databaseId;
    bool m_streaming = true; // false: the broker has no /wait-messages (0.7): poll
    qint64 m_afterId = 0;
    QList<qint64> m_toAck;
    QSet<qint64> m_seen;
    quint64 m_generation = 0; // bumped by every (re)registration and stop(): older answers are dropped
    int m_retryMs = RetryMinMs;
    QTimer m_heartbeat;
    QTimer m_retry;
    QTimer m_poll;
};

} // namespace App
