#pragma once

#include "app/tray/notifications/notificationkind.h"
#include "app/tray/notifications/notificationpreferences.h"

#include <QAbstractListModel>
#include <QDateTime>

namespace App {

// The in-app list of recent notifications, newest first: the history, and the channel that always
// works (Qt's docs: desktop notifications may not appear at all). Every event the notifier gets is
// recorded here, shown or not, with how it went out and what the user did about it. Core only:
// the window shows it in a view, tests drive it without a display.
class NotificationListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    static constexpr int MaxEntries = 200;

    enum class Delivery { Desktop, Tray, ListOnly, Suppressed };
    enum class Action { None, Opened, Replied, Muted, Dismissed };
    Q_ENUM(Delivery)
    Q_ENUM(Action)

    enum Role {
        TimeRole = Qt::UserRole + 1, // QDateTime (UTC)
        PeerIdRole,
        PeerNameRole,
        KindRole, // App::NotificationKind
        TitleRole,
        TextRole,
        ReadRole, // bool
        ActionRole, // Action
        DeliveryRole, // Delivery
        SuppressionRole, // App::Suppression (Shown unless Delivery::Suppressed)
        IdRole, // quint64: the entry's id, stable while it is listed
    };

    struct Entry
    {
        quint64 id = 0;
        QDateTime time;
        NotificationEvent event;
        Delivery delivery = Delivery::ListOnly;
        Suppression suppression = Suppression::Shown;
        bool read = false;
        Action action = Action::None;
    };

    explicit NotificationListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Adds an entry on top (the oldest goes beyond MaxEntries); returns its id.
    quint64 add(const NotificationEvent &event, const QDateTime &time, Delivery delivery,
                Suppression suppression = Suppression::Shown);
    // nullptr when the entry is no longer listed.
    const Entry *entry(quint64 id) const;
    int rowOf(quint64 id) const; // -1 when not listed
    void setDelivery(quint64 id, Delivery delivery);
    // Records what the user did; it also marks the entry read.
    void setAction(quint64 id, Action action);
    int unreadCount() const { return m_unread; }

    static QString deliveryKey(Delivery delivery); // "desktop", "tray", "list", "suppressed"
    static QString actionKey(Action action); // "", "opened", "replied", "muted", "dismissed"

public Q_SLOTS:
    void markRead(int row);
    void markAllRead();
    void clear();

Q_SIGNALS:
    void unreadCountChanged(int unread);

private:
    void setUnread(int unread);

    QList<Entry> m_entries; // newest first
    quint64 m_nextId = 1;
    int m_unread = 0;
};

} // namespace App
