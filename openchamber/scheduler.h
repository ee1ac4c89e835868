#pragma once

#include "broker/brokermodule.h"
#include "openchamber/peertarget.h"
#include "openchamber/schedulerun.h"
#include "openchamber/schedulestore.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <map>

namespace Broker {
class Clock;
}

namespace OpenChamber {

// Runs scheduled tasks on the broker's event loop (docs/spec/control-service.md §9.3): a
// module job ticks every second by the broker's clock, claims each due occurrence in SQLite
// before starting it (exactly once, across restarts: docs/decisions.md "Scheduled runs exactly
// once") and starts it through the injected session starter — or, for a task that targets a
// peer, sends its message through the injected peer sender — within the concurrency limits.
class Scheduler : public QObject
{
    Q_OBJECT
public:
    struct Limits
    {
        int global = 4;
        int perProject = 2;
        qint64 maxRunMs = 30 * 60 * 1000; // then the run is cancelled: "scheduled task run timed out"
    };
    struct RunOutcome
    {
        ScheduledTask task;
        QString sessionId; // a session task's
        std::optional<qint64> messageId; // a peer task's message, and the peer it went to
        QString peerId;
        QString persistError; // the run happened but its state could not be written
    };
    using RunNowResult = std::expected<RunOutcome, ControlError>;
    using RunNowCallback = std::function<void(RunNowResult)>;

    static constexpr qint64 tickIntervalMs = 1000;

    // peerSender sends the message of a task that targets a peer (none: such a run fails).
    Scheduler(ScheduleStore &store, const Broker::Clock &clock, ScheduledSessionStarter starter,
              ScheduleProjects projects, Limits limits, ScheduledPeerSender peerSender = {});
    ~Scheduler() override; // cancels the runs still going; their late answers are dropped

    // The openchamber module's job: tick() every tickIntervalMs.
    Broker::ModuleJob job();

    // At the module's start, before the first tick: runs the previous broker claimed and never
    // finished are recorded as errors and not repeated. Answers how many there were.
    Broker::Result<int> recoverInterrupted();

    // Ends runs past their maximum duration, starts queued manual runs and the due occurrences
    // for which a slot is free (the others wait for a later tick).
    void tick();

    // schedule.run (docs/spec/control-service.md §4.12): runs now, or queues until a slot is free;
    // 409 when the task is already running or queued. done gets the run's result.
    void runNow(const ScheduledTask &task, RunNowCallback done);

    int runningCount() const { return int(m_runs.size()); }
    bool isRunning(const QString &taskId) const;
    // docs/spec/control-service.md §4.9's object: hasEnabledScheduledTasks,
    // hasRunningScheduledTasks and the two counts.
    Broker::Result<QJsonObject> status() const;

Q_SIGNALS:
    void runStarted(const QString &taskId, const QString &projectId, bool manual);
    void runFinished(const QString &taskId, const QString &projectId, bool succeeded);

private:
    struct Run
    {
        ScheduledTask task;
        bool manual = false;
        qint64 startedAtMs = 0;
        qint64 startedMonotonicMs = 0;
        CancelToken cancel;
        RunNowCallback done;
    };
    struct Target
    {
        QString sessionId;
        std::optional<qint64> messageId;
        QString peerId;
    };
    using RunResult = std::expected<Target, ControlError>;
    struct Queued
    {
        ScheduledTask task;
        RunNowCallback done;
    };

    bool hasSlot(const QString &projectId) const;
    void startQueued();
    void start(ScheduledTask task, bool manual, RunNowCallback done);
    void sendToPeer(quint64 serial, const ScheduledTask &task);
    void complete(quint64 serial, RunResult result);

    ScheduleStore &m_store;
    const Broker::Clock &m_clock;
    ScheduledSessionStarter m_starter;
    ScheduleProjects m_projects;
    Limits m_limits;
    ScheduledPeerSender m_peerSender;
    std::map<quint64, Run> m_runs;
    QList<Queued> m_queue;
    quint64 m_nextSerial = 1;
};

} // namespace OpenChamber
