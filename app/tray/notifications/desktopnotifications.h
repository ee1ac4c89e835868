#pragma once

#include "common/result.h"

#include <QDBusConnection>
#include <QObject>
#include <QSet>
#include <QStringList>
#include <QVariantMap>

#include <functional>

class QDBusServiceWatcher;

namespace App {

// A client of the desktop's notification server (org.freedesktop.Notifications, Desktop
// Notifications Specification 1.2) over QtDBus: what QSystemTrayIcon::showMessage cannot do —
// actions, inline replies, replacing a notification, hints (docs/spec/gui-anchors.md §5).
//
// It reads the server's information and capabilities once, and again whenever another process
// takes the name over (QDBusServiceWatcher); until they are read it is Probing, and where no server
// owns the name (or it does not answer) it is Unavailable. Every call is asynchronous: a tray must
// never wait on a busy desktop. Signals about notifications are passed on only for the ids this
// client created.
//
// Why not QDBusInterface: its constructor introspects the service with a blocking call.
class DesktopNotifications : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *Service = "org.freedesktop.Notifications";
    static constexpr const char *Path = "/org/freedesktop/Notifications";
    static constexpr int CallTimeoutMs = 5000;

    enum class State { Probing, Available, Unavailable };
    Q_ENUM(State)

    struct ServerInfo
    {
        QString name;
        QString vendor;
        QString version;
        QString specVersion;
    };

    struct Message
    {
        QString appName;
        uint replacesId = 0;
        QString appIcon;
        QString summary;
        QString body;
        QStringList actions; // key, label, key, label, …
        QVariantMap hints;
        int expireTimeoutMs = -1; // -1: the server's default; 0: never
    };

    using NotifyDone = std::function<void(Broker::Result<uint>)>;

    explicit DesktopNotifications(QDBusConnection bus, QObject *parent = nullptr);

    State state() const { return m_state; }
    ServerInfo serverInfo() const { return m_info; }
    QStringList capabilities() const { return m_capabilities; }
    bool hasCapability(const QString &capability) const { return m_capabilities.contains(capability); }

    // Notify; done gets the server's id, or the error of a call that failed (done is called from
    // the event loop, once).
    void notify(const Message &message, NotifyDone done);
    // CloseNotification (for one of our ids); fire and forget.
    void close(uint id);

    // Escapes &, < and > for a server that reads markup in bodies.
    static QString escapeMarkup(const QString &text);

Q_SIGNALS:
    // The state, the server information or the capabilities changed (a new server, or none).
    void serverChanged();
    void actionInvoked(uint id, const QString &actionKey);
    void notificationClosed(uint id, uint reason);
    void notificationReplied(uint id, const QString &text);

private Q_SLOTS:
    // Receivers of the server's D-Bus signals (QDBusConnection::connect takes only SLOT() names).
    void onActionInvoked(uint id, const QString &actionKey);
    void onNotificationClosed(uint id, uint reason);
    void onNotificationReplied(uint id, const QString &text);

private:
    void probe();
    void setState(State state);
    QDBusMessage call(const QString &method) const;

    QDBusConnection m_bus;
    QDBusServiceWatcher *m_watcher = nullptr;
    State m_state = State::Probing;
    ServerInfo m_info;
    QStringList m_capabilities;
    quint64 m_probe = 0; // answers of an older probe are dropped
    QSet<uint> m_ours; // ids we created and that were not closed
};

} // namespace App
