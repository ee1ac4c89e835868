#pragma once

#include "app/tray/brokersnapshot.h"
#include "broker/brokerserver.h"
#include "common/result.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace Broker {
class BrokerClient;
class BrokerLifecycle;
struct BrokerHealth;
} // namespace Broker

namespace App {

class BrokerThread;
class HostedBroker;
class SuccessorWatch;

// Runs the broker library in-process for the tray, on a thread of its own, and takes the port
// over from a broker that already serves it (a headless claude-peers-broker, or another tray).
// GUI-free so the hand-over is tested without a display.
//
// Threads: the host lives on the GUI thread; the BrokerServer, its SQLite connection and its
// sockets live on the broker thread (BrokerThread), created and destroyed there. The host
// reaches those objects only by posting jobs (the pages and the operator peer talk to the broker
// over loopback HTTP like any client, docs/architecture.md "Threads"); what the GUI shows comes
// back as BrokerSnapshot values in queued signals, coalesced on the broker thread (at most one
// per Timing::snapshotIntervalMs, none when nothing changed). Only stop() waits for the broker
// thread.
//
// start(): first asks a broker serving our port and database for its listening sockets (the
// hand-over socket, BrokerServer::setTakeOver): no client sees a refused connection. If that is
// not possible (no hand-over socket: a 0.7 or older broker) and BrokerServer::start() answers "locked" or
// "port_in_use" and a broker answers GET /health on our port, Broker::BrokerLifecycle asks it to POST
// /shutdown (main token) and waits until its port is free and its process gone; then start() is retried on a
// timer until the lock is ours too or the hand-over timeout passes. Nothing blocks.
class BrokerHost : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Stopped, // never started, or stop() was called
        Starting, // first start() attempt / probing who holds the port
        HandingOver, // a broker answered and was asked to hand over; waiting for its port and lock
        Running,
        // Another broker process took the port over and serves the same database; this host
        // follows it as a client (setFollowSuccessor): servingPid() names it.
        Elsewhere,
        Failed, // see lastError(); start() again to retry
    };
    Q_ENUM(State)

    struct Timing
    {
        // Between start() attempts while the old broker exits: from firstRetryMs, doubling up
        // to retryIntervalMs (a broker usually lets go within tens of milliseconds).
        int firstRetryMs = 20;
        int retryIntervalMs = 100;
        int handoverTimeoutMs = 10000; // give up when the port is still busy after this
        int requestTimeoutMs = 3000; // /health and /shutdown of the old broker
        int snapshotIntervalMs = 500; // at most two snapshots a second reach the GUI
        int watchIntervalMs = 1000; // Elsewhere: how often the serving broker is asked over HTTP
    };

    explicit BrokerHost(Broker::Settings settings, QObject *parent = nullptr);
    ~BrokerHost() override; // stops the broker and ends its thread

    quint16 port() const;
    void setTiming(const Timing &timing);

    State state() const { return m_state; }
    bool isRunning() const { return m_state == State::Running; }
    // The reason of the last failure (code + plain-words message); empty unless Failed.
    const Broker::Error &lastError() const { return m_lastError; }
    // Pid of the broker we took over from (0 when we started without a hand-over).
    qint64 previousBrokerPid() const { return m_previousPid; }
    // After another broker process took the port over: stay as its client (state Elsewhere,
    // snapshots polled over HTTP) instead of stopping. When it goes away the host fails with a
    // message that says so; start() (the tray's Retry) hosts the broker here again.
    void setFollowSuccessor(bool follow) { m_followSuccessor = follow; }
    // The process that serves the port while Elsewhere (0 otherwise).
    qint64 servingPid() const { return m_state == State::Elsewhere ? m_servingPid : 0; }
    // The broker as of its last snapshot (peers, pending messages); empty unless Running or
    // Elsewhere.
    const BrokerSnapshot &snapshot() const { return m_snapshot; }

    // Async; does nothing while Starting, HandingOver or Running. While Elsewhere it takes the
    // port back from the broker that serves it.
    void start();
    // Stops the broker (if running) and any hand-over in progress. Waits for the broker thread
    // (it finishes the request it is in, commits, closes the database, releases port and lock).
    void stop();
    // SIGHUP: the broker re-reads its token and config file. Async.
    void reload();

    // Runs job on the broker thread with the server (for a composition root wiring modules in
    // before start(), and for tests). Async; the only way to touch the server.
    void runOnBrokerThread(std::function<void(Broker::BrokerServer &)> job);
    QThread *brokerThread() const;

Q_SIGNALS:
    void stateChanged(App::BrokerHost::State state);
    void started();
    void failed(const Broker::Error &error);
    // A new snapshot (also when it is cleared because the broker stopped).
    void snapshotChanged(const App::BrokerSnapshot &snapshot);
    // POST /shutdown was accepted and answered (`claude-peers kill-broker`, another tray taking
    // over): the host's owner decides what stopping means.
    void shutdownRequested();
    // Another broker process (claude-peers restart, a headless broker started by hand or by
    // systemd) took the listening sockets over; ours has stopped (state Elsewhere when following
    // the successor, else Stopped) and the successor serves the same database on the same port.
    void handedOver(qint64 successorPid);

private:
    void setState(State state);
    // One server start() on the broker thread; the answer comes back to onStartAnswer().
    void attemptStart();
    void onStartAnswer(quint64 attempt, const Broker::Result<void> &result);
    void onStartRefused(const Broker::Error &error);
    void onOldBrokerAnswered(const Broker::BrokerHealth &health);
    Broker::Error handOverError(const Broker::Error &error) const;
    void retryStart();
    void onRetryRefused(const Broker::Error &error);
    void succeed();
    void fail(const Broker::Error &error);
    void onSnapshot(const BrokerSnapshot &snapshot);
    void onHandedOver(qint64 successorPid);
    void onSuccessorPolled(const BrokerSnapshot &snapshot, qint64 pid);
    void onSuccessorGone(const Broker::Error &error);

    std::unique_ptr<BrokerThread> m_thread;
    Timing m_timing;
    Broker::BrokerClient *m_client;
    Broker::BrokerLifecycle *m_lifecycle; // the old broker: probe, ask to hand over, wait
    SuccessorWatch *m_watch; // Elsewhere: the serving broker over HTTP
    quint16 m_port;
    quint64 m_attempt = 0; // answers of earlier attempts (before a stop()) are ignored
    BrokerSnapshot m_snapshot;
    QTimer m_retryTimer;
    QDeadlineTimer m_handoverDeadline;
    int m_nextRetryMs = 0;
    QElapsedTimer m_handoverClock; // for the log: how long the old broker took to let go
    State m_state = State::Stopped;
    Broker::Error m_lastError;
    Broker::Error m_refusal; // why the first start() failed, for the error message
    qint64 m_previousPid = 0;
    qint64 m_servingPid = 0;
    bool m_followSuccessor = false;
};

} // namespace App
