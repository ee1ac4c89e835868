#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QTimeZone>

namespace App {

// The Schedules page's table: the scheduled tasks of every configured project, and those that
// message a peer (project id empty), with their state (docs/spec/control-service.md §9.1: next run,
// last run, last status, the session or message of the last run, or its error). GUI-free.
class SchedulesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ProjectColumn, // the target: the project's label, or the peer the task messages
        ScheduleColumn,
        EnabledColumn,
        NextRunColumn,
        LastRunColumn,
        LastStatusColumn,
        ColumnCount
    };
    enum Role {
        TaskIdRole = Qt::UserRole + 1,
        ProjectIdRole,
        ProjectPathRole,
        EnabledRole, // bool
        LastStatusRole, // idle, running, success, error
        LastSessionRole, // the session of the last run; empty when none
        LastErrorRole,
        TaskRole, // the task's JSON object
        SortRole,
        PeerRole, // the peer a task messages (its session name or id); empty for a session task
        LastMessageRole, // qint64: the message of a peer task's last run; 0 when none
        LastPeerIdRole, // the peer that message went to
    };

    struct Row
    {
        QString projectId;
        QString projectLabel;
        QString projectPath;
        QJsonObject task; // docs/spec/control-service.md §9.1's Task
        bool operator==(const Row &) const = default;
        QString id() const { return task.value(QLatin1String("id")).toString(); }
    };

    explicit SchedulesModel(QObject *parent = nullptr);

    // Times are shown in this zone (the local one by default).
    void setDisplayZone(const QTimeZone &zone) { m_zone = zone; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The tasks schedule.list returned for a project: its other rows go.
    void setProjectTasks(const QString &projectId, const QString &label, const QString &path,
                         const QJsonArray &tasks);
    // Keeps only the rows of these projects (a project removed from the configuration).
    void retainProjects(const QStringList &projectIds);
    // One task changed (toggle, run) or was created.
    void upsertTask(const QString &projectId, const QString &label, const QString &path,
                    const QJsonObject &task);
    void removeTask(const QString &projectId, const QString &taskId);

    int rowOf(const QString &projectId, const QString &taskId) const;
    const Row &rowAt(int row) const { return m_rows.at(row); }

    // "Daily at 09:00 (Europe/Berlin)", "Mon, Wed, Fri at 09:00 (UTC)", "Once on 2026-12-24 at
    // 18:00 (…)", "Cron 0 9 * * 1-5 (…)".
    static QString scheduleText(const QJsonObject &schedule);
    static QString statusText(const QJsonObject &state);

private:
    QString timeText(const QJsonValue &ms) const;

    QList<Row> m_rows;
    QTimeZone m_zone = QTimeZone::systemTimeZone();
};

} // namespace App
