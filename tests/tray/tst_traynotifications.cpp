// The tray's notifications end to end, in process: a real broker hosted by TrayComposition, a
// session registered over HTTP that starts needing you, and a fake notification server on a
// private D-Bus session bus. The server gets the notification with Open / Reply / Mute peer; the
// operator's inline reply reaches the peer as a message from "operator"; Open shows the peer,
// Mute peer mutes it in the config file; "Pause notifications" in the tray menu pauses them.
#include "app/tray/brokerhost.h"
#include "app/tray/mainwindow.h"
#include "app/tray/notifications/notifier.h"
#include "app/tray/operatorpeer.h"
#include "app/tray/pages/messagespage.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traycomposition.h"
#include "app/tray/trayicon.h"
#include "app/tray/traypresenter.h"
#include "tests/support/privatebus.h"
#include "tests/support/testsupport.h"
#include "tests/tray/fakenotificationserver.h"
#include "tests/tray/traytestsupport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;
using App::BrokerHost;
using App::Notifier;
using App::TrayComposition;
using TestSupport::scaled;
using TrayTestSupport::registration;
using TrayTestSupport::settingsFor;

class tst_TrayNotifications : public QObject
{
    Q_OBJECT

    PrivateBus m_bus;
    std::unique_ptr<FakeNotificationServer> m_server;

    // The broker running, the operator peer online (messages reach it, replies go out as it), the
    // fake notification server answering.
    static void startWithNotifications(TrayComposition &composition)
    {
        composition.host()->start();
        QTRY_COMPARE_WITH_TIMEOUT(composition.host()->state(), BrokerHost::State::Running, scaled(5000));
        composition.operatorPeer()->start();
        QTRY_COMPARE_WITH_TIMEOUT(composition.operatorPeer()->state(), App::OperatorPeer::State::Online,
                                  scaled(5000));
        QTRY_COMPARE_WITH_TIMEOUT(composition.notifier()->desktop()->state(),
                                  App::DesktopNotifications::State::Available, scaled(5000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_server = startServerOnPrivateSessionBus(m_bus);
        QVERIFY2(m_server,
                 "no private bus with the fake notification server: is dbus-daemon installed "
                 "(tools/install-deps.sh test)?");
    }

    // What the test before still had on its way to the server lands before this one counts.
    void init()
    {
        QVERIFY2(sessionBusDelivered(scaled(5000)), "the fake notification server does not answer");
    }

    void needsYouNotificationAndItsActions()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        BrokerHost *host = composition.host();
        startWithNotifications(composition);
        if (QTest::currentTestFailed())
            return;

        const QByteArray token = home.token();
        // A live pid that is not ours: the operator peer is registered with this process's pid.
        const auto reg = TestSupport::httpPostJson(home.port(), u"/register"_s,
                                                   registration(::getppid(), u"/work/alpha"_s), token);
        QCOMPARE(reg.status, 200);
        const QString peer = reg.object().value(u"id"_s).toString();
        QCOMPARE(TestSupport::httpPostJson(home.port(), u"/set-attention"_s,
                                           {{u"id"_s, peer},
                                            {u"state"_s, u"needs-you"_s},
                                            {u"message"_s, u"Claude needs your permission to use Bash"_s}},
                                           token)
                     .status,
                 200);

        // Broker → snapshot → presenter → notifier → D-Bus.
        QTRY_COMPARE_WITH_TIMEOUT(m_server->received.size(), 1, scaled(10000));
        const FakeNotificationServer::Received n = m_server->received.at(0);
        QVERIFY2(n.summary.endsWith(u" needs you"_s), qPrintable(n.summary));
        QCOMPARE(n.body, u"Claude needs your permission to use Bash"_s);
        QVERIFY(n.actions.contains(u"inline-reply"_s));
        QVERIFY(n.actions.contains(u"mute"_s));
        QCOMPARE(composition.notifier()->list()->rowCount(), 1);

        // Reply: the text reaches the peer, from the operator.
        Q_EMIT m_server->NotificationReplied(n.id, u"yes, run it"_s);
        QJsonArray messages;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto polled =
                    TestSupport::httpPostJson(home.port(), u"/poll-messages"_s, {{u"id"_s, peer}}, token);
                messages = polled.object().value(u"messages"_s).toArray();
                return !messages.isEmpty();
            }(),
            scaled(5000));
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value(u"text"_s).toString(), u"yes, run it"_s);
        QCOMPARE(messages.at(0).toObject().value(u"from_id"_s).toString(), u"operator"_s);

        // Open: the window shows the peer (its page; PeersPage::selectPeer selects the row).
        QVERIFY(!composition.mainWindow()->isVisible());
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_VERIFY_WITH_TIMEOUT(composition.mainWindow()->isVisible(), scaled(5000));
        QCOMPARE(composition.mainWindow()->currentPageId(), u"peers"_s);

        // Mute peer: written to the config file the CLI reads.
        Q_EMIT m_server->ActionInvoked(n.id, u"mute"_s);
        QTRY_VERIFY_WITH_TIMEOUT(App::NotificationPreferences::load(home.configPath())->isMuted(peer),
                                 scaled(5000));
        QCOMPARE(composition.notifier()->decide({App::NotificationKind::NeedsYou, peer, {}, {}, {}}),
                 App::Suppression::PeerMuted);
        host->stop();
    }

    // A session writes to the operator: the notification names it and quotes the text; Open
    // shows the operator's thread with that session on the Messages page; Reply answers it.
    void messageToTheOperatorIsNotifiedAndOpensItsThread()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        BrokerHost *host = composition.host();
        startWithNotifications(composition);
        if (QTest::currentTestFailed())
            return;
        const int before = int(m_server->received.size());
        // The in-app list also keeps what was suppressed (a peer joining): count the messages.
        const auto messageRows = [&] {
            const QAbstractItemModel *list = composition.notifier()->list();
            int rows = 0;
            for (int row = 0; row < list->rowCount(); ++row)
                rows += list->index(row, 0).data(App::NotificationListModel::KindRole).toInt() ==
                    int(App::NotificationKind::MessageReceived);
            return rows;
        };

        const QByteArray token = home.token();
        const auto reg = TestSupport::httpPostJson(home.port(), u"/register"_s,
                                                   registration(::getppid(), u"/work/beta"_s), token);
        QCOMPARE(reg.status, 200);
        const QString peer = reg.object().value(u"id"_s).toString();
        QCOMPARE(TestSupport::httpPostJson(home.port(), u"/set-name"_s,
                                           {{u"id"_s, peer}, {u"session_name"_s, u"reviewer"_s}}, token)
                     .status,
                 200);
        // The name is known to the tray's peers model before the message (it names the sender).
        QTRY_VERIFY_WITH_TIMEOUT(
            composition.peersModel()->rowOf(peer) >= 0 &&
                composition.peersModel()->peerAt(composition.peersModel()->rowOf(peer)).sessionName ==
                    u"reviewer"_s,
            scaled(5000));
        const QString text = u"The review is done: two findings in api.cpp. "_s + QString(300, u'x');
        const auto sent = TestSupport::httpPostJson(
            home.port(), u"/send-message"_s,
            {{u"from_id"_s, peer}, {u"to_id"_s, u"operator"_s}, {u"text"_s, text}}, token);
        QCOMPARE(sent.status, 200);

        QTRY_VERIFY_WITH_TIMEOUT(m_server->received.size() > before, scaled(10000));
        const FakeNotificationServer::Received n = m_server->received.last();
        QCOMPARE(n.summary, u"reviewer wrote to you"_s);
        QVERIFY2(n.body.startsWith(u"The review is done: two findings in api.cpp."_s), qPrintable(n.body));
        QCOMPARE(n.body.size(), 200); // a quote, not the whole text
        QVERIFY(n.actions.contains(u"inline-reply"_s));
        QCOMPARE(messageRows(), 1);

        QVERIFY(!composition.mainWindow()->isVisible());
        Q_EMIT m_server->ActionInvoked(n.id, u"open"_s);
        QTRY_VERIFY_WITH_TIMEOUT(composition.mainWindow()->isVisible(), scaled(5000));
        QCOMPARE(composition.mainWindow()->currentPageId(), u"messages"_s);
        QVERIFY2(composition.messagesPage()->targetCombo()->currentData().toString().contains(peer),
                 qPrintable(composition.messagesPage()->targetCombo()->currentData().toString()));

        // The session's second message is a second notification: each message is told once.
        const auto ping = TestSupport::httpPostJson(
            home.port(), u"/send-message"_s,
            {{u"from_id"_s, peer}, {u"to_id"_s, u"operator"_s}, {u"text"_s, u"ping"_s}}, token);
        QCOMPARE(ping.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(messageRows(), 2, scaled(10000));
        QTest::qWait(scaled(1500)); // long enough for a second delivery of either message to show
        QCOMPARE(messageRows(), 2);

        // An inline reply in the notification answers the message it shows: the second one now
        // (a peer's notification is replaced by its newest message) (issue 30 #4).
        const qint64 pingId = ping.object().value(u"message_id"_s).toInteger();
        QVERIFY(pingId > 0);
        QCOMPARE(m_server->received.last().body, u"ping"_s);
        Q_EMIT m_server->NotificationReplied(m_server->received.last().id, u"thanks, fixing them"_s);
        QJsonObject reply;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto polled =
                    TestSupport::httpPostJson(home.port(), u"/poll-messages"_s, {{u"id"_s, peer}}, token);
                for (const QJsonValue &m : polled.object().value(u"messages"_s).toArray()) {
                    if (m.toObject().value(u"text"_s) == u"thanks, fixing them"_s)
                        reply = m.toObject();
                }
                return !reply.isEmpty();
            }(),
            scaled(5000));
        QCOMPARE(reply.value(u"from_id"_s).toString(), u"operator"_s);
        QCOMPARE(reply.value(u"reply_to"_s).toInteger(), pingId);
        QCOMPARE(reply.value(u"type"_s).toString(), u"response"_s);
        host->stop();
    }

    // "Pause notifications" in the tray menu: its entries ask to pause (for a time or until
    // resumed) and to resume, the menu shows the pause; the notifier keeps it in the config file.
    // Offscreen has no system tray, so the composition creates no TrayIcon: the menu and the
    // notifier are driven one after the other here (their wiring is traycomposition.cpp's start()).
    void pauseMenuPausesAndResumes()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        App::TrayIcon tray(composition.presenter());
        QSignalSpy pause(&tray, &App::TrayIcon::pauseRequested);
        QSignalSpy resume(&tray, &App::TrayIcon::resumeRequested);
        QMenu *menu = tray.pauseMenu();
        QCOMPARE(menu->title(), u"Pause notifications"_s);
        const QList<QAction *> actions = menu->actions();
        QCOMPARE(actions.size(), 4);
        QVERIFY(!actions.last()->isVisible()); // "Resume notifications" only while paused
        actions.at(0)->trigger();
        QCOMPARE(pause.count(), 1);
        QCOMPARE(pause.at(0).at(0).toLongLong(), 3600);
        actions.at(2)->trigger();
        QCOMPARE(pause.at(1).at(0).toLongLong(), 0);

        tray.setNotificationsPaused(true);
        QCOMPARE(menu->title(), u"Notifications paused"_s);
        QVERIFY(actions.last()->isVisible());
        QVERIFY(!actions.first()->isVisible());
        actions.last()->trigger();
        QCOMPARE(resume.count(), 1);
        tray.setNotificationsPaused(true, QDateTime::currentDateTimeUtc().addSecs(3600));
        QVERIFY(menu->title().startsWith(u"Notifications paused until "_s));
        tray.setNotificationsPaused(false);
        QCOMPARE(menu->title(), u"Pause notifications"_s);

        // The notifier side of the same requests, on the same config file.
        Notifier *notifier = composition.notifier();
        QVERIFY(notifier->pause(QDateTime::currentDateTimeUtc().addSecs(3600)));
        QVERIFY(
            App::NotificationPreferences::load(home.configPath())->isPaused(QDateTime::currentDateTimeUtc()));
        QCOMPARE(notifier->decide({App::NotificationKind::NeedsYou, u"p"_s, {}, {}, {}}),
                 App::Suppression::Paused);
        QVERIFY(notifier->resume());
        QCOMPARE(notifier->decide({App::NotificationKind::NeedsYou, u"p"_s, {}, {}, {}}),
                 App::Suppression::Shown);
    }

    // What init() relies on: calls already sent on the session bus have all reached the server
    // when sessionBusDelivered() returns, with no waiting after it.
    void sessionBusDeliveredWaitsForTheCallsSentBefore()
    {
        const qsizetype before = m_server->received.size();
        constexpr int sent = 20;
        for (int i = 0; i < sent; ++i) {
            QDBusMessage notify = QDBusMessage::createMethodCall(
                u"org.freedesktop.Notifications"_s, u"/org/freedesktop/Notifications"_s,
                u"org.freedesktop.Notifications"_s, u"Notify"_s);
            notify << u"test"_s << 0u << QString() << u"call %1"_s.arg(i) << QString() << QStringList()
                   << QVariantMap() << -1;
            QDBusConnection::sessionBus().asyncCall(notify);
        }
        QVERIFY(sessionBusDelivered(scaled(5000)));
        QCOMPARE(m_server->received.size(), before + sent);
        QCOMPARE(m_server->received.last().summary, u"call %1"_s.arg(sent - 1));
    }
};

QTEST_MAIN(tst_TrayNotifications)
#include "tst_traynotifications.moc"
