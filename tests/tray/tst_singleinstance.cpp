// Single instance: real claude-peers-tray processes, offscreen, sharing one XDG_RUNTIME_DIR.
#include "tests/support/testsupport.h"
#include "tests/tray/trayprocess.h"

#include <QDir>
#include <QFile>
#include <QLocalSocket>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using TestSupport::scaled;
using TrayTestSupport::healthPid;
using Tray = TrayTestSupport::TrayProcess;

namespace {

constexpr char kRaised[] = "another start of claude-peers-tray asked to show the window";

} // namespace

class tst_SingleInstance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (TestSupport::trayExe().isEmpty())
            QSKIP("claude-peers-tray is not built");
    }

    void init()
    {
        m_home = std::make_unique<TestSupport::TestHome>();
        m_runtime = std::make_unique<QTemporaryDir>();
        QVERIFY(m_runtime->isValid());
        m_env = m_home->environment();
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")); // the runs below
        m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtime->path());
    }

    void secondStartRaisesTheFirstAndExits()
    {
        Tray first(m_env);
        QVERIFY(first.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(m_home->port()), first.process().processId(), scaled(15000));

        const auto second = TestSupport::run(TestSupport::trayExe(), {}, m_env, scaled(15000));
        QVERIFY(!second.timedOut);
        QCOMPARE(second.exitCode, 0);
        QVERIFY2(second.err.contains("already runs"), second.err.constData());
        QTRY_VERIFY2_WITH_TIMEOUT(first.log().contains(kRaised), first.log().constData(), scaled(5000));
        // The first one keeps its broker: the second never took it over.
        QCOMPARE(first.process().state(), QProcess::Running);
        QCOMPARE(healthPid(m_home->port()), first.process().processId());
    }

    void aCrashedTraysSocketDoesNotBlockANewStart()
    {
        const QString socket =
            m_runtime->filePath(QStringLiteral("claude-peers-tray-%1.socket").arg(m_home->port()));
        {
            Tray crashed(m_env);
            QVERIFY(crashed.start());
            QTRY_COMPARE_WITH_TIMEOUT(healthPid(m_home->port()), crashed.process().processId(),
                                      scaled(15000));
            crashed.process().kill();
            QVERIFY(crashed.process().waitForFinished(scaled(5000)));
        }
        QVERIFY(QFile::exists(socket)); // left behind, as after a crash

        Tray next(m_env);
        QVERIFY(next.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(m_home->port()), next.process().processId(), scaled(15000));
        QCOMPARE(next.process().state(), QProcess::Running);

        const auto third = TestSupport::run(TestSupport::trayExe(), {}, m_env, scaled(15000));
        QCOMPARE(third.exitCode, 0);
        QTRY_VERIFY2_WITH_TIMEOUT(next.log().contains(kRaised), next.log().constData(), scaled(5000));
    }

    void twoStartsAtOnceLeaveOneTray()
    {
        Tray a(m_env);
        Tray b(m_env);
        QVERIFY(a.start());
        QVERIFY(b.start());
        // Exactly one exits 0 (it asked the other); the other serves the broker.
        QTRY_VERIFY_WITH_TIMEOUT(a.process().state() == QProcess::NotRunning ||
                                     b.process().state() == QProcess::NotRunning,
                                 scaled(15000));
        Tray &gone = a.process().state() == QProcess::NotRunning ? a : b;
        Tray &kept = &gone == &a ? b : a;
        QCOMPARE(gone.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(gone.process().exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(m_home->port()), kept.process().processId(), scaled(15000));
        QTRY_VERIFY2_WITH_TIMEOUT(kept.log().contains(kRaised), kept.log().constData(), scaled(5000));
        QCOMPARE(kept.process().state(), QProcess::Running);
    }

    void junkOnTheSocketIsDropped()
    {
        Tray first(m_env);
        QVERIFY(first.start());
        QTRY_COMPARE_WITH_TIMEOUT(healthPid(m_home->port()), first.process().processId(), scaled(15000));

        QLocalSocket junk;
        junk.connectToServer(
            m_runtime->filePath(QStringLiteral("claude-peers-tray-%1.socket").arg(m_home->port())));
        QVERIFY(junk.waitForConnected(scaled(5000)));
        junk.write(QByteArray(200, 'x')); // no newline, over the limit
        QTRY_COMPARE_WITH_TIMEOUT(junk.state(), QLocalSocket::UnconnectedState, scaled(5000));
        QVERIFY(!first.log().contains(kRaised));

        const auto second = TestSupport::run(TestSupport::trayExe(), {}, m_env, scaled(15000));
        QCOMPARE(second.exitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(first.log().contains(kRaised), scaled(5000));
    }

private:
    std::unique_ptr<TestSupport::TestHome> m_home;
    std::unique_ptr<QTemporaryDir> m_runtime;
    QProcessEnvironment m_env;
};

QTEST_GUILESS_MAIN(tst_SingleInstance)
#include "tst_singleinstance.moc"
