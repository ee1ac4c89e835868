#pragma once

#include "brokerserver.h"
#include "result.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace Broker {
class BrokerClient;
}

namespace App {

// Runs the broker library in-process for the tray and takes the port over from a broker that
// already serves it (a headless claude-peers-broker, or another tray). GUI-free so the
// hand-over is tested without a display.
//
// start(): if BrokerServer::start() answers "locked" or "port_in_use" and a broker answers
// GET /health on our port, it is asked to POST /shutdown (main token) and start() is retried
// on a timer until the old broker has let go or the hand-over timeout passes. Nothing blocks.
class BrokerHost : public QObject
{
    Q_OBJECT
public:
    enum class State {
        Stopped, // never started, or stop() was called
        Starting, // first start() attempt / probing who holds the port
        HandingOver, // the old broker accepted /shutdown; waiting for the port and lock
        Running,
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
    };

    explicit BrokerHost(Broker::Settings settings, QObject *parent = nullptr);
    ~BrokerHost() override; // stops the broker

    Broker::BrokerServer *server() const { return m_server; }
    quint16 port() const;
    void setTiming(const Timing &timing) { m_timing = timing; }

    State state() const { return m_state; }
    bool isRunning() const { return m_state == State::Running; }
    // The reason of the last failure (code + plain-words message); empty unless Failed.
    const Broker::Error &lastError() const { return m_lastError; }
    // Pid of the broker we took over from (0 when we started without a hand-over).
    qint64 previousBrokerPid() const { return m_previousPid; }

    // Async; does nothing while Starting, HandingOver or Running.
    void start();
    // Stops the broker (if running) and any hand-over in progress.
    void stop();

Q_SIGNALS:
    void stateChanged(App::BrokerHost::State state);
    void started();
    void failed(const Broker::Error &error);

private:
    void setState(State state);
    void onStartRefused(const Broker::Error &error);
    void askToHandOver();
    void retryStart();
    void succeed();
    void fail(const Broker::Error &error);

    Broker::BrokerServer *m_server;
    Broker::BrokerClient *m_client;
    QTimer m_retryTimer;
    QDeadlineTimer m_handoverDeadline;
    int m_nextRetryMs = 0;
    QElapsedTimer m_handoverClock; // for the log: how long the old broker took to let go
    Timing m_timing;
    State m_state = State::Stopped;
    Broker::Error m_lastError;
    Broker::Error m_refusal; // why the first start() failed, for the error message
    qint64 m_previousPid = 0;
};

} // namespace App
