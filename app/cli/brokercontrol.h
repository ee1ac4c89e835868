#pragma once

#include "common/brokerlifecycle.h"
#include "common/result.h"

#include <QObject>

#include <functional>

namespace Cli {

class Context;

// The CLI's words around Broker::BrokerLifecycle for kill-broker, restart, reload-broker and
// rotate-token: never lsof or pkill; /shutdown with the main token first, a SIGTERM only to
// the pid that the broker's pid file and its /health both name; bounded waits, no nested loop.
class BrokerControl : public QObject
{
    Q_OBJECT
public:
    static constexpr int StopWaitMs = 5000;
    static constexpr int StartWaitMs = 10000;

    struct Health
    {
        bool up = false;
        Broker::BrokerHealth broker; // when up
        Broker::Error error; // why it is not up
    };

    explicit BrokerControl(Context &context, QObject *parent = nullptr);

    void probe(std::function<void(Health)> done);

    // The pid to signal: the pid file's, if that process is alive and /health names it.
    Broker::Result<qint64> verifiedPid(const Health &health) const;

    // kill-broker: ExitOk when the broker is down (or was not running), else ExitFailed.
    // Prints the reference's progress lines.
    void stop(std::function<void(int code)> done);

    // restart's second half: starts claude-peers-broker detached (unless one already answers)
    // and waits for /health.
    void start(std::function<void(int code)> done);

    // restart: a successor broker takes the running one's sockets over (no refused
    // connection); when the running broker cannot hand over, kill-broker then start. With
    // json, progress lines stay off stdout and one JSON object ends it.
    void replace(bool json, std::function<void(int code)> done);

private:
    Context &m_ctx;
    bool m_quiet = false; // --json: progress lines are not printed
    Broker::BrokerLifecycle m_lifecycle;
    bool m_starting = false; // which wait waitingLong() is about
};

} // namespace Cli
