#include "app/tray/notifications/notificationlistmodel.h"

namespace App {

NotificationListModel::NotificationListModel(QObject *parent) : QAbstractListModel(parent) { }

int NotificationListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QVariant NotificationListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return e.event.body.isEmpty() ? e.event.title : e.event.title + QStringLiteral(" — ") + e.event.body;
    case Qt::ToolTipRole:
        return e.event.body;
    case TimeRole:
        return e.time;
    case PeerIdRole:
        return e.event.peerId;
    case PeerNameRole:
        return e.event.peerName;
    case KindRole:
        return QVariant::fromValue(e.event.kind);
    case TitleRole:
        return e.event.title;
    case TextRole:
        return e.event.body;
    case ReadRole:
        return e.read;
    case ActionRole:
        return QVariant::fromValue(e.action);
    case DeliveryRole:
        return QVariant::fromValue(e.delivery);
    case SuppressionRole:
        return QVariant::fromValue(e.suppression);
    case IdRole:
        return QVariant::fromValue(e.id);
    default:
        return {};
    }
}

QHash<int, QByteArray> NotificationListModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{TimeRole, "time"},
                  {PeerIdRole, "peerId"},
                  {PeerNameRole, "peerName"},
                  {KindRole, "kind"},
                  {TitleRole, "title"},
                  {TextRole, "text"},
                  {ReadRole, "read"},
                  {ActionRole, "action"},
                  {DeliveryRole, "delivery"},
                  {SuppressionRole, "suppression"},
                  {IdRole, "entryId"}});
    return names;
}

quint64 NotificationListModel::add(const NotificationEvent &event, const QDateTime &time, Delivery delivery,
                                   Suppression suppression)
{
    if (m_entries.size() >= MaxEntries) {
        const int last = int(m_entries.size()) - 1;
        beginRemoveRows({}, last, last);
        const bool wasUnread = !m_entries.constLast().read;
        m_entries.removeLast();
        endRemoveRows();
        if (wasUnread)
            setUnread(m_unread - 1);
    }
    Entry e;
    e.id = m_nextId++;
    e.time = time.toUTC();
    e.event = event;
    e.delivery = delivery;
    e.suppression = delivery == Delivery::Suppressed ? suppression : Suppression::Shown;
    beginInsertRows({}, 0, 0);
    m_entries.prepend(e);
    endInsertRows();
    setUnread(m_unread + 1);
    return e.id;
}

int NotificationListModel::rowOf(quint64 id) const
{
    for (qsizetype i = 0; i < m_entries.size(); ++i)
        if (m_entries.at(i).id == id)
            return int(i);
    return -1;
}

const NotificationListModel::Entry *NotificationListModel::entry(quint64 id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : &m_entries.at(row);
}

void NotificationListModel::setDelivery(quint64 id, Delivery delivery)
{
    const int row = rowOf(id);
    if (row < 0 || m_entries.at(row).delivery == delivery)
        return;
    m_entries[row].delivery = delivery;
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i, {DeliveryRole});
}

void NotificationListModel::setAction(quint64 id, Action action)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    m_entries[row].action = action;
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i, {ActionRole});
    markRead(row);
}

void NotificationListModel::markRead(int row)
{
    if (row < 0 || row >= m_entries.size() || m_entries.at(row).read)
        return;
    m_entries[row].read = true;
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i, {ReadRole});
    setUnread(m_unread - 1);
}

void NotificationListModel::markAllRead()
{
    if (m_unread == 0)
        return;
    for (Entry &e : m_entries)
        e.read = true;
    Q_EMIT dataChanged(index(0), index(int(m_entries.size()) - 1), {ReadRole});
    setUnread(0);
}

void NotificationListModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
    setUnread(0);
}

void NotificationListModel::setUnread(int unread)
{
    if (unread == m_unread)
        return;
    m_unread = unread;
    Q_EMIT unreadCountChanged(unread);
}

QString NotificationListModel::deliveryKey(Delivery delivery)
{
    switch (delivery) {
    case Delivery::Desktop:
        return QStringLiteral("desktop");
    case Delivery::Tray:
        return QStringLiteral("tray");
    case Delivery::ListOnly:
        return QStringLiteral("list");
    case Delivery::Suppressed:
        return QStringLiteral("suppressed");
    }
    return {};
}

QString NotificationListModel::actionKey(Action action)
{
    switch (action) {
    case Action::None:
        return {};
    case Action::Opened:
        return QStringLiteral("opened");
    case Action::Replied:
        return QStringLiteral("replied");
    case Action::Muted:
        return QStringLiteral("muted");
    case Action::Dismissed:
        return QStringLiteral("dismissed");
    }
    return {};
}

} // namespace App
