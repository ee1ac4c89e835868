#include "app/tray/pages/schedulesmodel.h"

#include <QDateTime>
#include <QJsonArray>
#include <QLocale>

namespace App {

namespace {

QJsonObject object(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toObject();
}

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

} // namespace

SchedulesModel::SchedulesModel(QObject *parent) : QAbstractTableModel(parent) { }

int SchedulesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SchedulesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SchedulesModel::scheduleText(const QJsonObject &schedule)
{
    const QString kind = str(schedule, "kind");
    const QString zone = str(schedule, "timezone");
    QStringList times;
    for (const QJsonValue &t : schedule.value(QLatin1String("times")).toArray())
        times << t.toString();
    QString text;
    if (kind == QLatin1String("daily")) {
        text = tr("Daily at %1").arg(times.join(QStringLiteral(", ")));
    } else if (kind == QLatin1String("weekly")) {
        QStringList days;
        const QLocale locale;
        for (const QJsonValue &d : schedule.value(QLatin1String("weekdays")).toArray())
            days << locale.dayName(d.toInt() == 0 ? 7 : d.toInt(), QLocale::ShortFormat); // 0 = Sunday
        text = tr("%1 at %2").arg(days.join(QStringLiteral(", ")), times.join(QStringLiteral(", ")));
    } else if (kind == QLatin1String("once")) {
        text = tr("Once on %1 at %2").arg(str(schedule, "date"), str(schedule, "time"));
    } else if (kind == QLatin1String("cron")) {
        text = tr("Cron %1").arg(str(schedule, "cron"));
    } else {
        text = kind;
    }
    return zone.isEmpty() ? text : tr("%1 (%2)").arg(text, zone);
}

QString SchedulesModel::statusText(const QJsonObject &state)
{
    const QString status = str(state, "lastStatus");
    if (status == QLatin1String("running"))
        return tr("running");
    if (status == QLatin1String("success") && state.contains(QLatin1String("lastMessageId")))
        return tr("sent message #%1").arg(state.value(QLatin1String("lastMessageId")).toInteger());
    if (status == QLatin1String("success"))
        return tr("succeeded");
    if (status == QLatin1String("error"))
        return str(state, "lastError").isEmpty() ? tr("failed")
                                                 : tr("failed: %1").arg(str(state, "lastError"));
    return tr("not run yet");
}

QString SchedulesModel::timeText(const QJsonValue &ms) const
{
    if (!ms.isDouble())
        return QStringLiteral("—");
    return QDateTime::fromMSecsSinceEpoch(ms.toInteger(), m_zone)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QVariant SchedulesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    const QJsonObject state = object(row.task, "state");
    switch (role) {
    case TaskIdRole:
        return row.id();
    case ProjectIdRole:
        return row.projectId;
    case ProjectPathRole:
        return row.projectPath;
    case EnabledRole:
        return row.task.value(QLatin1String("enabled")).toBool();
    case LastStatusRole:
        return str(state, "lastStatus");
    case LastSessionRole:
        return str(state, "lastSessionId");
    case LastErrorRole:
        return str(state, "lastError");
    case PeerRole:
        return str(object(row.task, "execution"), "peer");
    case LastMessageRole:
        return state.value(QLatin1String("lastMessageId")).toInteger();
    case LastPeerIdRole:
        return str(state, "lastPeerId");
    case TaskRole:
        return row.task;
    case SortRole:
        switch (index.column()) {
        case NextRunColumn:
            return state.value(QLatin1String("nextRunAt")).toDouble(-1);
        case LastRunColumn:
            return state.value(QLatin1String("lastRunAt")).toDouble(-1);
        default:
            return data(index, Qt::DisplayRole).toString().toLower();
        }
    case Qt::ToolTipRole:
        if (index.column() == LastStatusColumn && !str(state, "lastSessionId").isEmpty())
            return tr("Session %1").arg(str(state, "lastSessionId"));
        if (index.column() == LastStatusColumn && state.contains(QLatin1String("lastMessageId")))
            return tr("Message #%1 to %2")
                .arg(state.value(QLatin1String("lastMessageId")).toInteger())
                .arg(str(state, "lastPeerId"));
        return str(object(row.task, "execution"), "prompt").left(500);
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return str(row.task, "name");
        case ProjectColumn: {
            const QString peer = str(object(row.task, "execution"), "peer");
            if (!peer.isEmpty())
                return tr("peer %1").arg(peer);
            return row.projectLabel.isEmpty() ? row.projectId : row.projectLabel;
        }
        case ScheduleColumn:
            return scheduleText(object(row.task, "schedule"));
        case EnabledColumn:
            return row.task.value(QLatin1String("enabled")).toBool() ? tr("enabled") : tr("disabled");
        case NextRunColumn:
            return timeText(state.value(QLatin1String("nextRunAt")));
        case LastRunColumn:
            return timeText(state.value(QLatin1String("lastRunAt")));
        case LastStatusColumn:
            return statusText(state);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant SchedulesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Task");
    case ProjectColumn:
        return tr("Target");
    case ScheduleColumn:
        return tr("Schedule");
    case EnabledColumn:
        return tr("Enabled");
    case NextRunColumn:
        return tr("Next run");
    case LastRunColumn:
        return tr("Last run");
    case LastStatusColumn:
        return tr("Last status");
    default:
        return {};
    }
}

int SchedulesModel::rowOf(const QString &projectId, const QString &taskId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).projectId == projectId && m_rows.at(i).id() == taskId)
            return i;
    return -1;
}

void SchedulesModel::setProjectTasks(const QString &projectId, const QString &label, const QString &path,
                                     const QJsonArray &tasks)
{
    QStringList ids;
    for (const QJsonValue &t : tasks)
        ids << str(t.toObject(), "id");
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (m_rows.at(i).projectId == projectId && !ids.contains(m_rows.at(i).id())) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
    for (const QJsonValue &t : tasks)
        upsertTask(projectId, label, path, t.toObject());
}

void SchedulesModel::retainProjects(const QStringList &projectIds)
{
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (!projectIds.contains(m_rows.at(i).projectId)) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
}

void SchedulesModel::upsertTask(const QString &projectId, const QString &label, const QString &path,
                                const QJsonObject &task)
{
    const Row row {projectId, label, path, task};
    if (row.id().isEmpty())
        return;
    const int index = rowOf(projectId, row.id());
    if (index < 0) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.append(row);
        endInsertRows();
    } else if (m_rows.at(index) != row) {
        m_rows[index] = row;
        Q_EMIT dataChanged(this->index(index, 0), this->index(index, ColumnCount - 1));
    }
}

void SchedulesModel::removeTask(const QString &projectId, const QString &taskId)
{
    const int index = rowOf(projectId, taskId);
    if (index < 0)
        return;
    beginRemoveRows({}, index, index);
    m_rows.removeAt(index);
    endRemoveRows();
}

} // namespace App
