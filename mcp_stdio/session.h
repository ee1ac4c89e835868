#pragma once

#include "common/dto.h"
#include "common/result.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

class QTimer;

namespace Broker {
class BrokerClient;
class BrokerLifecycle;
struct BrokerHealth;
struct RegisterAnswer;
} // namespace Broker

namespace Mcp {

// The helper's life with the broker (docs/spec/peers-api.md §7.7–7.11, with our fixes): find the broker,
// start `claude-peers-broker` when none answers, register with the session's identity, keep
// the registration alive with a heartbeat, and when the broker is lost, bring it back (start
// it again if it is gone) and register again keeping the name and summary. Everything is
// asynchronous: initialize is never held up by this.
class Session : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Idle, // start() not called yet
        Probing, // GET /health
        StartingBroker, // spawned claude-peers-broker, waiting for /health
        Registering, // POST /register
        Registered,
        Waiting, // a step failed; the next attempt is scheduled
        Stopped,
    };
    Q_ENUM(State)

    enum class Trouble {
        Unreachable,
        NotRegistered,
        // An answer that the broker should not give if it is what we took it for (a 404 on
        // /wait-messages: maybe another broker, e.g. a 0.7 one, took the port): look again at
        // /health, then register.
        Recheck,
    };

    struct Options
    {
        int startupTimeoutMs = 15000; // broker spawn wait (docs/spec/peers-api.md §7.11), ≥ 3000
        int heartbeatIntervalMs = 15000;
        int healthTimeoutMs = 2000;
        bool spawnBroker = true;
        QString version; // sent in /register
    };

    Session(Broker::BrokerClient *client, Options options, QObject *parent = nullptr);
    ~Session() override;

    // Reads the options' environment and config overrides (CLAUDE_PEERS_STARTUP_TIMEOUT_MS,
    // server.startup_timeout_ms).
    static Options defaultOptions();

    // The MCP client's name from initialize ("claude-code", "opencode"): registered with the
    // broker, and part of the stable id of a session without a terminal. Call before start().
    void setClientName(const QString &name) { m_clientName = name; }
    QString clientName() const { return m_clientName; }

    void start();
    // Best-effort /unregister within timeoutMs, then done(). No more requests after it.
    void stop(int timeoutMs, std::function<void()> done);

    State state() const { return m_state; }
    bool isRegistered() const { return m_state == State::Registered; }
    QString peerId() const { return m_peerId; }
    QString sessionName() const { return m_sessionName; }
    QString summary() const { return m_summary; }
    QString cwd() const { return m_cwd; }
    QString gitRoot() const { return m_gitRoot; }
    QString tty() const { return m_tty; }
    QString channelPush() const { return m_channelPush; }
    QString deliveryPath() const { return m_deliveryPath; }
    // From the broker's /health (capabilities) and /register answer (database_id). A 0.7
    // broker lists no capabilities and has no database id.
    bool brokerHasCapability(const QString &name) const { return m_brokerCapabilities.contains(name); }
    QString databaseId() const { return m_databaseId; }
    QString lastError() const { return m_lastError; }
    // The id this session asked for (CLAUDE_PEERS_ID, the terminal's, or the stable tty-less
    // one), and why it got another one; empty when it got what it asked for.
    QString preferredId() const { return m_preferredId; }
    QString idNote() const { return m_idNote; }
    int registrations() const { return m_registrations; }
    bool brokerStartedByUs() const { return m_spawnedPid > 0; }

    // Calls done(true) once registered (at once if already), done(false) after timeoutMs.
    void whenRegistered(int timeoutMs, QObject *context, std::function<void(bool)> done);

    // A request that counts as a heartbeat at the broker (/wait-messages) just went out: the
    // next explicit heartbeat is due 15 s from now, so an idle helper sends fewer requests.
    void noteContact();

    // Something failed talking to the broker: check it, restart it if it is gone, register again.
    void reportTrouble(Trouble trouble, const QString &why);

    // Local state kept across re-registrations; the tools call the broker themselves.
    void rememberName(const QString &name);
    void rememberSummary(const QString &summary, bool automatic);
    // Regenerates the automatic summary (after set_name) unless the model set its own.
    // Returns the new summary, or empty when the model's own summary is kept.
    QString regenerateAutoSummary();
    // unknown / unverified / working (docs/spec/peers-api.md §7.4); sent now and after every registration.
    void setChannelPush(const QString &state);
    // How messages reach the model ("channel", "inbox", "banner"), sent with channel_push.
    void setDeliveryPath(const QString &path);
    // The session's attention state from Claude Code's session file; sent now and after every
    // registration. Unknown clears it.
    void setAttention(Broker::Attention state, const QString &message);

Q_SIGNALS:
    void registered(const QString &peerId); // after every (re-)registration
    void registrationLost(); // the broker is gone or forgot us; reconnecting
    void errorChanged(const QString &error); // lastError() changed; empty = trouble over
    void stateChanged(Mcp::Session::State state);

private:
    void setState(State state);
    void setError(const QString &error);
    QString requestedId() const;
    void probeWorkspace();
    void connectToBroker();
    void rememberBroker(const Broker::BrokerHealth &health);
    void registerNow();
    void onRegistered(const Broker::RegisterAnswer &answer);
    void retryLater(int delayMs);
    void sendChannelPush();
    void sendAttention();
    void heartbeat();
    QString autoSummary() const;

    Broker::BrokerClient *m_client;
    Options m_options;
    Broker::BrokerLifecycle *m_lifecycle; // probe, start a broker when none answers, wait for it
    State m_state = State::Idle;
    QString m_lastError;

    // Identity (fixed at start, docs/spec/peers-api.md §7.9).
    QString m_cwd;
    QString m_gitRoot;
    QString m_branch;
    QStringList m_recentFiles;
    QString m_tty;
    QString m_clientName;
    QString m_preferredId;
    QString m_idNote;
    QList<qint64> m_rejections; // ms since start of recent "credential refused" losses
    QElapsedTimer m_life;
    bool m_workspaceReady = false;
    bool m_registerWhenReady = false;

    QString m_peerId;
    QString m_sessionName;
    QString m_summary;
    bool m_summaryIsAuto = true;
    QString m_channelPush;
    QString m_deliveryPath;
    std::optional<std::pair<Broker::Attention, QString>> m_attention; // none: never said
    QStringList m_brokerCapabilities;
    QString m_databaseId;
    int m_registrations = 0;
    int m_failures = 0;

    qint64 m_spawnedPid = 0;
    QElapsedTimer m_registeredClock;
    QTimer *m_retryTimer;
    QTimer *m_heartbeatTimer;
    quint64 m_generation = 0; // bumps on every (re)connect: late answers of older attempts are ignored

    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void(bool)> done;
        QTimer *timer;
    };
    QList<Waiter *> m_waiters;
};

} // namespace Mcp
