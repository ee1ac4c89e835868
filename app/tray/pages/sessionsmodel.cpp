#include "app/tray/pages/sessionsmodel.h"

#include <QSet>

namespace App {

namespace {

int attentionRank(const OpenCodeSession &s)
{
    return int(s.attention());
}

} // namespace

SessionsModel::SessionsModel(QObject *parent) : QAbstractTableModel(parent) { }

int SessionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SessionsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SessionsModel::stateText(const OpenCodeSession &s)
{
    if (s.waitingFor == QLatin1String("permission"))
        return s.detail.isEmpty() ? tr("needs you (permission)")
                                  : tr("needs you (permission: %1)").arg(s.detail);
    if (s.waitingFor == QLatin1String("question"))
        return s.detail.isEmpty() ? tr("needs you (question)") : tr("needs you (question: %1)").arg(s.detail);
    if (!s.waitingFor.isEmpty())
        return tr("needs you");
    QString text;
    if (s.status == QLatin1String("busy"))
        text = tr("busy");
    else if (s.status == QLatin1String("retry"))
        text = tr("retrying");
    else if (s.status == QLatin1String("idle"))
        text = tr("idle");
    else if (s.status.isEmpty() || s.status == QLatin1String("unknown"))
        text = tr("unknown");
    else
        text = s.status;
    if (!s.error.isEmpty())
        text = tr("%1 — error: %2").arg(text, s.error);
    return text;
}

QVariant SessionsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row &row = m_rows.at(index.row());
    const OpenCodeSession &s = row.session;
    switch (role) {
    case SessionIdRole:
        return s.sessionId;
    case DirectoryRole:
        return s.directory;
    case StatusRole:
        return s.status;
    case WaitingForRole:
        return s.waitingFor;
    case LastAssistantRole:
        return row.lastAssistant;
    case SortRole:
        switch (index.column()) {
        case StateColumn:
        case TimeColumn:
            // Who needs you first, then busy, idle; the longest in its state first.
            return QStringLiteral("%1-%2")
                .arg(attentionRank(s))
                .arg(s.since.isValid() ? s.since.toMSecsSinceEpoch() : 0, 16, 10, QLatin1Char('0'));
        default:
            return data(index, Qt::DisplayRole).toString().toLower();
        }
    case Qt::ToolTipRole:
        if (index.column() == AnswerColumn)
            return row.lastAssistant;
        return s.sessionId;
    case Qt::DisplayRole:
        switch (index.column()) {
        case TitleColumn:
            return s.title.isEmpty() ? s.sessionId : s.title;
        case StateColumn:
            return stateText(s);
        case TimeColumn:
            return AttentionText::timeInState(s.since, now());
        case DirectoryColumn:
            return s.directory;
        case AnswerColumn:
            return row.lastAssistant.simplified().left(300);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant SessionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn:
        return tr("Session");
    case StateColumn:
        return tr("Status");
    case TimeColumn:
        return tr("In state");
    case DirectoryColumn:
        return tr("Directory");
    case AnswerColumn:
        return tr("Last answer");
    default:
        return {};
    }
}

int SessionsModel::rowOf(const QString &sessionId) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).session.sessionId == sessionId)
            return i;
    return -1;
}

void SessionsModel::setRow(int index, const Row &row)
{
    if (m_rows.at(index) == row)
        return;
    m_rows[index] = row;
    Q_EMIT dataChanged(this->index(index, 0), this->index(index, ColumnCount - 1));
}

void SessionsModel::setDirectorySessions(const QString &directory, const QList<Row> &rows)
{
    QSet<QString> listed;
    for (const Row &row : rows)
        listed.insert(row.session.sessionId);
    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        const OpenCodeSession &s = m_rows.at(i).session;
        if (s.directory == directory && !listed.contains(s.sessionId)) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
    }
    for (const Row &row : rows)
        upsert(row);
}

void SessionsModel::upsert(const Row &row)
{
    const int index = rowOf(row.session.sessionId);
    if (index < 0) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.append(row);
        endInsertRows();
        return;
    }
    Row next = row;
    const Row &known = m_rows.at(index);
    if (next.lastAssistant.isEmpty())
        next.lastAssistant = known.lastAssistant;
    if (next.session.title.isEmpty())
        next.session.title = known.session.title;
    if (next.updatedAt == 0)
        next.updatedAt = known.updatedAt;
    setRow(index, next);
}

void SessionsModel::updateLive(const OpenCodeSession &session)
{
    const int index = rowOf(session.sessionId);
    if (index < 0)
        return;
    Row next = m_rows.at(index);
    next.session.status = session.status;
    next.session.waitingFor = session.waitingFor;
    next.session.detail = session.detail;
    next.session.error = session.error;
    next.session.since = session.since;
    if (!session.title.isEmpty())
        next.session.title = session.title;
    setRow(index, next);
}

void SessionsModel::setLastAssistant(const QString &sessionId, const QString &text)
{
    const int index = rowOf(sessionId);
    if (index < 0)
        return;
    Row next = m_rows.at(index);
    next.lastAssistant = text;
    setRow(index, next);
}

void SessionsModel::refreshTimes()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, TimeColumn), index(int(m_rows.size()) - 1, TimeColumn),
                           {Qt::DisplayRole, SortRole});
}

} // namespace App
