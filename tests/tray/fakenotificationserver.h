#pragma once

#include "tests/support/privatebus.h"

#include <QDBusConnection>
#include <QDBusContext>
#include <QDBusMessage>
#include <QDBusPendingCall>
#include <QObject>
#include <QStandardPaths>
#include <QStringList>
#include <QTest>
#include <QVariantMap>

#include <memory>

// A notification server as the Desktop Notifications Specification 1.2 describes it, exported on
// a test's private bus under org.freedesktop.Notifications: it records what it was asked and emits
// the specification's signals when the test says so.
class FakeNotificationServer : public QObject, protected QDBusContext
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Received
    {
        uint id = 0;
        QString appName;
        uint replacesId = 0;
        QString appIcon;
        QString summary;
        QString body;
        QStringList actions;
        QVariantMap hints;
        int expireTimeout = 0;
    };

    FakeNotificationServer(QStringList capabilities, QString name = QStringLiteral("fake-notifyd"))
        : m_capabilities(std::move(capabilities)), m_name(std::move(name))
    {
    }

    // Exports the object and takes the name on bus; false when either fails.
    bool publish(QDBusConnection bus)
    {
        return bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), this,
                                  QDBusConnection::ExportAllSlots | QDBusConnection::ExportAllSignals) &&
            bus.registerService(QStringLiteral("org.freedesktop.Notifications"));
    }

    QList<Received> received;
    QList<uint> closed;
    int capabilityCalls = 0;
    int informationCalls = 0;
    uint nextId = 100;
    bool refuseNotify = false; // Notify answers an error (a server that is shutting down, …)

public Q_SLOTS:
    QStringList GetCapabilities()
    {
        ++capabilityCalls;
        return m_capabilities;
    }

    QString GetServerInformation(QString &vendor, QString &version, QString &specVersion)
    {
        ++informationCalls;
        vendor = QStringLiteral("claude-peers tests");
        version = QStringLiteral("1.0");
        specVersion = QStringLiteral("1.2");
        return m_name;
    }

    uint Notify(const QString &appName, uint replacesId, const QString &appIcon, const QString &summary,
                const QString &body, const QStringList &actions, const QVariantMap &hints, int expireTimeout)
    {
        if (refuseNotify) {
            sendErrorReply(QDBusError::Failed, QStringLiteral("not now"));
            return 0;
        }
        const uint id = replacesId != 0 ? replacesId : nextId++;
        received.append({id, appName, replacesId, appIcon, summary, body, actions, hints, expireTimeout});
        return id;
    }

    void CloseNotification(uint id)
    {
        closed << id;
        Q_EMIT NotificationClosed(id, 3);
    }

Q_SIGNALS:
    void ActionInvoked(uint id, const QString &actionKey);
    void NotificationClosed(uint id, uint reason);
    void NotificationReplied(uint id, const QString &text);

private:
    QStringList m_capabilities;
    QString m_name;
};

// What an end-to-end tray test needs: a private bus made the process's session bus (the
// composition notifies there; set before anything opens it) and on it a server that offers
// actions, a body and inline replies. Null when dbus-daemon is missing or the server cannot
// register (the test fails with that).
inline std::unique_ptr<FakeNotificationServer> startServerOnPrivateSessionBus(PrivateBus &bus)
{
    if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty() || !bus.start())
        return nullptr;
    qputenv("DBUS_SESSION_BUS_ADDRESS", bus.address().toUtf8());
    auto server = std::make_unique<FakeNotificationServer>(
        QStringList {QStringLiteral("actions"), QStringLiteral("body"), QStringLiteral("inline-reply")},
        QStringLiteral("fake"));
    if (!server->publish(QDBusConnection::connectToBus(bus.address(), QStringLiteral("server"))))
        return nullptr;
    return server;
}

// Waits until every call this process made on its session bus so far has reached the server: a
// call sent after them on the same connection is answered after them (D-Bus keeps a connection's
// order, and Qt runs the server's calls in the order they came). A finished test's notification
// still on its way thus lands before the next test clears the record, not in it. Counts as one
// GetCapabilities call.
inline bool sessionBusDelivered(int timeoutMs)
{
    const QDBusPendingCall call = QDBusConnection::sessionBus().asyncCall(QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("GetCapabilities")));
    return QTest::qWaitFor([&call] { return call.isFinished(); }, timeoutMs) && !call.isError();
}
