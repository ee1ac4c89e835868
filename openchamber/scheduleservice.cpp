#include "openchamber/scheduleservice.h"

#include "broker/clock.h"
#include "openchamber/openchamberlogging.h"
#include "openchamber/scheduler.h"
#include "openchamber/schedulestore.h"

#include <QDir>
#include <QJsonArray>
#include <QUuid>

#include <memory>

namespace OpenChamber {

namespace {

// docs/spec/control-service.md §2.3: only JSON strings count, trimmed, empty = absent.
QString nonEmptyString(const QJsonValue &value)
{
    return value.isString() ? value.toString().trimmed() : QString();
}

// Absent, null, an empty string and false say nothing (what docs/spec/control-service.md §2.3 reads
// as "not given").
bool isGiven(const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull())
        return false;
    if (value.isString())
        return !nonEmptyString(value).isEmpty();
    return !value.isBool() || value.toBool();
}

ControlError usage(const QString &message)
{
    return ControlError {400, message, {}};
}

ControlError notFound(const QString &message)
{
    return ControlError {404, message, {}};
}

ControlError storeError(const Broker::Error &error)
{
    return ControlError {500, error.message, {}};
}

QString resolvedPath(const QString &path)
{
    return QDir::cleanPath(QDir::current().absoluteFilePath(path));
}

QJsonArray tasksJson(const QList<ScheduledTask> &tasks)
{
    QJsonArray array;
    for (const ScheduledTask &task : tasks)
        array.append(task.toJson());
    return array;
}

// "0,1,5" or [0, 1, 5]: the weekdays, or an empty list when one is not 0..6.
std::optional<QList<int>> parseWeekdays(const QJsonValue &value)
{
    QList<int> days;
    QList<QJsonValue> items;
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            items.append(item);
    } else {
        for (const QString &item : value.toString().split(u',', Qt::SkipEmptyParts))
            items.append(item.trimmed());
    }
    for (const QJsonValue &item : std::as_const(items)) {
        bool ok = item.isDouble() && item.toDouble() == double(item.toInt());
        int day = item.toInt();
        if (item.isString()) {
            const QString text = item.toString();
            ok = text.size() == 1;
            day = text.toInt(&ok);
        }
        if (!ok || day < 0 || day > 6)
            return std::nullopt;
        days.append(day);
    }
    return days;
}

// docs/spec/control-service.md §4.11's schedule selectors: exactly one of daily, weekly (+ time),
// once (+ time), cron; timezone.
std::expected<TaskSchedule, ControlError> scheduleFrom(const QJsonObject &input)
{
    const QString daily = nonEmptyString(input.value(QStringLiteral("daily")));
    const QJsonValue weeklyValue = input.value(QStringLiteral("weekly"));
    const bool hasWeekly =
        weeklyValue.isArray() ? !weeklyValue.toArray().isEmpty() : !nonEmptyString(weeklyValue).isEmpty();
    const QString once = nonEmptyString(input.value(QStringLiteral("once")));
    const QString cron = nonEmptyString(input.value(QStringLiteral("cron")));
    const QString time = nonEmptyString(input.value(QStringLiteral("time")));
    if (int(!daily.isEmpty()) + int(hasWeekly) + int(!once.isEmpty()) + int(!cron.isEmpty()) != 1)
        return std::unexpected(usage(QStringLiteral("Provide exactly one of daily, weekly, once, or cron")));

    TaskSchedule schedule;
    schedule.timezone = nonEmptyString(input.value(QStringLiteral("timezone")));
    if (!daily.isEmpty()) {
        schedule.kind = TaskSchedule::Kind::Daily;
        for (const QString &item : daily.split(u',', Qt::SkipEmptyParts))
            schedule.times.append(item.trimmed());
    } else if (hasWeekly) {
        if (time.isEmpty())
            return std::unexpected(usage(QStringLiteral("time is required with weekly")));
        const auto days = parseWeekdays(weeklyValue);
        if (days && days->isEmpty())
            return std::unexpected(usage(QStringLiteral("weekly is required")));
        if (!days)
            return std::unexpected(usage(QStringLiteral("weekly must contain weekdays from 0 to 6")));
        schedule.kind = TaskSchedule::Kind::Weekly;
        schedule.weekdays = *days;
        schedule.times = {time};
    } else if (!once.isEmpty()) {
        if (time.isEmpty())
            return std::unexpected(usage(QStringLiteral("time is required with once")));
        schedule.kind = TaskSchedule::Kind::Once;
        schedule.date = once;
        schedule.time = time;
    } else {
        schedule.kind = TaskSchedule::Kind::Cron;
        schedule.cron = cron;
    }

    return schedule;
}

// A new task with its schedule (docs/spec/control-service.md §4.11's selectors), name, prompt and
// enabled flag; the caller adds its target.
std::expected<ScheduledTask, ControlError> newTask(const QJsonObject &input, const QString &name,
                                                   const QString &prompt)
{
    auto schedule = scheduleFrom(input);
    if (!schedule)
        return std::unexpected(schedule.error());
    ScheduledTask task;
    task.schedule = *schedule;
    task.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    task.name = name;
    task.enabled = !(input.value(QStringLiteral("disabled")).isBool() &&
                     input.value(QStringLiteral("disabled")).toBool());
    task.execution.prompt = prompt;
    return task;
}

const QString actionStatus = QStringLiteral("schedule.status");
const QString actionList = QStringLiteral("schedule.list");
const QString actionCreate = QStringLiteral("schedule.create");
const QString actionRun = QStringLiteral("schedule.run");
const QString actionDelete = QStringLiteral("schedule.delete");
const QString actionToggle = QStringLiteral("schedule.toggle");

} // namespace

ScheduleService::ScheduleService(ScheduleStore &store, Scheduler &scheduler, const Broker::Clock &clock,
                                 ScheduleProjects projects)
    : m_store(store), m_scheduler(scheduler), m_clock(clock), m_projects(std::move(projects))
{
}

QList<ActionInfo> ScheduleService::catalog() const
{
    return {
        {actionStatus, QStringLiteral("Check scheduler status"),
         QStringLiteral("Whether scheduled tasks are enabled and running"), false},
        {actionList, QStringLiteral("List tasks and scheduler status"),
         QStringLiteral("List scheduled tasks and scheduler status; scope with projectId or directory"),
         true},
        {actionCreate, QStringLiteral("Create task"),
         QStringLiteral("Create task; requires name, prompt, model, and one schedule selector"), true},
        {actionRun, QStringLiteral("Run task"),
         QStringLiteral("Run taskId; scope with projectId or directory"), true},
        {actionDelete, QStringLiteral("Delete task"),
         QStringLiteral("Delete taskId; scope with projectId or directory"), true},
        {actionToggle, QStringLiteral("Enable or disable task"),
         QStringLiteral("Enable or disable taskId; requires the disabled boolean"), true},
    };
}

void ScheduleService::execute(const QString &action, const QJsonObject &input,
                              const QString &contextDirectory, CancelToken cancel, ControlCallback done)
{
    if (action == actionRun) {
        // The run goes on if the caller leaves; only its answer is cancelled.
        auto answered = std::make_shared<bool>(false);
        auto answer = [answered, done](ControlResult result) {
            if (*answered)
                return;
            *answered = true;
            done(std::move(result));
        };
        cancel.onCancel([answer] {
            answer(
                std::unexpected(ControlError {499, QStringLiteral("OpenChamber action was cancelled"), {}}));
        });
        run(input, contextDirectory, answer);
        return;
    }
    if (action == actionStatus)
        done(status());
    else if (action == actionList)
        done(list(input, contextDirectory));
    else if (action == actionCreate)
        done(create(input, contextDirectory));
    else if (action == actionDelete)
        done(remove(input, contextDirectory));
    else if (action == actionToggle)
        done(toggle(input, contextDirectory));
    else
        done(std::unexpected(usage(QStringLiteral("Unsupported OpenChamber action: %1")
                                       .arg(action.isEmpty() ? QStringLiteral("missing") : action))));
}

std::expected<ScheduleProject, ControlError>
ScheduleService::resolveProject(const QJsonObject &input, const QString &contextDirectory) const
{
    const QString projectId = nonEmptyString(input.value(QStringLiteral("projectId")));
    const QString explicitDirectory = nonEmptyString(input.value(QStringLiteral("directory")));
    if (!projectId.isEmpty() && !explicitDirectory.isEmpty())
        return std::unexpected(usage(QStringLiteral("Provide only one of projectId or directory")));
    const QList<ScheduleProject> projects = m_projects ? m_projects() : QList<ScheduleProject>();
    if (!projectId.isEmpty()) {
        for (const ScheduleProject &project : projects) {
            if (project.id == projectId)
                return project;
        }
        return std::unexpected(notFound(QStringLiteral("Project not found")));
    }
    const QString directory = explicitDirectory.isEmpty() ? contextDirectory.trimmed() : explicitDirectory;
    if (directory.isEmpty())
        return std::unexpected(usage(QStringLiteral("projectId or directory is required")));
    const QString resolved = resolvedPath(directory);
    for (const ScheduleProject &project : projects) {
        if (resolvedPath(project.path) == resolved)
            return project;
    }
    return std::unexpected(notFound(QStringLiteral("Project not found for directory: %1").arg(resolved)));
}

std::expected<ScheduleProject, ControlError>
ScheduleService::resolveTaskScope(const QJsonObject &input, const QString &contextDirectory,
                                  const QString &taskId) const
{
    const bool explicitScope = !nonEmptyString(input.value(QStringLiteral("projectId"))).isEmpty() ||
        !nonEmptyString(input.value(QStringLiteral("directory"))).isEmpty();
    if (!explicitScope) {
        const auto task = m_store.find(taskId);
        if (task && *task && (*task)->projectId.isEmpty())
            return ScheduleProject {};
    }
    return resolveProject(input, contextDirectory);
}

ControlResult ScheduleService::status() const
{
    auto status = m_scheduler.status();
    if (!status)
        return std::unexpected(storeError(status.error()));
    return *status;
}

ControlResult ScheduleService::list(const QJsonObject &input, const QString &contextDirectory)
{
    // Our extension: peers: true lists the tasks that target peers (kept outside the projects).
    const bool peers =
        input.value(QStringLiteral("peers")).isBool() && input.value(QStringLiteral("peers")).toBool();
    if (peers &&
        (!nonEmptyString(input.value(QStringLiteral("projectId"))).isEmpty() ||
         !nonEmptyString(input.value(QStringLiteral("directory"))).isEmpty()))
        return std::unexpected(usage(QStringLiteral("Provide only one of projectId, directory or peers")));
    const auto project = peers ? std::expected<ScheduleProject, ControlError>(ScheduleProject {})
                               : resolveProject(input, contextDirectory);
    if (!project)
        return std::unexpected(project.error());
    const auto tasks = m_store.list(project->id);
    if (!tasks)
        return std::unexpected(storeError(tasks.error()));
    auto scheduler = m_scheduler.status();
    if (!scheduler)
        return std::unexpected(storeError(scheduler.error()));
    return QJsonObject {{QStringLiteral("scheduler"), *scheduler},
                        {QStringLiteral("tasks"), tasksJson(*tasks)}};
}

ControlResult ScheduleService::create(const QJsonObject &input, const QString &contextDirectory)
{
    // Our extension: a peer instead of a model (docs/divergences.md). The contract ignores
    // unknown keys, so an empty or null peer is still ignored; any other non-string is refused.
    const QJsonValue peer = input.value(QStringLiteral("peer"));
    if (!peer.isUndefined() && !peer.isNull() && !peer.isString())
        return std::unexpected(usage(QStringLiteral("peer must be a string: a peer's session name or id")));
    if (!nonEmptyString(peer).isEmpty())
        return createForPeer(input, nonEmptyString(peer));
    const auto project = resolveProject(input, contextDirectory);
    if (!project)
        return std::unexpected(project.error());
    const QString name = nonEmptyString(input.value(QStringLiteral("name")));
    if (name.isEmpty())
        return std::unexpected(usage(QStringLiteral("name is required")));
    const QString prompt = nonEmptyString(input.value(QStringLiteral("prompt")));
    if (prompt.isEmpty())
        return std::unexpected(usage(QStringLiteral("prompt is required")));
    const QString model = nonEmptyString(input.value(QStringLiteral("model")));
    if (model.isEmpty())
        return std::unexpected(usage(QStringLiteral("model is required")));
    const qsizetype slash = model.indexOf(u'/');
    if (slash <= 0 || slash == model.size() - 1)
        return std::unexpected(usage(QStringLiteral("model must be in provider/model format")));
    const bool goal =
        input.value(QStringLiteral("goal")).toBool(false) && input.value(QStringLiteral("goal")).isBool();
    const QJsonValue budget = input.value(QStringLiteral("goalTokenBudget"));
    const bool hasBudget = !budget.isUndefined() && !budget.isNull();
    if (hasBudget && !goal)
        return std::unexpected(usage(QStringLiteral("goalTokenBudget requires goal")));
    if (hasBudget &&
        (!budget.isDouble() || !(budget.toDouble() >= 1000 && budget.toDouble() <= 100000000) ||
         budget.toDouble() != double(qint64(budget.toDouble()))))
        return std::unexpected(usage(QStringLiteral("goalTokenBudget must be from 1000 to 100000000")));

    auto created = newTask(input, name, prompt);
    if (!created)
        return std::unexpected(created.error());
    ScheduledTask task = std::move(*created);
    task.projectId = project->id;
    task.execution.providerID = model.left(slash);
    task.execution.modelID = model.mid(slash + 1);
    task.execution.agent = nonEmptyString(input.value(QStringLiteral("agent")));
    task.execution.variant = nonEmptyString(input.value(QStringLiteral("variant")));
    task.execution.goalEnabled = goal;
    if (hasBudget)
        task.execution.goalTokenBudget = qint64(budget.toDouble());
    return save(std::move(task));
}

ControlResult ScheduleService::createForPeer(const QJsonObject &input, const QString &peer)
{
    // Kept outside the projects: a peer is no project's, and the agent tool's context directory
    // must not file it under one.
    if (!nonEmptyString(input.value(QStringLiteral("projectId"))).isEmpty() ||
        !nonEmptyString(input.value(QStringLiteral("directory"))).isEmpty())
        return std::unexpected(usage(QStringLiteral(
            "A task that targets a peer is not kept in a project: leave out projectId and directory")));
    const QString name = nonEmptyString(input.value(QStringLiteral("name")));
    if (name.isEmpty())
        return std::unexpected(usage(QStringLiteral("name is required")));
    const QString prompt = nonEmptyString(input.value(QStringLiteral("prompt")));
    if (prompt.isEmpty())
        return std::unexpected(usage(QStringLiteral("prompt is required")));
    for (const char *key : {"model", "agent", "variant", "goal", "goalTokenBudget"}) {
        if (isGiven(input.value(QLatin1StringView(key))))
            return std::unexpected(
                usage(QStringLiteral("peer cannot be combined with %1: a task that targets a "
                                     "peer sends it a message and starts no OpenCode session")
                          .arg(QLatin1StringView(key))));
    }
    auto task = newTask(input, name, prompt);
    if (!task)
        return std::unexpected(task.error());
    task->execution.peer = peer;
    return save(std::move(*task));
}

ControlResult ScheduleService::save(ScheduledTask task)
{
    // The storage checks: every one is bad input, so 400 (docs/divergences.md).
    if (const auto valid = task.validate(); !valid)
        return std::unexpected(usage(valid.error()));
    const qint64 now = m_clock.msecsSinceEpoch();
    task.state.createdAt = now;
    task.state.updatedAt = now;
    task.state.nextRunAt = task.computeNextRunAt(now);
    if (const auto saved = m_store.upsert(task); !saved)
        return std::unexpected(storeError(saved.error()));
    if (task.targetsPeer())
        qCInfo(lcSchedule) << "scheduled task" << task.id << "created for peer" << task.execution.peer;
    else
        qCInfo(lcSchedule) << "scheduled task" << task.id << "created in project" << task.projectId;
    return QJsonObject {{QStringLiteral("task"), task.toJson()}, {QStringLiteral("created"), true}};
}

void ScheduleService::run(const QJsonObject &input, const QString &contextDirectory, ControlCallback done)
{
    const QString taskId = nonEmptyString(input.value(QStringLiteral("taskId")));
    if (taskId.isEmpty())
        return done(std::unexpected(usage(QStringLiteral("taskId is required"))));
    const auto project = resolveTaskScope(input, contextDirectory, taskId);
    if (!project)
        return done(std::unexpected(project.error()));
    const auto task = m_store.find(project->id, taskId);
    if (!task)
        return done(std::unexpected(storeError(task.error())));
    if (!*task || !(*task)->enabled)
        return done(std::unexpected(notFound(QStringLiteral("Task not found or disabled"))));
    m_scheduler.runNow(**task, [done](Scheduler::RunNowResult result) {
        if (!result)
            return done(std::unexpected(result.error()));
        QJsonObject answer {{QStringLiteral("task"), result->task.toJson()}};
        if (result->task.targetsPeer()) {
            answer.insert(QStringLiteral("messageId"), double(result->messageId.value_or(0)));
            answer.insert(QStringLiteral("peerId"), result->peerId);
        } else {
            answer.insert(QStringLiteral("sessionId"), result->sessionId);
        }
        if (!result->persistError.isEmpty())
            answer.insert(QStringLiteral("persistError"), result->persistError);
        done(answer);
    });
}

ControlResult ScheduleService::remove(const QJsonObject &input, const QString &contextDirectory)
{
    const QString taskId = nonEmptyString(input.value(QStringLiteral("taskId")));
    if (taskId.isEmpty())
        return std::unexpected(usage(QStringLiteral("taskId is required")));
    const auto project = resolveTaskScope(input, contextDirectory, taskId);
    if (!project)
        return std::unexpected(project.error());
    const auto removed = m_store.remove(project->id, taskId);
    if (!removed)
        return std::unexpected(storeError(removed.error()));
    if (!*removed)
        return std::unexpected(notFound(QStringLiteral("Task not found")));
    const auto tasks = m_store.list(project->id);
    if (!tasks)
        return std::unexpected(storeError(tasks.error()));
    return QJsonObject {{QStringLiteral("deleted"), true}, {QStringLiteral("tasks"), tasksJson(*tasks)}};
}

ControlResult ScheduleService::toggle(const QJsonObject &input, const QString &contextDirectory)
{
    const QString taskId = nonEmptyString(input.value(QStringLiteral("taskId")));
    if (taskId.isEmpty())
        return std::unexpected(usage(QStringLiteral("taskId is required")));
    const auto project = resolveTaskScope(input, contextDirectory, taskId);
    if (!project)
        return std::unexpected(project.error());
    const QJsonValue disabled = input.value(QStringLiteral("disabled"));
    if (!disabled.isBool())
        return std::unexpected(usage(QStringLiteral("disabled is required for schedule.toggle")));
    auto found = m_store.find(project->id, taskId);
    if (!found)
        return std::unexpected(storeError(found.error()));
    if (!*found)
        return std::unexpected(notFound(QStringLiteral("Task not found")));
    ScheduledTask task = **found;
    const qint64 now = m_clock.msecsSinceEpoch();
    task.enabled = !disabled.toBool();
    task.state.updatedAt = now;
    task.state.nextRunAt = task.computeNextRunAt(now);
    if (const auto saved = m_store.upsert(task); !saved)
        return std::unexpected(storeError(saved.error()));
    return QJsonObject {{QStringLiteral("task"), task.toJson()}, {QStringLiteral("enabled"), task.enabled}};
}

} // namespace OpenChamber
