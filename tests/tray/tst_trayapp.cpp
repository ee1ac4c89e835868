// End to end: the real claude-peers-tray binary, offscreen, hosting the broker.
#include "tests/support/testsupport.h"
#include "tests/tray/trayprocess.h"

#include <QProcess>
#include <QTcpServer>
#include <QTest>

using TestSupport::scaled;

using TrayTestSupport::healthPid;
using TrayTestSupport::TrayProcess;

class tst_TrayApp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (TestSupport::trayExe().isEmpty())
            QSKIP("claude-peers-tray is not built");
    }

    void servesAndExitsOnShutdown()
    {
        TestSupport::TestHome home;
        TrayProcess tray(home);
        QVERIFY(tray.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(home.port()), tray.process().processId(), scaled(15000));

        const auto answer =
            TestSupport::httpPostJson(home.port(), QStringLiteral("/shutdown"), {}, home.token());
        QCOMPARE(answer.status, 200);
        QCOMPARE(answer.object().value(QStringLiteral("ok")).toBool(), true);
        QTRY_COMPARE_WITH_TIMEOUT(tray.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(tray.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(tray.process().exitCode(), 0);
        QCOMPARE(healthPid(home.port()), 0);
    }

    // --no-gui: the broker in-process without a display at all (no QPA platform is loaded:
    // QT_QPA_PLATFORM names one that does not exist, which a QGuiApplication would die on).
    void noGuiHostsTheBrokerHeadless()
    {
        TestSupport::TestHome home;
        QProcessEnvironment env = home.environment();
        TrayProcess tray(env);
        tray.process().setArguments({QStringLiteral("--no-gui")});
        QProcessEnvironment noDisplay = tray.process().processEnvironment();
        noDisplay.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("no-such-platform"));
        noDisplay.remove(QStringLiteral("DISPLAY"));
        noDisplay.remove(QStringLiteral("WAYLAND_DISPLAY"));
        tray.process().setProcessEnvironment(noDisplay);
        QVERIFY(tray.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(home.port()), tray.process().processId(), scaled(15000));
        tray.process().terminate();
        QTRY_COMPARE_WITH_TIMEOUT(tray.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(tray.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(tray.process().exitCode(), 0);
        QCOMPARE(healthPid(home.port()), 0);
    }

    void quitsCleanlyOnSigterm()
    {
        TestSupport::TestHome home;
        TrayProcess tray(home);
        QVERIFY(tray.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(home.port()), tray.process().processId(), scaled(15000));
        tray.process().terminate();
        QTRY_COMPARE_WITH_TIMEOUT(tray.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(tray.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(tray.process().exitCode(), 0);

        // Lock and port were released: a headless broker starts on the same database.
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());
    }

    void takesOverFromAHeadlessBroker()
    {
        TestSupport::TestHome home;
        TestSupport::BrokerProcess headless(home);
        QVERIFY2(headless.start(), headless.stderrOutput().constData());

        TrayProcess tray(home);
        QVERIFY(tray.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(home.port()), tray.process().processId(), scaled(20000));
        QTRY_COMPARE_WITH_TIMEOUT(headless.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(headless.process().exitCode(), 0);
        QCOMPARE(tray.process().state(), QProcess::Running);
    }

    void keepsRunningWhenThePortIsTaken()
    {
        TestSupport::TestHome home;
        QTcpServer squatter; // not a broker: nothing to take over from
        QVERIFY(squatter.listen(QHostAddress::LocalHost, home.port()));
        TrayProcess tray(home);
        QVERIFY(tray.start());
        QTRY_VERIFY_WITH_TIMEOUT(tray.log().contains("broker not started"), scaled(15000));
        QVERIFY2(tray.log().contains(QByteArray::number(home.port())), tray.log().constData());
        QCOMPARE(tray.process().state(), QProcess::Running); // usable, offering Retry
        tray.process().terminate();
        QTRY_COMPARE_WITH_TIMEOUT(tray.process().state(), QProcess::NotRunning, scaled(10000));
        QCOMPARE(tray.process().exitCode(), 0);
    }

    void speaksGermanUnderAGermanLocale()
    {
#ifndef PEERS_TRAY_TRANSLATED
        QSKIP("built without Qt LinguistTools");
#endif
        TestSupport::TestHome home;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
        env.remove(QStringLiteral("LANGUAGE"));
        const auto result = TestSupport::run(TestSupport::trayExe(), {QStringLiteral("--help")}, env);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("Tray-App von claude-peers"), result.out.constData());
    }

    void helpExplainsWait()
    {
        TestSupport::TestHome home;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
        env.remove(QStringLiteral("LANGUAGE"));
        const auto result = TestSupport::run(TestSupport::trayExe(), {QStringLiteral("--help")}, env);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("--wait"), result.out.constData());
        QVERIFY2(result.out.contains("wait for one to appear"), result.out.constData());
    }

    void printsVersion()
    {
        TestSupport::TestHome home;
        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto result = TestSupport::run(TestSupport::trayExe(), {QStringLiteral("--version")}, env);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(PEERS_VERSION), result.out.constData());
    }
};

QTEST_GUILESS_MAIN(tst_TrayApp)
#include "tst_trayapp.moc"
