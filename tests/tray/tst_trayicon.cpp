// TrayIcon adapter and icons, offscreen: the menu mirrors the presenter and emits requests.
#include "brokerhost.h"
#include "testsupport.h"
#include "trayicon.h"
#include "trayicons.h"
#include "traypresenter.h"
#include "traytestsupport.h"

#include <QAction>
#include <QImageReader>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

using App::BrokerHost;
using App::TrayIcon;
using App::TrayPresenter;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

namespace {

QAction *action(QMenu *menu, const QString &text)
{
    for (QAction *a : menu->actions()) {
        if (a->text() == text)
            return a;
    }
    return nullptr;
}

} // namespace

class tst_TrayIcon : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void iconsExistForEveryState()
    {
        for (auto state : {TrayPresenter::IconState::NeedsYou, TrayPresenter::IconState::Error,
                           TrayPresenter::IconState::Busy, TrayPresenter::IconState::Unread,
                           TrayPresenter::IconState::Idle}) {
            const QIcon icon = App::stateIcon(state);
            QVERIFY(!icon.isNull());
            QVERIFY(!icon.pixmap(16, 16).isNull());
            QVERIFY(!icon.pixmap(64, 64).isNull());
        }
        QVERIFY(!App::applicationIcon().pixmap(48, 48).isNull());
        // Running and stopped must look different.
        QVERIFY(App::stateIcon(TrayPresenter::IconState::Idle).pixmap(32, 32).toImage() !=
                App::stateIcon(TrayPresenter::IconState::Error).pixmap(32, 32).toImage());
    }

    // The SVGs themselves (not the painted fallback): one per tray state (no two alike) and
    // the application icon (the idle state's picture), each readable by Qt's SVG plugin.
    void svgIconsLoadForEveryState()
    {
        if (!QImageReader::supportedImageFormats().contains("svg"))
            QSKIP("Qt's SVG plugin (libqt6svg6) is not installed");
        (void)App::applicationIcon(); // registers the compiled-in resources
        const auto read = [](const QString &name) {
            QImageReader reader(QStringLiteral(":/icons/%1.svg").arg(name));
            reader.setScaledSize(QSize(32, 32));
            return reader.read();
        };
        QVERIFY(!read(QStringLiteral("claude-peers")).isNull());
        const QStringList states {QStringLiteral("claude-peers-needs-you"),
                                  QStringLiteral("claude-peers-stopped"), QStringLiteral("claude-peers-busy"),
                                  QStringLiteral("claude-peers-unread"),
                                  QStringLiteral("claude-peers-running")};
        QList<QImage> images;
        for (const QString &name : states) {
            const QImage image = read(name);
            QVERIFY2(!image.isNull(), qPrintable(name));
            for (const QImage &other : std::as_const(images))
                QVERIFY2(image != other,
                         qPrintable(name + QStringLiteral(" looks like another state's icon")));
            images << image;
        }
    }

    void menuFollowsThePresenter()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        TrayIcon tray(&presenter);
        QMenu *menu = tray.menu();

        QAction *status = menu->actions().first();
        QVERIFY(!status->isEnabled());
        QCOMPARE(status->text(), presenter.statusText());
        QAction *peers = action(menu, QStringLiteral("Peers…"));
        QAction *retry = action(menu, QStringLiteral("Retry broker start"));
        QAction *quit = action(menu, QStringLiteral("Quit"));
        QVERIFY(peers && retry && quit);
        QVERIFY(retry->isVisible()); // not running yet

        QSignalSpy retrySpy(&tray, &TrayIcon::retryRequested);
        QSignalSpy peersSpy(&tray, &TrayIcon::peersRequested);
        QSignalSpy quitSpy(&tray, &TrayIcon::quitRequested);
        connect(&tray, &TrayIcon::retryRequested, &host, &BrokerHost::start);
        retry->trigger();
        QCOMPARE(retrySpy.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(host.state(), BrokerHost::State::Running, scaled(5000));
        QTRY_VERIFY(!retry->isVisible());
        QVERIFY(status->text().startsWith(QStringLiteral("Broker running on port")));

        peers->trigger();
        quit->trigger();
        QCOMPARE(peersSpy.count(), 1);
        QCOMPARE(quitSpy.count(), 1);

        host.stop();
        QVERIFY(retry->isVisible());
        QCOMPARE(status->text(), QStringLiteral("Broker not running: stopped"));
    }
};

QTEST_MAIN(tst_TrayIcon)
#include "tst_trayicon.moc"
