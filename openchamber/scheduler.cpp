#include "openchamber/scheduler.h"

#include "broker/clock.h"
#include "openchamber/openchamberlogging.h"

#include <QPointer>

namespace OpenChamber {

namespace {

const QString interruptedError =
    QStringLiteral("the broker stopped during this run; it was not repeated, so that it never runs twice "
                   "(look in OpenCode for a session it may have created)");
const QString interruptedPeerError =
    QStringLiteral("the broker stopped during this run; it was not repeated, so that it never runs twice "
                   "(look in the messages for one it may have sent)");

ControlError conflict(const QString &message)
{
    return ControlError {409, message, {}};
}

} // namespace

Scheduler::Scheduler(ScheduleStore &store, const Broker::Clock &clock, ScheduledSessionStarter starter,
                     ScheduleProjects projects, Limits limits, ScheduledPeerSender peerSender)
    : m_store(store),
      m_clock(clock),
      m_starter(std::move(starter)),
      m_projects(std::move(projects)),
      m_limits(limits),
      m_peerSender(std::move(peerSender))
{
}

Scheduler::~Scheduler()
{
    auto runs = std::move(m_runs);
    m_runs.clear();
    for (auto &[serial, run] : runs)
        run.cancel.cancel();
}

Broker::ModuleJob Scheduler::job()
{
    return {QStringLiteral("openchamber-schedule"), tickIntervalMs, [this] { tick(); }};
}

Broker::Result<int> Scheduler::recoverInterrupted()
{
    auto interrupted = m_store.interrupted();
    if (!interrupted)
        return std::unexpected(interrupted.error());
    const qint64 now = m_clock.msecsSinceEpoch();
    for (ScheduledTask &task : *interrupted) {
        qCWarning(lcSchedule) << "scheduled task" << task.id
                              << "was running when the broker stopped; not repeated";
        task.state.lastStatus = QStringLiteral("error");
        task.state.lastError = task.targetsPeer() ? interruptedPeerError : interruptedError;
        task.state.updatedAt = now;
        // A once task whose occurrence was claimed has had its one run.
        if (task.schedule.kind == TaskSchedule::Kind::Once && task.state.lastScheduledFor)
            task.enabled = false;
        if (!task.enabled)
            task.state.nextRunAt.reset();
        if (auto ok = m_store.finish(task); !ok)
            return std::unexpected(ok.error());
    }
    return int(interrupted->size());
}

bool Scheduler::isRunning(const QString &taskId) const
{
    for (const auto &[serial, run] : m_runs) {
        if (run.task.id == taskId)
            return true;
    }
    return false;
}

bool Scheduler::hasSlot(const QString &projectId) const
{
    if (int(m_runs.size()) >= m_limits.global)
        return false;
    int inProject = 0;
    for (const auto &[serial, run] : m_runs)
        inProject += run.task.projectId == projectId ? 1 : 0;
    return inProject < m_limits.perProject;
}

Broker::Result<QJsonObject> Scheduler::status() const
{
    const auto enabled = m_store.enabledCount();
    if (!enabled)
        return std::unexpected(enabled.error());
    return QJsonObject {{QStringLiteral("hasEnabledScheduledTasks"), *enabled > 0},
                        {QStringLiteral("hasRunningScheduledTasks"), !m_runs.empty()},
                        {QStringLiteral("enabledScheduledTasksCount"), *enabled},
                        {QStringLiteral("runningScheduledTasksCount"), int(m_runs.size())}};
}

void Scheduler::tick()
{
    const qint64 monotonic = m_clock.monotonicMs();
    QList<quint64> overdue;
    for (const auto &[serial, run] : m_runs) {
        if (monotonic - run.startedMonotonicMs >= m_limits.maxRunMs)
            overdue.append(serial);
    }
    for (quint64 serial : overdue) {
        if (const auto found = m_runs.find(serial); found != m_runs.end()) {
            CancelToken cancel = found->second.cancel;
            complete(serial,
                     std::unexpected(ControlError {500, QStringLiteral("scheduled task run timed out"), {}}));
            cancel.cancel();
        }
    }

    startQueued();

    const qint64 now = m_clock.msecsSinceEpoch();
    const auto due = m_store.due(now);
    if (!due) {
        qCWarning(lcSchedule) << "cannot read the due scheduled tasks:" << due.error().message;
        return;
    }
    for (const ScheduledTask &task : *due) {
        if (!hasSlot(task.projectId) || isRunning(task.id) || !task.state.nextRunAt)
            continue;
        const qint64 occurrence = *task.state.nextRunAt;
        const auto claimed = m_store.claimScheduled(task.id, occurrence, task.computeNextRunAt(now), now);
        if (!claimed) {
            qCWarning(lcSchedule) << "cannot claim scheduled task" << task.id << ":"
                                  << claimed.error().message;
            continue;
        }
        if (!*claimed)
            continue; // someone else ran this occurrence
        auto fresh = m_store.find(task.id);
        ScheduledTask running = fresh && *fresh ? **fresh : task;
        qCInfo(lcSchedule) << "scheduled task" << task.id << "runs for its occurrence at" << occurrence;
        start(std::move(running), false, {});
    }
}

void Scheduler::runNow(const ScheduledTask &task, RunNowCallback done)
{
    if (isRunning(task.id)) {
        done(std::unexpected(conflict(QStringLiteral("task is already running"))));
        return;
    }
    for (const Queued &queued : std::as_const(m_queue)) {
        if (queued.task.id == task.id) {
            done(std::unexpected(conflict(QStringLiteral("task is already queued"))));
            return;
        }
    }
    m_queue.append({task, std::move(done)});
    startQueued();
}

void Scheduler::startQueued()
{
    for (qsizetype i = 0; i < m_queue.size();) {
        if (!hasSlot(m_queue[i].task.projectId)) {
            ++i;
            continue;
        }
        Queued queued = m_queue.takeAt(i);
        const auto claimed = m_store.claimManual(queued.task.id, m_clock.msecsSinceEpoch());
        if (!claimed) {
            queued.done(std::unexpected(ControlError {500, claimed.error().message, {}}));
            continue;
        }
        if (!*claimed) {
            queued.done(std::unexpected(conflict(QStringLiteral("task is already running"))));
            continue;
        }
        auto fresh = m_store.find(queued.task.id);
        start(fresh && *fresh ? **fresh : queued.task, true, std::move(queued.done));
    }
}

void Scheduler::start(ScheduledTask task, bool manual, RunNowCallback done)
{
    const quint64 serial = m_nextSerial++;
    const qint64 now = m_clock.msecsSinceEpoch();
    Run &run = m_runs[serial];
    run.task = task;
    run.manual = manual;
    run.startedAtMs = now;
    run.startedMonotonicMs = m_clock.monotonicMs();
    run.done = std::move(done);
    const CancelToken cancel = run.cancel;

    if (task.targetsPeer()) {
        Q_EMIT runStarted(task.id, task.projectId, manual);
        sendToPeer(serial, task);
        return;
    }
    QString directory;
    for (const ScheduleProject &project : m_projects ? m_projects() : QList<ScheduleProject>()) {
        if (project.id == task.projectId)
            directory = project.path;
    }
    Q_EMIT runStarted(task.id, task.projectId, manual);
    if (directory.isEmpty()) {
        complete(serial, std::unexpected(ControlError {404, QStringLiteral("Project not found"), {}}));
        return;
    }
    ScheduledRunRequest request;
    request.taskId = task.id;
    request.directory = directory;
    request.title = task.runTitle(now);
    request.prompt = task.execution.prompt;
    request.providerID = task.execution.providerID;
    request.modelID = task.execution.modelID;
    request.agent = task.execution.agent;
    request.variant = task.execution.variant;
    request.goalEnabled = task.execution.goalEnabled;
    request.goalTokenBudget = task.execution.goalTokenBudget;
    m_starter(request, cancel, [self = QPointer<Scheduler>(this), serial](ScheduledRunResult result) {
        if (!self)
            return;
        if (result)
            self->complete(serial, Target {*result, std::nullopt, {}});
        else
            self->complete(serial, std::unexpected(result.error()));
    });
}

void Scheduler::sendToPeer(quint64 serial, const ScheduledTask &task)
{
    if (!m_peerSender) {
        complete(serial,
                 std::unexpected(ControlError {
                     503, QStringLiteral("this broker cannot send scheduled messages to peers"), {}}));
        return;
    }
    const auto sent = m_peerSender({task.id, task.name, task.execution.peer, task.execution.prompt});
    if (!sent) {
        complete(serial, std::unexpected(sent.error()));
        return;
    }
    complete(serial, Target {{}, sent->messageId, sent->peerId});
}

void Scheduler::complete(quint64 serial, RunResult result)
{
    const auto found = m_runs.find(serial);
    if (found == m_runs.end())
        return; // already ended (timed out): a late answer changes nothing
    Run run = std::move(found->second);
    m_runs.erase(found);

    const qint64 now = m_clock.msecsSinceEpoch();
    // The row as it is now: a toggle or an edit made during the run is kept.
    const auto current = m_store.find(run.task.id);
    ScheduledTask task = current && *current ? **current : run.task;
    task.state.lastStatus = result ? QStringLiteral("success") : QStringLiteral("error");
    task.state.lastDurationMs = now - run.startedAtMs;
    task.state.lastError = result ? QString() : result.error().message.left(ScheduledTask::maxErrorLength);
    if (result && run.task.targetsPeer()) {
        task.state.lastMessageId = result->messageId;
        task.state.lastPeerId = result->peerId;
    } else if (result) {
        task.state.lastSessionId = result->sessionId;
    } else if (run.task.targetsPeer()) {
        task.state.lastMessageId.reset(); // "last run links to its message, or shows its error"
        task.state.lastPeerId.clear();
    }
    task.state.updatedAt = now;
    if (!run.manual && task.schedule.kind == TaskSchedule::Kind::Once)
        task.enabled = false;
    task.state.nextRunAt = task.computeNextRunAt(now);

    QString persistError;
    auto written = m_store.finish(task);
    if (!written)
        written = m_store.finish(task); // docs/spec/control-service.md §9.3: one retry
    if (!written) {
        persistError = written.error().message;
        qCWarning(lcSchedule) << "scheduled task" << task.id
                              << "ran, but its state was not saved:" << persistError;
    }
    if (result && run.task.targetsPeer())
        qCInfo(lcSchedule) << "scheduled task" << task.id << "sent message" << result->messageId.value_or(0)
                           << "to peer" << result->peerId;
    else if (result)
        qCInfo(lcSchedule) << "scheduled task" << task.id << "started session" << result->sessionId;
    else
        qCWarning(lcSchedule) << "scheduled task" << task.id << "failed:" << result.error().message;

    Q_EMIT runFinished(task.id, task.projectId, result.has_value());
    if (run.done) {
        if (result)
            run.done(RunOutcome {task, result->sessionId, result->messageId, result->peerId, persistError});
        else
            run.done(std::unexpected(result.error()));
    }
    startQueued();
}

} // namespace OpenChamber
