#pragma once

#include "common/result.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>

namespace Broker {

class BrokerClient;

// Failures are Error values of the kinds NotABroker … StopTimeout (result.h), besides the
// client's Unreachable.

// What GET /health said (docs/spec/peers-api.md §3; pid, version, database_id and capabilities are ours,
// docs/protocol.md: a 0.7 broker leaves them empty).
struct BrokerHealth
{
    qint64 pid = 0;
    int peers = 0;
    QString version;
    QString databaseId;
    QStringList capabilities;
    QJsonObject raw;

    bool hasCapability(const QString &name) const { return capabilities.contains(name); }
    // A JSON object with "status":"ok" is a broker; anything else is not.
    static Result<BrokerHealth> fromAnswer(const QJsonValue &answer, quint16 port);
};

// The broker's life seen from a client, written once for the helper, the CLI and the tray:
// probe GET /health; start claude-peers-broker detached when nothing answers and wait until
// it serves; ask a running broker to stop (authenticated POST /shutdown, then, if allowed, a
// SIGTERM to the pid that both its pid file and /health name) and wait until its port is free
// and its process gone.
//
// Asynchronous: every wait polls /health on a timer with back-off (firstPollMs doubling up to
// maxPollMs) and ends at a deadline; no nested event loop, no sleep. One operation at a time:
// starting another, or abort(), drops the one in progress without calling its callback.
// Callbacks run from the event loop, never inside the call that started them; none runs after
// the object is destroyed (the client it uses may outlive it).
class BrokerLifecycle : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int probeTimeoutMs = 2000; // the first GET /health, and POST /shutdown
        int pollTimeoutMs = 500; // each GET /health while waiting
        int firstPollMs = 20;
        int maxPollMs = 100;
        int startTimeoutMs = 15000;
        int stopTimeoutMs = 5000;
        int slowAfterMs = 1000; // waitingLong() after this
        // stop(): when the broker refuses /shutdown, SIGTERM the pid its pid file and /health
        // agree on (the CLI). Off for a hand-over: a broker that says no is left alone.
        bool signalWhenRefused = false;
        QString programName = QStringLiteral("this program"); // in "not found next to …"
        // The started broker's environment.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    };

    struct Started
    {
        BrokerHealth health;
        qint64 startedPid = 0; // the broker we started; 0 when one was already serving
    };

    struct Stopped
    {
        bool wasRunning = false; // false: nothing answered, nothing was done
        qint64 pid = 0; // the broker that stopped (0 when it did not say)
        bool signalled = false; // it refused /shutdown and got SIGTERM
    };

    struct Replaced
    {
        qint64 oldPid = 0; // 0: none was running, a broker was just started
        qint64 newPid = 0;
        BrokerHealth health; // the new broker's
    };

    template<typename T> using Callback = std::function<void(Result<T>)>;

    BrokerLifecycle(BrokerClient *client, Options options, QObject *parent = nullptr);
    ~BrokerLifecycle() override;

    const Options &options() const { return m_options; }
    void setOptions(const Options &options) { m_options = options; }

    // GET /health. Errors: the client's "unreachable", NotABroker.
    void probe(Callback<BrokerHealth> done);
    // A broker that answers is reused; else one is started and awaited. Errors: NotABroker,
    // BrokerNotFound, StartFailed, BrokerExited, StartTimeout.
    void ensureRunning(Callback<Started> done);
    // Stops the broker that answers (wasRunning false when none does). Errors: NotABroker,
    // ShutdownRefused (and the verified-pid errors when signalWhenRefused), StopTimeout.
    void stop(Callback<Stopped> done);
    // Starts a successor broker that takes the running one's listening sockets over (hand-over,
    // no refused connection) and waits until /health names it; starts one when none runs.
    // Errors: NotABroker, BrokerNotFound, StartFailed, HandoverRefused (the successor exited
    // and the old broker still serves: it has no hand-over socket, or refused), StartTimeout.
    void replace(Callback<Replaced> done);
    void abort();
    bool isBusy() const { return m_busy; }

    // The pid to signal: the pid file's, if that process is alive and /health names it.
    Result<qint64> verifiedPid(const BrokerHealth &health) const;

Q_SIGNALS:
    // Progress, for the front ends' words ("Starting…", "Shutting down…", "Waiting…").
    void launched(qint64 pid, const QString &program);
    void stopping(const Broker::BrokerHealth &health); // it answers; asking it to shut down
    void signalled(qint64 pid, const Broker::Error &refusal); // SIGTERM after a refused /shutdown
    void waitingLong(qint64 pid); // a start or stop takes longer than slowAfterMs

private:
    enum class Goal { Up, Down, Replaced };

    quint64 begin();
    bool current(quint64 operation) const { return m_busy && operation == m_operation; }
    void launch(quint64 operation, Callback<Started> done);
    void askToShutDown(quint64 operation, const BrokerHealth &health, Callback<Stopped> done);
    void afterShutdownAnswer(quint64 operation, const BrokerHealth &health, Result<QJsonValue> answer,
                             Callback<Stopped> done);
    void waitFor(Goal goal, qint64 pid, std::function<void(Result<BrokerHealth>)> done);
    void poll();
    void onPollAnswer(const Result<QJsonValue> &answer);
    void finishWait(Result<BrokerHealth> result);
    // The broker process that holds the database now: the pid file's, else the lock file's,
    // when alive; 0 when none.
    qint64 livingBrokerPid() const;
    bool processGone(qint64 pid) const;
    Error timeoutError() const;

    BrokerClient *m_client;
    Options m_options;
    bool m_busy = false;
    quint64 m_operation = 0;

    // The wait in progress.
    Goal m_goal = Goal::Up;
    qint64 m_pid = 0;
    QDeadlineTimer m_deadline;
    QElapsedTimer m_elapsed;
    int m_nextPollMs = 0;
    bool m_announced = false;
    std::function<void(Result<BrokerHealth>)> m_waitDone;
    QTimer m_pollTimer;
};

} // namespace Broker
