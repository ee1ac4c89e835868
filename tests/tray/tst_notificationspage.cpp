// The Notifications page offscreen: the in-app list as the user reads it (time, text, why one did
// not pop up, unread in bold), activating a row opens it, "Mute peer" mutes the selected one's
// peer in the config file, "Mark all read"; the status line says a pause or quiet hours.
#include "app/tray/notifications/notifier.h"
#include "app/tray/pages/notificationspage.h"

#include <QFont>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using App::NotificationKind;
using App::Notifier;

class tst_NotificationsPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsActsAndMutes()
    {
        QTemporaryDir home;
        const QString config = home.filePath(u".claude-peers-config.json"_s);
        Notifier notifier(nullptr, {.configPath = config}); // no bus: the list alone
        App::NotificationPreferences p;
        p.mute(u"p2"_s);
        QVERIFY(notifier.setPreferences(p));
        notifier.notify(
            {NotificationKind::NeedsYou, u"p1"_s, u"alpha"_s, u"alpha needs you"_s, u"Allow Bash?"_s});
        notifier.notify({NotificationKind::NeedsYou, u"p2"_s, u"beta"_s, u"beta needs you"_s, {}});

        App::NotificationsPage page(&notifier);
        page.show();
        QListView *view = page.view();
        QCOMPARE(view->model()->rowCount(), 2);
        const QModelIndex beta = view->model()->index(0, 0);
        const QModelIndex alpha = view->model()->index(1, 0);
        QVERIFY2(alpha.data().toString().endsWith(u"alpha needs you — Allow Bash?"_s),
                 qPrintable(alpha.data().toString()));
        QVERIFY2(beta.data().toString().endsWith(u"beta needs you  (not shown: peer muted)"_s),
                 qPrintable(beta.data().toString()));
        QVERIFY(alpha.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(page.statusLabel()->text().contains(u"Muted peers: p2."_s));
        QVERIFY(page.markAllReadButton()->isEnabled());

        // Selecting reads it; the peer can be muted from here; activating opens it.
        view->setCurrentIndex(alpha);
        QVERIFY(!alpha.data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(notifier.list()->unreadCount(), 1);
        QVERIFY(page.muteButton()->isEnabled());
        QSignalSpy opened(&notifier, &Notifier::openRequested);
        Q_EMIT view->activated(alpha);
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.at(0).at(0).value<App::NotificationEvent>().peerId, u"p1"_s);
        page.muteButton()->click();
        QVERIFY(App::NotificationPreferences::load(config)->isMuted(u"p1"_s));
        QVERIFY(!page.muteButton()->isEnabled()); // already muted
        QVERIFY(page.statusLabel()->text().contains(u"Muted peers: p1, p2."_s));

        page.markAllReadButton()->click();
        QCOMPARE(notifier.list()->unreadCount(), 0);
        QVERIFY(!page.markAllReadButton()->isEnabled());

        QVERIFY(notifier.pause());
        QVERIFY(page.statusLabel()->text().startsWith(u"Notifications are paused until you resume them"_s));
    }
};

QTEST_MAIN(tst_NotificationsPage)
#include "tst_notificationspage.moc"
