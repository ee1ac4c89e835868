#pragma once

#include "result.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QTimer>

#include <functional>

namespace Cli {

class Context;

// Stopping, starting and signalling the local broker for kill-broker, restart, reload-broker
// and rotate-token. Never lsof or pkill: /shutdown and /reload with the main token first; a
// signal only goes to the pid in the broker's pid file, and only when /health reports that
// same pid. Waits poll /health on a timer (no nested event loop) and are bounded.
class BrokerControl : public QObject
{
    Q_OBJECT
public:
    static constexpr int StopWaitMs = 5000;
    static constexpr int StartWaitMs = 10000;
    static constexpr int PollIntervalMs = 100;

    struct Health
    {
        bool up = false;
        qint64 pid = 0; // 0 when the broker does not report one (reference broker)
        int peers = 0;
        QJsonObject raw;
        Broker::Error error; // why it is not up
    };

    explicit BrokerControl(Context &context, QObject *parent = nullptr);

    void probe(std::function<void(Health)> done);

    // The pid to signal: the pid file's, if that process is alive and /health names it.
    Broker::Result<qint64> verifiedPid(const Health &health) const;

    // kill-broker: code ExitOk when the broker is down (or was not running), else ExitFailed;
    // wasRunning tells which. Prints the reference's progress lines.
    void stop(std::function<void(int code, bool wasRunning)> done);

    // restart's second half: starts claude-peers-broker detached and waits for /health.
    void start(std::function<void(int code)> done);

    // Bounded wait until the broker with that pid (0 = any) is gone: /health unreachable and
    // the process (or, without a pid, the pid file's process) no longer alive.
    void waitUntilDown(qint64 pid, std::function<void(bool)> done);

private:
    void afterShutdownRequest(const Health &health, Broker::Result<QJsonValue> answer,
                              std::function<void(int, bool)> done);
    void pollDown();
    void pollUp();
    bool processGone(qint64 pid) const;
    void finishWait(bool reached);

    Context &m_ctx;
    QTimer m_timer;
    QDeadlineTimer m_deadline;
    QElapsedTimer m_elapsed;
    qint64 m_pid = 0;
    bool m_announced = false;
    std::function<void(bool)> m_waitDone;
};

} // namespace Cli
