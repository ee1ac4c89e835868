// TrayIcon adapter and icons, offscreen: the menu mirrors the presenter and emits requests.
#include "app/tray/brokerhost.h"
#include "app/tray/traycomposition.h"
#include "app/tray/trayicon.h"
#include "app/tray/trayicons.h"
#include "app/tray/traypresenter.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QAction>
#include <QFile>
#include <QImageReader>
#include <QMenu>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using App::BrokerHost;
using App::TrayComposition;
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

    // Until a Settings page exists, "Start at login" is a checkable menu entry: the user's click
    // is a request, while the file system's answer only ticks it.
    void startAtLoginIsACheckableEntry()
    {
        TestSupport::TestHome home;
        BrokerHost host(settingsFor(home));
        TrayPresenter presenter(&host);
        TrayIcon tray(&presenter);
        QAction *autostart = action(tray.menu(), QStringLiteral("Start at login"));
        QVERIFY(autostart);
        QCOMPARE(autostart, tray.autostartAction());
        QVERIFY(autostart->isCheckable());

        QSignalSpy toggled(&tray, &TrayIcon::autostartToggled);
        tray.setAutostartChecked(true);
        QVERIFY(autostart->isChecked());
        QCOMPARE(toggled.count(), 0);
        autostart->trigger(); // the user unticks it
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.first().first().toBool(), false);
    }

    // The composition turns the toggle into the user's autostart entry (XDG_CONFIG_HOME).
    void startAtLoginWritesAndRemovesTheUserEntry()
    {
        TestSupport::TestHome home;
        QTemporaryDir xdg;
        const QByteArray oldConfigHome = qgetenv("XDG_CONFIG_HOME");
        const QByteArray oldConfigDirs = qgetenv("XDG_CONFIG_DIRS");
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(xdg.filePath(QStringLiteral("config"))));
        qputenv("XDG_CONFIG_DIRS", QFile::encodeName(xdg.filePath(QStringLiteral("system"))));
        const auto restore = qScopeGuard([&] {
            oldConfigHome.isNull() ? qunsetenv("XDG_CONFIG_HOME") : qputenv("XDG_CONFIG_HOME", oldConfigHome);
            oldConfigDirs.isNull() ? qunsetenv("XDG_CONFIG_DIRS") : qputenv("XDG_CONFIG_DIRS", oldConfigDirs);
        });
        const QString entry = xdg.filePath(QStringLiteral("config/autostart/claude-peers-tray.desktop"));

        TrayComposition composition(settingsFor(home));
        composition.setAutostart(true);
        QVERIFY(QFile::exists(entry));
        composition.setAutostart(false);
        QVERIFY(!QFile::exists(entry));
    }
};

QTEST_MAIN(tst_TrayIcon)
#include "tst_trayicon.moc"
