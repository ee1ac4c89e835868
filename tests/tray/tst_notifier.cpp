// The notifier against a real D-Bus: our org.freedesktop.Notifications client talks to a fake
// notification server on a private dbus-daemon (no service activation). Capabilities are
// respected (no actions without "actions", markup escaped only for a server that reads markup),
// Open / Mute / Reply round-trip through the server's signals, one notification per peer
// (replaces_id), preferences suppress before anything reaches the bus, the tray and the list take
// over where no server owns the name, and a new server owner is asked for its capabilities again.
#include "app/tray/notifications/desktopnotifications.h"
#include "app/tray/notifications/notifier.h"
#include "tests/support/privatebus.h"
#include "tests/support/testsupport.h"
#include "tests/tray/fakenotificationserver.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using App::DesktopNotifications;
using App::NotificationEvent;
using App::NotificationKind;
using App::NotificationListModel;
using App::Notifier;
using App::Suppression;
using TestSupport::scaled;

namespace {

const QStringList kFullCapabilities {u"actions"_s, u"body"_s, u"body-markup"_s, u"inline-reply"_s,
                                     u"persistence"_s};

NotificationEvent needsYou(const QString &peerId, const QString &body = u"Allow Bash?"_s)
{
    return {NotificationKind::NeedsYou, peerId, peerId + u"-name"_s, peerId + u"-name needs you"_s, body};
}

} // namespace

class tst_Notifier : public QObject
{
    Q_OBJECT

    PrivateBus *m_bus = nullptr;
    int m_connection = 0; // each connection has a name of its own, across the tests
    QStringList m_connections; // this test's, closed in cleanup()

    QDBusConnection connect(const QString &name)
    {
        m_connections << name;
        return QDBusConnection::connectToBus(m_bus->address(), name);
    }
    QDBusConnection connection() { return connect(u"c%1"_s.arg(++m_connection)); }

    // A server on a connection of its own (so its leaving changes the name's owner).
    struct Server
    {
        QString connectionName;
        std::unique_ptr<FakeNotificationServer> object;
    };
    Server startServer(const QStringList &capabilities, const QString &name = u"fake-notifyd"_s)
    {
        Server s;
        s.connectionName = u"server%1"_s.arg(++m_connection);
        s.object = std::make_unique<FakeNotificationServer>(capabilities, name);
        [&] { QVERIFY(s.object->publish(connect(s.connectionName))); }();
        return s;
    }
    void stopServer(Server &s)
    {
        QDBusConnection::connectToBus(m_bus->address(), s.connectionName)
            .unregisterService(u"org.freedesktop.Notifications"_s);
        QDBusConnection::disconnectFromBus(s.connectionName);
        m_connections.removeAll(s.connectionName);
        s.object.reset();
    }

    struct Client
    {
        std::unique_ptr<DesktopNotifications> desktop;
        std::unique_ptr<Notifier> notifier;
    };
    Client startClient(const QString &configPath = {})
    {
        Client c;
        c.desktop = std::make_unique<DesktopNotifications>(connection());
        c.notifier =
            std::make_unique<Notifier>(c.desktop.get(), Notifier::Options {.configPath = configPath});
        c.notifier->setCanSendReplies(true);
        return c;
    }

    static bool settled(const DesktopNotifications &d)
    {
        return d.state() != DesktopNotifications::State::Probing;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!QStandardPaths::findExecutable(u"dbus-daemon"_s).isEmpty(),
                 "dbus-daemon is missing: run tools/install-deps.sh test");
    }

    void init()
    {
        m_bus = new PrivateBus;
        QVERIFY(m_bus->start());
    }

    void cleanup()
    {
        for (const QString &name : std::as_const(m_connections))
            QDBusConnection::disconnectFromBus(name);
        m_connections.clear();
        delete m_bus;
        m_bus = nullptr;
    }

    void readsInformationAndCapabilitiesOnce()
    {
        Server server = startServer(kFullCapabilities, u"notifyd-one"_s);
        Client c = startClient();
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->state(), DesktopNotifications::State::Available, scaled(5000));
        QCOMPARE(c.desktop->serverInfo().name, u"notifyd-one"_s);
        QCOMPARE(c.desktop->serverInfo().specVersion, u"1.2"_s);
        QCOMPARE(c.desktop->capabilities(), kFullCapabilities);

        c.notifier->notify(needsYou(u"p1"_s));
        c.notifier->notify(needsYou(u"p2"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 2, scaled(5000));
        QCOMPARE(server.object->capabilityCalls, 1);
        QCOMPARE(server.object->informationCalls, 1);

        const auto &n = server.object->received.at(0);
        QCOMPARE(n.appName, u"claude-peers"_s);
        QCOMPARE(n.appIcon, u"claude-peers"_s);
        QCOMPARE(n.summary, u"p1-name needs you"_s);
        QCOMPARE(n.replacesId, 0u);
        QCOMPARE(n.expireTimeout, -1);
        QCOMPARE(n.hints.value(u"desktop-entry"_s).toString(), u"claude-peers-tray"_s);
        QCOMPARE(n.hints.value(u"urgency"_s).toInt(), 2);
        QCOMPARE(n.hints.value(u"urgency"_s).metaType(), QMetaType::fromType<uchar>()); // a D-Bus byte
        QCOMPARE(n.hints.value(u"category"_s).toString(), u"im"_s);
        QCOMPARE(n.actions,
                 (QStringList {u"default"_s, u"Open"_s, u"open"_s, u"Open"_s, u"inline-reply"_s, u"Reply"_s,
                               u"mute"_s, u"Mute peer"_s}));
        QCOMPARE(c.notifier->list()->rowCount(), 2);
        QTRY_COMPARE(c.notifier->list()
                         ->data(c.notifier->list()->index(0), NotificationListModel::DeliveryRole)
                         .value<NotificationListModel::Delivery>(),
                     NotificationListModel::Delivery::Desktop);
    }

    // Without "actions" no action is sent; without "body-markup" the body goes as is, with it
    // the body is escaped (our text is plain, a markup server would read "<b>" as bold).
    void respectsCapabilities()
    {
        const QString body = u"use <b>care</b> & \"quotes\""_s;
        {
            Server server = startServer({u"body"_s});
            Client c = startClient();
            QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
            QVERIFY(!c.desktop->hasCapability(u"actions"_s));
            c.notifier->notify(needsYou(u"p1"_s, body));
            QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
            QVERIFY(server.object->received.at(0).actions.isEmpty());
            QCOMPARE(server.object->received.at(0).body, body);
            stopServer(server);
        }
        {
            Server server = startServer({u"actions"_s, u"body"_s, u"body-markup"_s});
            Client c = startClient();
            QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
            c.notifier->notify(needsYou(u"p1"_s, body));
            QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
            QCOMPARE(server.object->received.at(0).body,
                     u"use &lt;b&gt;care&lt;/b&gt; &amp; &quot;quotes&quot;"_s);
            // Without "inline-reply", Reply is an ordinary action (it opens the window on the peer).
            QVERIFY(server.object->received.at(0).actions.contains(u"reply"_s));
            QVERIFY(!server.object->received.at(0).actions.contains(u"inline-reply"_s));
            // An event about no peer has only the default action (open the window).
            c.notifier->notify(
                {NotificationKind::FederationWarning, {}, {}, u"claude-peers: federation"_s, u"w"_s});
            QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 2, scaled(5000));
            QCOMPARE(server.object->received.at(1).actions, (QStringList {u"default"_s, u"Open"_s}));
        }
    }

    void samePeerReplacesItsNotification()
    {
        Server server = startServer(kFullCapabilities);
        Client c = startClient();
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
        c.notifier->notify(needsYou(u"p1"_s, u"first"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
        c.notifier->notify(needsYou(u"p1"_s, u"second"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 2, scaled(5000));
        c.notifier->notify(needsYou(u"p2"_s, u"other"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 3, scaled(5000));
        const auto &r = server.object->received;
        QCOMPARE(r.at(1).replacesId, r.at(0).id);
        QCOMPARE(r.at(1).body, u"second"_s);
        QCOMPARE(r.at(2).replacesId, 0u);
        QVERIFY(r.at(2).id != r.at(0).id);

        // Closed by the user: the next one for p1 is new, not a replacement of a gone bubble.
        QSignalSpy opened(c.notifier.get(), &Notifier::openRequested);
        Q_EMIT server.object->NotificationClosed(r.at(0).id, 2);
        Q_EMIT server.object->ActionInvoked(r.at(2).id, u"default"_s); // a later signal to wait for
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, scaled(5000));
        c.notifier->notify(needsYou(u"p1"_s, u"third"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 4, scaled(5000));
        QCOMPARE(server.object->received.at(3).replacesId, 0u);
    }

    void openMuteAndReplyRoundTrips()
    {
        QTemporaryDir home;
        const QString config = home.filePath(u".claude-peers-config.json"_s);
        Server server = startServer(kFullCapabilities);
        Client c = startClient(config);
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
        QSignalSpy opened(c.notifier.get(), &Notifier::openRequested);
        QSignalSpy replied(c.notifier.get(), &Notifier::replyRequested);
        const quint64 e1 = c.notifier->notify(needsYou(u"p1"_s));
        const quint64 e2 = c.notifier->notify(needsYou(u"p2"_s));
        const quint64 e3 = c.notifier->notify(needsYou(u"p3"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 3, scaled(5000));
        const uint id1 = server.object->received.at(0).id;
        const uint id2 = server.object->received.at(1).id;
        const uint id3 = server.object->received.at(2).id;
        NotificationListModel *list = c.notifier->list();
        QCOMPARE(list->unreadCount(), 3);

        // Signals for ids that are not ours are ignored; ours, after them, are handled (the bus
        // keeps their order, so once ours arrived the foreign one was seen and dropped).
        Q_EMIT server.object->ActionInvoked(4242, u"open"_s);
        Q_EMIT server.object->NotificationReplied(4243, u"not for us"_s);
        Q_EMIT server.object->ActionInvoked(id1, u"open"_s);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, scaled(5000));
        QCOMPARE(opened.at(0).at(0).value<App::NotificationEvent>().peerId, u"p1"_s);
        QCOMPARE(replied.count(), 0);
        QCOMPARE(list->entry(e1)->action, NotificationListModel::Action::Opened);
        QVERIFY(list->entry(e1)->read);
        QCOMPARE(list->unreadCount(), 2);

        Q_EMIT server.object->NotificationReplied(id2, u"yes, go ahead"_s);
        QTRY_COMPARE_WITH_TIMEOUT(replied.count(), 1, scaled(5000));
        QCOMPARE(replied.at(0).at(0).toString(), u"p2"_s);
        QCOMPARE(replied.at(0).at(1).toString(), u"yes, go ahead"_s);
        QCOMPARE(replied.at(0).at(2).toLongLong(), 0); // not about a message
        QCOMPARE(list->entry(e2)->action, NotificationListModel::Action::Replied);

        QSignalSpy changed(c.notifier.get(), &Notifier::preferencesChanged);
        Q_EMIT server.object->ActionInvoked(id3, u"mute"_s);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, scaled(5000));
        QCOMPARE(list->entry(e3)->action, NotificationListModel::Action::Muted);
        const auto saved = App::NotificationPreferences::load(config);
        QVERIFY(saved);
        QCOMPARE(saved->mutedPeers, QStringList {u"p3"_s});
        // Muted: recorded, not sent (decided synchronously, before any D-Bus call).
        const quint64 e4 = c.notifier->notify(needsYou(u"p3"_s, u"again"_s));
        QCOMPARE(list->entry(e4)->delivery, NotificationListModel::Delivery::Suppressed);
        QCOMPARE(list->entry(e4)->suppression, Suppression::PeerMuted);
        c.notifier->notify(needsYou(u"p1"_s, u"after"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 4, scaled(5000));
        QCOMPARE(server.object->received.last().body, u"after"_s);
    }

    // A reply written in a message's notification answers that message (issue 30 #4).
    void inlineReplyAnswersTheMessage()
    {
        Server server = startServer(kFullCapabilities);
        Client c = startClient();
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
        QSignalSpy replied(c.notifier.get(), &Notifier::replyRequested);
        NotificationEvent message = needsYou(u"p9"_s, u"can you review?"_s);
        message.kind = NotificationKind::MessageReceived;
        message.messageId = 77;
        c.notifier->notify(message);
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
        Q_EMIT server.object->NotificationReplied(server.object->received.at(0).id, u"on it"_s);
        QTRY_COMPARE_WITH_TIMEOUT(replied.count(), 1, scaled(5000));
        QCOMPARE(replied.at(0).at(0).toString(), u"p9"_s);
        QCOMPARE(replied.at(0).at(1).toString(), u"on it"_s);
        QCOMPARE(replied.at(0).at(2).toLongLong(), 77);
    }

    void replyWithoutInlineReplyOpensThePeer()
    {
        Server server = startServer({u"actions"_s, u"body"_s});
        Client c = startClient();
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
        QSignalSpy opened(c.notifier.get(), &Notifier::openRequested);
        QSignalSpy replied(c.notifier.get(), &Notifier::replyRequested);
        c.notifier->notify(needsYou(u"p1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
        QVERIFY(server.object->received.at(0).actions.contains(u"reply"_s));
        Q_EMIT server.object->ActionInvoked(server.object->received.at(0).id, u"reply"_s);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, scaled(5000));
        QCOMPARE(opened.at(0).at(0).value<App::NotificationEvent>().peerId, u"p1"_s);
        QCOMPARE(replied.count(), 0);
    }

    // Quiet hours, a pause, a kind turned off: decided before anything reaches the bus; the
    // list has each one, with the reason. A notification sent afterwards is the first to arrive.
    void preferencesSuppressBeforeTheBus()
    {
        QTemporaryDir home;
        const QString config = home.filePath(u".claude-peers-config.json"_s);
        Server server = startServer(kFullCapabilities);
        Client c = startClient(config);
        QDateTime now(QDate(2026, 12, 1), QTime(23, 30)); // local time
        c.notifier->setClock([&now] { return now; });
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));

        App::NotificationPreferences p;
        p.quietHours = App::QuietHours {QTime(22, 0), QTime(7, 0)};
        QVERIFY(c.notifier->setPreferences(p));
        NotificationListModel *list = c.notifier->list();
        quint64 e = c.notifier->notify(needsYou(u"p1"_s));
        QCOMPARE(list->entry(e)->suppression, Suppression::QuietHours);

        now = QDateTime(QDate(2026, 12, 2), QTime(7, 0)); // quiet hours over
        QVERIFY(c.notifier->pause(now.addSecs(3600)));
        e = c.notifier->notify(needsYou(u"p1"_s));
        QCOMPARE(list->entry(e)->suppression, Suppression::Paused);
        e = c.notifier->notify({NotificationKind::PeerJoined, u"p9"_s, u"p9"_s, u"p9 joined"_s, {}});
        QCOMPARE(list->entry(e)->suppression, Suppression::Paused);

        now = now.addSecs(3600); // the pause is over by itself
        e = c.notifier->notify({NotificationKind::PeerJoined, u"p9"_s, u"p9"_s, u"p9 joined"_s, {}});
        QCOMPARE(list->entry(e)->suppression, Suppression::KindOff); // off by default
        e = c.notifier->notify(needsYou(u"p1"_s, u"through"_s));
        QCOMPARE(list->entry(e)->delivery, NotificationListModel::Delivery::ListOnly); // on its way
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
        QCOMPARE(server.object->received.at(0).body, u"through"_s);
        QCOMPARE(list->rowCount(), 5);
        QCOMPARE(list->unreadCount(), 5);
    }

    // A preference changed on disk (by `claude-peers notifications`) counts for the next one.
    void followsTheConfigFile()
    {
        QTemporaryDir home;
        const QString config = home.filePath(u".claude-peers-config.json"_s);
        Notifier notifier(nullptr, {.configPath = config});
        QCOMPARE(notifier.decide(needsYou(u"p1"_s)), Suppression::Shown);
        App::NotificationPreferences p;
        p.mute(u"p1"_s);
        QVERIFY(p.save(config));
        QCOMPARE(notifier.decide(needsYou(u"p1"_s)), Suppression::PeerMuted);
        p.enabled = false;
        QVERIFY(p.save(config));
        QCOMPARE(notifier.decide(needsYou(u"p2"_s)), Suppression::AllOff);
    }

    void fallsBackWhenNoServerOwnsTheName()
    {
        Client c = startClient();
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->state(), DesktopNotifications::State::Unavailable, scaled(5000));
        QSignalSpy tray(c.notifier.get(), &Notifier::trayMessageRequested);
        NotificationListModel *list = c.notifier->list();

        quint64 e = c.notifier->notify(needsYou(u"p1"_s)); // no tray: the list alone
        QCOMPARE(list->entry(e)->delivery, NotificationListModel::Delivery::ListOnly);
        QCOMPARE(tray.count(), 0);

        c.notifier->setTrayAvailable(true);
        e = c.notifier->notify(needsYou(u"p2"_s));
        QCOMPARE(list->entry(e)->delivery, NotificationListModel::Delivery::Tray);
        QCOMPARE(tray.count(), 1);
        QCOMPARE(tray.at(0).at(0).toString(), u"p2-name needs you"_s);
        // A click on the tray's message opens what it said.
        QSignalSpy opened(c.notifier.get(), &Notifier::openRequested);
        c.notifier->trayMessageClicked();
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).value<App::NotificationEvent>().peerId, u"p2"_s);
        QCOMPARE(list->entry(e)->action, NotificationListModel::Action::Opened);

        // No bus at all: the same.
        Notifier alone(nullptr, {});
        alone.setTrayAvailable(true);
        QSignalSpy aloneTray(&alone, &Notifier::trayMessageRequested);
        alone.notify(needsYou(u"p3"_s));
        QCOMPARE(aloneTray.count(), 1);
    }

    // A server that owns the name but refuses Notify: the tray and the list take over.
    void fallsBackWhenNotifyFails()
    {
        Server server = startServer(kFullCapabilities);
        server.object->refuseNotify = true;
        Client c = startClient();
        c.notifier->setTrayAvailable(true);
        QTRY_VERIFY_WITH_TIMEOUT(settled(*c.desktop), scaled(5000));
        QSignalSpy tray(c.notifier.get(), &Notifier::trayMessageRequested);
        const quint64 e = c.notifier->notify(needsYou(u"p1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(tray.count(), 1, scaled(5000));
        QCOMPARE(c.notifier->list()->entry(e)->delivery, NotificationListModel::Delivery::Tray);
        QVERIFY(server.object->received.isEmpty());
    }

    // A server that arrives later, and one that replaces another, are asked for their
    // capabilities; what waited for the answer is sent then.
    void newServerOwnerIsProbedAgain()
    {
        Client c = startClient();
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->state(), DesktopNotifications::State::Unavailable, scaled(5000));

        Server first = startServer({u"body"_s}, u"first"_s);
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->serverInfo().name, u"first"_s, scaled(5000));
        QCOMPARE(c.desktop->state(), DesktopNotifications::State::Available);
        c.notifier->notify(needsYou(u"p1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(first.object->received.size(), 1, scaled(5000));
        QVERIFY(first.object->received.at(0).actions.isEmpty());

        stopServer(first);
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->state(), DesktopNotifications::State::Unavailable, scaled(5000));
        Server second = startServer(kFullCapabilities, u"second"_s);
        QTRY_COMPARE_WITH_TIMEOUT(c.desktop->serverInfo().name, u"second"_s, scaled(5000));
        QCOMPARE(c.desktop->capabilities(), kFullCapabilities);
        QCOMPARE(second.object->capabilityCalls, 1);
        c.notifier->notify(needsYou(u"p1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(second.object->received.size(), 1, scaled(5000));
        QVERIFY(second.object->received.at(0).actions.contains(u"mute"_s));
        // The old server's id means nothing to the new one: not a replacement.
        QCOMPARE(second.object->received.at(0).replacesId, 0u);
    }

    // While the capabilities are being read, a notification waits for them instead of going out
    // without actions.
    void notificationWaitsForTheProbe()
    {
        Server server = startServer(kFullCapabilities);
        Client c = startClient();
        QCOMPARE(c.desktop->state(), DesktopNotifications::State::Probing);
        c.notifier->notify(needsYou(u"p1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(server.object->received.size(), 1, scaled(5000));
        QVERIFY(server.object->received.at(0).actions.contains(u"open"_s));
    }
};

QTEST_GUILESS_MAIN(tst_Notifier)
#include "tst_notifier.moc"
