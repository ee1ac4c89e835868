#pragma once

#include "broker/brokermodule.h"
#include "common/result.h"
#include "openchamber/scheduledtask.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <optional>

namespace OpenChamber {

// The scheduled tasks in the broker's SQLite database (table openchamber_scheduled_tasks, created
// by migrations()). A run is claimed in the task's own row (running_since) by one conditional
// UPDATE before it starts, so that a claim is atomic without a transaction of ours (the broker's
// writes may be inside a group commit) and survives a broker restart.
class ScheduleStore
{
public:
    explicit ScheduleStore(QSqlDatabase db);

    // For the openchamber module's migrations() (module_versions row "openchamber").
    static QList<Broker::ModuleMigration> migrations();

    Broker::Result<QList<ScheduledTask>> list(const QString &projectId) const; // oldest first
    Broker::Result<std::optional<ScheduledTask>> find(const QString &projectId, const QString &taskId) const;
    Broker::Result<std::optional<ScheduledTask>> find(const QString &taskId) const;
    // Enabled tasks whose nextRunAt has come, not running; soonest first.
    Broker::Result<QList<ScheduledTask>> due(qint64 nowMs) const;
    // Runs claimed and never finished: the broker stopped during them.
    Broker::Result<QList<ScheduledTask>> interrupted() const;
    Broker::Result<int> enabledCount() const;

    // Inserts or replaces the definition and state; never touches a claim.
    Broker::Result<void> upsert(const ScheduledTask &task);
    Broker::Result<bool> remove(const QString &projectId, const QString &taskId);

    // A scheduled run of occurrence: true when this caller won it. Moves nextRunAt to following,
    // so the occurrence can never be claimed again.
    Broker::Result<bool> claimScheduled(const QString &taskId, qint64 occurrence,
                                        std::optional<qint64> following, qint64 nowMs);
    // A manual run: true unless the task is running or gone.
    Broker::Result<bool> claimManual(const QString &taskId, qint64 nowMs);
    // The run's end: its state (lastStatus, lastDurationMs, lastError, lastSessionId, nextRunAt,
    // enabled) written and the claim released in one statement.
    Broker::Result<void> finish(const ScheduledTask &task);

private:
    QSqlDatabase m_db;
};

} // namespace OpenChamber
