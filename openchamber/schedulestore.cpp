#include "openchamber/schedulestore.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace OpenChamber {

using Broker::ErrorKind;
using Broker::fail;
using Broker::Result;

namespace {

const QString columns = QStringLiteral(
    "id, project_id, name, enabled, schedule, execution, created_at, updated_at, last_status, last_run_at, "
    "last_duration_ms, next_run_at, last_scheduled_for, last_session_id, last_error, last_message_id, "
    "last_peer_id");

Result<void> run(QSqlQuery &query, const char *what)
{
    if (query.exec())
        return {};
    return fail(ErrorKind::Database,
                QStringLiteral("scheduled tasks: %1 failed: %2")
                    .arg(QLatin1StringView(what), query.lastError().text()));
}

QVariant optionalValue(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qint64>());
}

std::optional<qint64> optionalColumn(const QVariant &value)
{
    return value.isNull() ? std::nullopt : std::optional<qint64>(value.toLongLong());
}

// The tasks that target a peer have no project: '' in the NOT NULL column, never NULL (a null
// QString binds as NULL).
QVariant projectValue(const QString &projectId)
{
    return projectId.isEmpty() ? QVariant(QStringLiteral("")) : QVariant(projectId);
}

QString compactJson(const QJsonObject &json)
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

ScheduledTask taskFrom(const QSqlQuery &query)
{
    ScheduledTask task;
    task.id = query.value(0).toString();
    task.projectId = query.value(1).toString();
    task.name = query.value(2).toString();
    task.enabled = query.value(3).toInt() != 0;
    const QJsonObject schedule = QJsonDocument::fromJson(query.value(4).toString().toUtf8()).object();
    // A row only holds what validate() let in; an unreadable one stays visible, never runs.
    task.schedule = TaskSchedule::fromJson(schedule).value_or(TaskSchedule {});
    task.execution =
        TaskExecution::fromJson(QJsonDocument::fromJson(query.value(5).toString().toUtf8()).object());
    task.state.createdAt = query.value(6).toLongLong();
    task.state.updatedAt = query.value(7).toLongLong();
    task.state.lastStatus = query.value(8).toString();
    task.state.lastRunAt = optionalColumn(query.value(9));
    task.state.lastDurationMs = optionalColumn(query.value(10));
    task.state.nextRunAt = optionalColumn(query.value(11));
    task.state.lastScheduledFor = optionalColumn(query.value(12));
    task.state.lastSessionId = query.value(13).toString();
    task.state.lastError = query.value(14).toString();
    task.state.lastMessageId = optionalColumn(query.value(15));
    task.state.lastPeerId = query.value(16).toString();
    return task;
}

Result<QList<ScheduledTask>> selectTasks(QSqlQuery &query, const char *what)
{
    if (auto ok = run(query, what); !ok)
        return std::unexpected(ok.error());
    QList<ScheduledTask> tasks;
    while (query.next())
        tasks.append(taskFrom(query));
    return tasks;
}

} // namespace

ScheduleStore::ScheduleStore(QSqlDatabase db) : m_db(std::move(db)) { }

QList<Broker::ModuleMigration> ScheduleStore::migrations()
{
    return {
        {1, QStringLiteral("create table openchamber_scheduled_tasks"),
         [](QSqlDatabase &db) -> Result<void> {
             QSqlQuery query(db);
             for (const char *sql : {
                      "CREATE TABLE openchamber_scheduled_tasks ("
                      " id TEXT PRIMARY KEY,"
                      " project_id TEXT NOT NULL,"
                      " name TEXT NOT NULL,"
                      " enabled INTEGER NOT NULL,"
                      " schedule TEXT NOT NULL," // docs/spec/control-service.md §9.1 schedule object, JSON
                      " execution TEXT NOT NULL," // docs/spec/control-service.md §9.1 execution object, JSON
                      " created_at INTEGER NOT NULL,"
                      " updated_at INTEGER NOT NULL,"
                      " last_status TEXT NOT NULL DEFAULT 'idle',"
                      " last_run_at INTEGER,"
                      " last_duration_ms INTEGER,"
                      " next_run_at INTEGER,"
                      " last_scheduled_for INTEGER,"
                      " last_session_id TEXT,"
                      " last_error TEXT,"
                      " running_since INTEGER," // the claim: set before a run starts, cleared at its end
                      " running_occurrence INTEGER)",
                      "CREATE INDEX openchamber_scheduled_tasks_project ON "
                      "openchamber_scheduled_tasks(project_id)",
                      "CREATE INDEX openchamber_scheduled_tasks_due ON openchamber_scheduled_tasks(enabled, "
                      "next_run_at)",
                  }) {
                 if (!query.exec(QLatin1StringView(sql)))
                     return fail(ErrorKind::Database, query.lastError().databaseText());
             }
             return {};
         }},
        // A peer task's last run (scheduledtask.h TaskExecution::peer): the message and its peer.
        {2, QStringLiteral("add last_message_id and last_peer_id"), [](QSqlDatabase &db) -> Result<void> {
             QSqlQuery query(db);
             for (const char *sql :
                  {"ALTER TABLE openchamber_scheduled_tasks ADD COLUMN last_message_id INTEGER",
                   "ALTER TABLE openchamber_scheduled_tasks ADD COLUMN last_peer_id TEXT"}) {
                 if (!query.exec(QLatin1StringView(sql)))
                     return fail(ErrorKind::Database, query.lastError().databaseText());
             }
             return {};
         }}};
}

Result<QList<ScheduledTask>> ScheduleStore::list(const QString &projectId) const
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT %1 FROM openchamber_scheduled_tasks WHERE project_id = ? "
                                 "ORDER BY created_at, id")
                      .arg(columns));
    query.addBindValue(projectValue(projectId));
    return selectTasks(query, "list");
}

Result<std::optional<ScheduledTask>> ScheduleStore::find(const QString &projectId,
                                                         const QString &taskId) const
{
    auto task = find(taskId);
    if (task && *task && (*task)->projectId != projectId)
        return std::optional<ScheduledTask>();
    return task;
}

Result<std::optional<ScheduledTask>> ScheduleStore::find(const QString &taskId) const
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT %1 FROM openchamber_scheduled_tasks WHERE id = ?").arg(columns));
    query.addBindValue(taskId);
    auto tasks = selectTasks(query, "find");
    if (!tasks)
        return std::unexpected(tasks.error());
    return tasks->isEmpty() ? std::optional<ScheduledTask>() : std::optional<ScheduledTask>(tasks->first());
}

Result<QList<ScheduledTask>> ScheduleStore::due(qint64 nowMs) const
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("SELECT %1 FROM openchamber_scheduled_tasks WHERE enabled = 1 AND next_run_at <= ? "
                       "AND running_since IS NULL ORDER BY next_run_at, created_at")
            .arg(columns));
    query.addBindValue(nowMs);
    return selectTasks(query, "due");
}

Result<QList<ScheduledTask>> ScheduleStore::interrupted() const
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT %1 FROM openchamber_scheduled_tasks WHERE running_since IS NOT NULL "
                                 "ORDER BY running_since")
                      .arg(columns));
    return selectTasks(query, "interrupted");
}

Result<int> ScheduleStore::enabledCount() const
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT COUNT(*) FROM openchamber_scheduled_tasks WHERE enabled = 1"));
    if (auto ok = run(query, "count"); !ok)
        return std::unexpected(ok.error());
    return query.next() ? query.value(0).toInt() : 0;
}

Result<void> ScheduleStore::upsert(const ScheduledTask &task)
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral(
            "INSERT INTO openchamber_scheduled_tasks (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET project_id = excluded.project_id, name = excluded.name, "
            "enabled = excluded.enabled, schedule = excluded.schedule, execution = excluded.execution, "
            "updated_at = excluded.updated_at, last_status = excluded.last_status, last_run_at = "
            "excluded.last_run_at, "
            "last_duration_ms = excluded.last_duration_ms, next_run_at = excluded.next_run_at, "
            "last_scheduled_for = excluded.last_scheduled_for, last_session_id = excluded.last_session_id, "
            "last_error = excluded.last_error, last_message_id = excluded.last_message_id, "
            "last_peer_id = excluded.last_peer_id")
            .arg(columns));
    query.addBindValue(task.id);
    query.addBindValue(projectValue(task.projectId));
    query.addBindValue(task.name);
    query.addBindValue(task.enabled ? 1 : 0);
    query.addBindValue(compactJson(task.schedule.toJson()));
    query.addBindValue(compactJson(task.execution.toJson()));
    query.addBindValue(task.state.createdAt);
    query.addBindValue(task.state.updatedAt);
    query.addBindValue(task.state.lastStatus);
    query.addBindValue(optionalValue(task.state.lastRunAt));
    query.addBindValue(optionalValue(task.state.lastDurationMs));
    query.addBindValue(optionalValue(task.state.nextRunAt));
    query.addBindValue(optionalValue(task.state.lastScheduledFor));
    query.addBindValue(task.state.lastSessionId);
    query.addBindValue(task.state.lastError);
    query.addBindValue(optionalValue(task.state.lastMessageId));
    query.addBindValue(task.state.lastPeerId);
    return run(query, "save");
}

Result<bool> ScheduleStore::remove(const QString &projectId, const QString &taskId)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("DELETE FROM openchamber_scheduled_tasks WHERE id = ? AND project_id = ?"));
    query.addBindValue(taskId);
    query.addBindValue(projectValue(projectId));
    if (auto ok = run(query, "delete"); !ok)
        return std::unexpected(ok.error());
    return query.numRowsAffected() > 0;
}

Result<bool> ScheduleStore::claimScheduled(const QString &taskId, qint64 occurrence,
                                           std::optional<qint64> following, qint64 nowMs)
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("UPDATE openchamber_scheduled_tasks SET running_since = ?, running_occurrence = ?, "
                       "last_scheduled_for = ?, "
                       "last_run_at = ?, last_status = 'running', next_run_at = ?, updated_at = ? "
                       "WHERE id = ? AND enabled = 1 AND running_since IS NULL AND next_run_at = ?"));
    query.addBindValue(nowMs);
    query.addBindValue(occurrence);
    query.addBindValue(occurrence);
    query.addBindValue(nowMs);
    query.addBindValue(optionalValue(following));
    query.addBindValue(nowMs);
    query.addBindValue(taskId);
    query.addBindValue(occurrence);
    if (auto ok = run(query, "claim"); !ok)
        return std::unexpected(ok.error());
    return query.numRowsAffected() == 1;
}

Result<bool> ScheduleStore::claimManual(const QString &taskId, qint64 nowMs)
{
    QSqlQuery query(m_db);
    query.prepare(
        QStringLiteral("UPDATE openchamber_scheduled_tasks SET running_since = ?, running_occurrence = NULL, "
                       "last_run_at = ?, last_status = 'running', updated_at = ? "
                       "WHERE id = ? AND running_since IS NULL"));
    query.addBindValue(nowMs);
    query.addBindValue(nowMs);
    query.addBindValue(nowMs);
    query.addBindValue(taskId);
    if (auto ok = run(query, "claim"); !ok)
        return std::unexpected(ok.error());
    return query.numRowsAffected() == 1;
}

Result<void> ScheduleStore::finish(const ScheduledTask &task)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE openchamber_scheduled_tasks SET running_since = NULL, "
                                 "running_occurrence = NULL, enabled = ?, "
                                 "last_status = ?, last_duration_ms = ?, last_error = ?, last_session_id = "
                                 "?, next_run_at = ?, updated_at = ?, last_message_id = ?, last_peer_id = ? "
                                 "WHERE id = ?"));
    query.addBindValue(task.enabled ? 1 : 0);
    query.addBindValue(task.state.lastStatus);
    query.addBindValue(optionalValue(task.state.lastDurationMs));
    query.addBindValue(task.state.lastError);
    query.addBindValue(task.state.lastSessionId);
    query.addBindValue(optionalValue(task.state.nextRunAt));
    query.addBindValue(task.state.updatedAt);
    query.addBindValue(optionalValue(task.state.lastMessageId));
    query.addBindValue(task.state.lastPeerId);
    query.addBindValue(task.id);
    return run(query, "finish");
}

} // namespace OpenChamber
