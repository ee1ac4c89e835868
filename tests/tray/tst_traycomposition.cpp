// TrayComposition offscreen with a real broker in a temp HOME: the window and its pages, a tray
// that appears late (an injected availability function), --windowed, the menu's page entries
// and the first-run wizard driven page by page.
#include "firstrunwizard.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "traycomposition.h"
#include "trayicon.h"
#include "traytestsupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using App::FirstRunWizard;
using App::TrayComposition;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

class tst_TrayComposition : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The composition reads the process's environment (autostart entry, OS keychain): point it
    // at a private HOME and at no session bus, so nothing of the user's is read or written.
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("HOME", m_home.path().toUtf8());
        qputenv("XDG_CONFIG_HOME", (m_home.path() + QStringLiteral("/.config")).toUtf8());
        qputenv("XDG_DATA_HOME", (m_home.path() + QStringLiteral("/.local/share")).toUtf8());
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/claude-peers-test-bus");
        qunsetenv("DISPLAY");
        QStandardPaths::setTestModeEnabled(true);
    }

    void hasItsPages()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        const QStringList ids = composition.mainWindow()->pageIds();
        for (const QString &id :
             {QStringLiteral("peers"), QStringLiteral("status"), QStringLiteral("settings")})
            QVERIFY2(ids.contains(id), qPrintable(id));
    }

    void aTrayThatAppearsLateGetsTheIconAndKeepsTheWindow()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        bool trayUp = false;
        int asked = 0;
        composition.setTrayAvailability(
            [&] {
                ++asked;
                return trayUp;
            },
            20, 1000);
        composition.start();
        QVERIFY(composition.mainWindow()->isVisible()); // no tray yet: the window is the app
        QVERIFY(!composition.trayIcon());
        QTRY_VERIFY(asked >= 3); // it keeps looking
        QVERIFY(!composition.trayIcon());
        trayUp = true;
        QTRY_VERIFY(composition.trayIcon());
        QVERIFY(composition.mainWindow()->isVisible());
        const int askedWhenFound = asked;
        QTest::qWait(200); // ten poll periods: it stopped asking once the tray was there
        QCOMPARE(asked, askedWhenFound);
        // The menu's page entries: disabled while their pages are not built in.
        App::TrayIcon *tray = composition.trayIcon();
        QCOMPARE(tray->sendAction()->isEnabled(),
                 composition.mainWindow()->page(QStringLiteral("messages")) != nullptr);
        QCOMPARE(tray->newSessionAction()->isEnabled(),
                 composition.mainWindow()->page(QStringLiteral("sessions")) != nullptr);
        composition.quit(0);
    }

    void givesUpWaitingForATray()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        int asked = 0;
        composition.setTrayAvailability(
            [&] {
                ++asked;
                return false;
            },
            10, 3);
        composition.start();
        QTRY_COMPARE(asked, 4); // the first look, then three polls
        QTest::qWait(100); // ten poll periods: no more
        QCOMPARE(asked, 4);
        QVERIFY(composition.mainWindow()->isVisible());
        QVERIFY(!composition.trayIcon());
        composition.quit(0);
    }

    void windowedNeverShowsAnIcon()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        composition.setTrayAvailability([] { return true; }, 10, 10);
        composition.setWindowed(true);
        composition.start();
        QVERIFY(composition.mainWindow()->isVisible());
        QVERIFY(QApplication::quitOnLastWindowClosed());
        QTest::qWait(100);
        QVERIFY(!composition.trayIcon());
        composition.quit(0);
        QApplication::setQuitOnLastWindowClosed(false);
    }

    void firstRunWizardWalksItsPages()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        composition.setTrayAvailability([] { return false; }, 1000, 0);
        composition.start();
        QFile::remove(FirstRunWizard::markerPath());
        QVERIFY(!FirstRunWizard::hasRun());
        composition.showFirstRunWizard();
        FirstRunWizard *wizard = composition.firstRunWizard();
        QVERIFY(wizard);
        QVERIFY(QTest::qWaitForWindowExposed(wizard));

        // Keychain: the broker's own answer (POST /secrets), as `claude-peers status` words it.
        QCOMPARE(wizard->currentId(), int(FirstRunWizard::KeychainPage));
        QTRY_VERIFY_WITH_TIMEOUT(wizard->secretsLabel()->text().startsWith(QStringLiteral("Secrets:")),
                                 scaled(10000));
        wizard->next();
        QCOMPARE(wizard->currentId(), int(FirstRunWizard::AutostartPage));
        wizard->autostartBox()->setChecked(false); // keep the test's HOME free of autostart entries
        wizard->next();
        QCOMPARE(wizard->currentId(), int(FirstRunWizard::ConnectPage));
        auto *mcp = wizard->currentPage()->findChild<QPlainTextEdit *>(QStringLiteral("mcpAdd"));
        QVERIFY(mcp);
        QVERIFY(mcp->toPlainText().startsWith(QStringLiteral("claude mcp add --scope user")));
        wizard->next();
        QCOMPARE(wizard->currentId(), int(FirstRunWizard::FederationPage));
        wizard->federationBox()->setChecked(true);
        QSignalSpy federation(wizard, &FirstRunWizard::federationRequested);
        QSignalSpy autostart(wizard, &FirstRunWizard::autostartChosen);
        wizard->accept();
        QCOMPARE(federation.count(), 1);
        QCOMPARE(autostart.count(), 1);
        QCOMPARE(autostart.first().at(0).toBool(), false);
        QVERIFY(FirstRunWizard::hasRun());
        QVERIFY(
            !QFile::exists(m_home.path() + QStringLiteral("/.config/autostart/claude-peers-tray.desktop")));
        // Federation asked for: the window opens on the Federation page, or Settings without it.
        const QString expected = composition.mainWindow()->page(QStringLiteral("federation"))
            ? QStringLiteral("federation")
            : QStringLiteral("settings");
        QCOMPARE(composition.mainWindow()->currentPageId(), expected);
        QTRY_VERIFY(!composition.firstRunWizard()); // it deletes itself
        composition.quit(0);
    }

private:
    QTemporaryDir m_home;
};

QTEST_MAIN(tst_TrayComposition)
#include "tst_traycomposition.moc"
