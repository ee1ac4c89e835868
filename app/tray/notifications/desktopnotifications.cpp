#include "app/tray/notifications/desktopnotifications.h"

#include "app/tray/notifications/notificationlogging.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>

#include <memory>

namespace App {

namespace {

const QString kInterface = QStringLiteral("org.freedesktop.Notifications");

} // namespace

DesktopNotifications::DesktopNotifications(QDBusConnection bus, QObject *parent)
    : QObject(parent), m_bus(std::move(bus))
{
    if (!m_bus.isConnected()) {
        qCInfo(lcNotify) << "no D-Bus session bus: desktop notifications go through the tray";
        m_state = State::Unavailable;
        return;
    }
    const QString service = QLatin1String(Service);
    const QString path = QLatin1String(Path);
    m_watcher = new QDBusServiceWatcher(service, m_bus, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(m_watcher, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString &, const QString &, const QString &newOwner) {
                m_ours.clear(); // a new server knows none of our ids
                if (newOwner.isEmpty()) {
                    qCInfo(lcNotify) << "the notification server left the bus";
                    m_capabilities.clear();
                    m_info = {};
                    setState(State::Unavailable);
                } else {
                    qCInfo(lcNotify) << "a notification server took the name:" << newOwner;
                    probe();
                }
            });
    // Bound to the name, not to one owner: QtDBus follows the owner.
    m_bus.connect(service, path, kInterface, QStringLiteral("ActionInvoked"), this,
                  SLOT(onActionInvoked(uint, QString)));
    m_bus.connect(service, path, kInterface, QStringLiteral("NotificationClosed"), this,
                  SLOT(onNotificationClosed(uint, uint)));
    m_bus.connect(service, path, kInterface, QStringLiteral("NotificationReplied"), this,
                  SLOT(onNotificationReplied(uint, QString)));
    probe();
}

QDBusMessage DesktopNotifications::call(const QString &method) const
{
    return QDBusMessage::createMethodCall(QLatin1String(Service), QLatin1String(Path), kInterface, method);
}

void DesktopNotifications::probe()
{
    const quint64 probe = ++m_probe;
    setState(State::Probing);
    // Both answers are needed; the first failure decides.
    auto info = std::make_shared<std::optional<ServerInfo>>();
    auto caps = std::make_shared<std::optional<QStringList>>();
    const auto finish = [this, probe, info, caps](const QString &error) {
        if (probe != m_probe || m_state != State::Probing)
            return;
        if (!error.isEmpty()) {
            qCInfo(lcNotify).noquote() << "no notification server answers:" << error;
            m_capabilities.clear();
            m_info = {};
            setState(State::Unavailable);
            return;
        }
        if (!*info || !*caps)
            return;
        m_info = **info;
        m_capabilities = **caps;
        qCInfo(lcNotify).noquote() << "notification server" << m_info.name << m_info.version << "spec"
                                   << m_info.specVersion << "capabilities:" << m_capabilities.join(u' ');
        setState(State::Available);
    };

    auto *infoWatcher = new QDBusPendingCallWatcher(
        m_bus.asyncCall(call(QStringLiteral("GetServerInformation")), CallTimeoutMs), this);
    connect(infoWatcher, &QDBusPendingCallWatcher::finished, this,
            [info, finish](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                const QDBusPendingReply<QString, QString, QString, QString> reply = *w;
                if (reply.isError())
                    return finish(reply.error().message().isEmpty() ? reply.error().name()
                                                                    : reply.error().message());
                *info = ServerInfo {reply.argumentAt<0>(), reply.argumentAt<1>(), reply.argumentAt<2>(),
                                    reply.argumentAt<3>()};
                finish({});
            });
    auto *capsWatcher = new QDBusPendingCallWatcher(
        m_bus.asyncCall(call(QStringLiteral("GetCapabilities")), CallTimeoutMs), this);
    connect(capsWatcher, &QDBusPendingCallWatcher::finished, this,
            [caps, finish](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                const QDBusPendingReply<QStringList> reply = *w;
                if (reply.isError())
                    return finish(reply.error().message().isEmpty() ? reply.error().name()
                                                                    : reply.error().message());
                *caps = reply.value();
                finish({});
            });
}

void DesktopNotifications::setState(State state)
{
    m_state = state;
    Q_EMIT serverChanged();
}

void DesktopNotifications::notify(const Message &message, NotifyDone done)
{
    if (m_state != State::Available) {
        QMetaObject::invokeMethod(
            this,
            [done = std::move(done)] {
                done(Broker::fail(Broker::ErrorKind::Unreachable,
                                  QStringLiteral("No desktop notification server is running.")));
            },
            Qt::QueuedConnection);
        return;
    }
    QDBusMessage m = call(QStringLiteral("Notify"));
    m << message.appName << message.replacesId << message.appIcon << message.summary << message.body
      << message.actions << message.hints << qint32(message.expireTimeoutMs);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(m, CallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, done = std::move(done)](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                const QDBusPendingReply<uint> reply = *w;
                if (reply.isError()) {
                    qCWarning(lcNotify).noquote()
                        << "Notify failed:" << reply.error().name() << reply.error().message();
                    return done(
                        Broker::fail(Broker::ErrorKind::Unreachable,
                                     QStringLiteral("The notification server refused the notification "
                                                    "(%1).")
                                         .arg(reply.error().message())));
                }
                m_ours.insert(reply.value());
                done(reply.value());
            });
}

void DesktopNotifications::close(uint id)
{
    if (!m_ours.contains(id) || m_state != State::Available)
        return;
    QDBusMessage m = call(QStringLiteral("CloseNotification"));
    m << id;
    m_bus.asyncCall(m, CallTimeoutMs); // its answer says nothing we need; NotificationClosed follows
}

QString DesktopNotifications::escapeMarkup(const QString &text)
{
    return text.toHtmlEscaped();
}

void DesktopNotifications::onActionInvoked(uint id, const QString &actionKey)
{
    if (m_ours.contains(id))
        Q_EMIT actionInvoked(id, actionKey);
}

void DesktopNotifications::onNotificationClosed(uint id, uint reason)
{
    if (m_ours.remove(id))
        Q_EMIT notificationClosed(id, reason);
}

void DesktopNotifications::onNotificationReplied(uint id, const QString &text)
{
    if (m_ours.contains(id))
        Q_EMIT notificationReplied(id, text);
}

} // namespace App
