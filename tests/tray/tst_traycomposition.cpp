// TrayComposition offscreen with a real broker in a temp HOME: the window and its pages, a tray
// that appears late (an injected availability function), --windowed, the menu's page entries
// and the first-run wizard driven page by page.
#include "app/tray/brokerhost.h"
#include "app/tray/firstrunwizard.h"
#include "app/tray/mainwindow.h"
#include "app/tray/peersmodel.h"
#include "app/tray/traycomposition.h"
#include "app/tray/trayicon.h"
#include "app/tray/traypresenter.h"
#include "common/brokerclient.h"
#include "tests/support/testsupport.h"
#include "tests/tray/traytestsupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using App::FirstRunWizard;
using App::TrayComposition;
using TestSupport::scaled;
using TrayTestSupport::settingsFor;

namespace {

// A system tray that a test switches on, counting how often the composition asks for it.
struct FakeTray
{
    bool up = false;
    int asked = 0;
    std::function<bool()> availability()
    {
        return [this] {
            ++asked;
            return up;
        };
    }
};

} // namespace

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
        FakeTray fake;
        int &asked = fake.asked;
        composition.setTrayAvailability(fake.availability(), 20, 1000);
        composition.start();
        QVERIFY(composition.mainWindow()->isVisible()); // no tray yet: the window is the app
        QVERIFY(!composition.trayIcon());
        QTRY_VERIFY(asked >= 3); // it keeps looking
        QVERIFY(!composition.trayIcon());
        fake.up = true;
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

    // `--wait` (Syncthing Tray's meaning): no tray at start → no window; it waits for a tray
    // past the attempts a plain start gives up after, then shows the icon, and the broker runs
    // meanwhile.
    void waitShowsNoWindowAndWaitsForTheTray()
    {
        TestSupport::TestHome home;
        TrayComposition composition(settingsFor(home));
        FakeTray fake;
        int &asked = fake.asked;
        composition.setTrayAvailability(fake.availability(), 10, 2);
        composition.setWaitForTray(true);
        composition.start();
        QVERIFY(!composition.mainWindow()->isVisible());
        QTRY_VERIFY(asked >= 6); // past the 2 attempts
        QVERIFY(!composition.trayIcon());
        QVERIFY(!composition.mainWindow()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(composition.host()->isRunning(), scaled(10000));
        fake.up = true;
        QTRY_VERIFY(composition.trayIcon());
        QVERIFY(!composition.mainWindow()->isVisible());
        const int askedWhenFound = asked;
        QTest::qWait(100); // ten poll periods: it stopped asking
        QCOMPARE(asked, askedWhenFound);
        composition.quit(0);
    }

    // Issue 11 §3: a real claude-peers-broker takes the port over from the tray (as after
    // `claude-peers restart` or a package upgrade): the tray stays, as that broker's client — it
    // still lists the peers (and new ones), its status names the other process, its pages talk
    // to it over HTTP; when that broker goes away it says so and Retry hosts the broker again.
    void staysAsAClientAfterHandingTheBrokerOver()
    {
        TestSupport::TestHome home;
        const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(home.runtimeDir())); // the hand-over socket
        const auto restore = qScopeGuard([&] {
            if (runtime.isEmpty())
                qunsetenv("XDG_RUNTIME_DIR");
            else
                qputenv("XDG_RUNTIME_DIR", runtime);
        });
        TrayComposition composition(settingsFor(home));
        App::BrokerHost::Timing timing;
        timing.watchIntervalMs = 100;
        timing.snapshotIntervalMs = 50;
        composition.host()->setTiming(timing);
        composition.setTrayAvailability([] { return true; }, 10, 0);
        composition.start();
        QTRY_VERIFY_WITH_TIMEOUT(composition.host()->isRunning(), scaled(10000));
        // Through a client of our own and QTRY: an earlier test's quit() (QCoreApplication::exit)
        // makes every later QEventLoop::exec() return at once, so no synchronous helpers here.
        Broker::BrokerClient client(Broker::Location::fromEnvironment(home.environment()));
        const auto answer = [&](const QString &path, const QJsonObject &body) {
            std::optional<Broker::Result<QJsonValue>> result;
            const auto done = [&](Broker::Result<QJsonValue> r) { result = std::move(r); };
            if (path == QLatin1String("/health"))
                client.get(path, done);
            else
                client.post(path, body, done);
            if (!QTest::qWaitFor([&] { return result.has_value(); }, scaled(10000)))
                return Broker::Result<QJsonValue>(std::unexpected(Broker::Error {}));
            return result.value_or(std::unexpected(Broker::Error {}));
        };
        const auto servedBy = [&] {
            const auto health = answer(QStringLiteral("/health"), {});
            return health ? health->toObject().value(QStringLiteral("pid")).toInteger() : 0;
        };
        const auto registered = [&](qint64 pid, const QString &cwd) {
            const auto r = answer(QStringLiteral("/register"), TrayTestSupport::registration(pid, cwd));
            if (!r)
                qWarning() << "register:" << r.error().message;
            return r ? r->toObject().value(QStringLiteral("id")).toString() : QString();
        };
        const auto listed = [&](const QString &id) {
            for (int row = 0; row < composition.peersModel()->rowCount(); ++row) {
                if (composition.peersModel()->peerAt(row).id == id)
                    return true;
            }
            return false;
        };
        // Peers are live processes of their own (the operator peer registers with our pid, and a
        // registration evicts the rows of its pid).
        QProcess firstSession, secondSession;
        for (QProcess *session : {&firstSession, &secondSession}) {
            session->start(QStringLiteral("sleep"), {QStringLiteral("600")});
            QVERIFY(session->waitForStarted());
        }
        const QString first = registered(firstSession.processId(), QStringLiteral("/tmp/first"));
        QVERIFY(!first.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(listed(first), scaled(5000));

        QProcess headless; // BrokerProcess::start() waits in a QEventLoop: see above
        headless.setProcessEnvironment(home.environment());
        headless.start(TestSupport::brokerExe(), {});
        QVERIFY(headless.waitForStarted(scaled(5000)));
        const qint64 headlessPid = headless.processId();
        QTRY_COMPARE_WITH_TIMEOUT(composition.host()->state(), App::BrokerHost::State::Elsewhere,
                                  scaled(10000));
        QCOMPARE(composition.host()->servingPid(), headlessPid);
        QCOMPARE(servedBy(), headlessPid);
        // Still here, still listing, and saying who serves the port.
        QVERIFY(listed(first));
        QVERIFY(composition.trayIcon());
        const QString served = QStringLiteral("Broker running in another process (pid %1) on port %2")
                                   .arg(headlessPid)
                                   .arg(home.port());
        QTRY_VERIFY2(composition.presenter()->statusText().startsWith(served),
                     qPrintable(composition.presenter()->statusText()));
        QVERIFY(composition.presenter()->toolTip().contains(served));
        QVERIFY(!composition.presenter()->canRetry());
        // A peer that joins the other broker shows up too (polled over HTTP).
        const QString second = registered(secondSession.processId(), QStringLiteral("/tmp/second"));
        QVERIFY(!second.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(listed(second), scaled(5000));
        QVERIFY(listed(first));
        QVERIFY(composition.presenter()->statusText().startsWith(served));

        // The other broker goes away: the tray says so and offers to host it again.
        headless.terminate();
        QTRY_COMPARE_WITH_TIMEOUT(headless.state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(headless.exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(composition.host()->state(), App::BrokerHost::State::Failed, scaled(10000));
        QVERIFY2(composition.presenter()->statusText().contains(
                     QStringLiteral("the broker process %1 that took port %2 over is gone")
                         .arg(headlessPid)
                         .arg(home.port())),
                 qPrintable(composition.presenter()->statusText()));
        QVERIFY(composition.presenter()->canRetry());
        composition.host()->start(); // the menu's Retry
        QTRY_VERIFY_WITH_TIMEOUT(composition.host()->isRunning(), scaled(10000));
        QCOMPARE(servedBy(), QCoreApplication::applicationPid());
        QTRY_VERIFY_WITH_TIMEOUT(listed(first), scaled(5000)); // same database
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
