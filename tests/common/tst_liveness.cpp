// The one liveness probe of broker and clients (common/liveness.h): zombies are gone,
// pids outside pid_t are never processes, another user's process (EPERM) is alive.
#include "common/liveness.h"

#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QTest>

#include <csignal>
#include <limits>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

using Broker::Liveness::isProcessAlive;

namespace {

// A forked child that runs until letExit() (it reads a pipe whose write end we hold); the test
// reaps it.
struct RunningChild
{
    pid_t pid = -1;
    int release = -1;

    RunningChild()
    {
        int fds[2];
        if (::pipe(fds) != 0)
            return;
        pid = ::fork();
        if (pid == 0) {
            char c = 0;
            ::close(fds[1]);
            (void)!::read(fds[0], &c, 1);
            ::_exit(0);
        }
        ::close(fds[0]);
        release = fds[1];
    }
    ~RunningChild() { letExit(); }
    void letExit()
    {
        if (release >= 0)
            ::close(release);
        release = -1;
    }
};

} // namespace

class tst_Liveness : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ownProcessIsAlive() { QVERIFY(isProcessAlive(QCoreApplication::applicationPid())); }

    void pidsOutOfRangeAreNeverAlive_data()
    {
        QTest::addColumn<qint64>("pid");
        QTest::newRow("zero: our own process group") << qint64(0);
        QTest::newRow("-1: every process") << qint64(-1);
        QTest::newRow("negative: a process group") << -qint64(QCoreApplication::applicationPid());
        // Truncated to pid_t these would name live processes (our own, init).
        QTest::newRow("above pid_t, wraps to ours")
            << ((qint64(1) << 32) + qint64(QCoreApplication::applicationPid()));
        QTest::newRow("above pid_t, wraps to init") << (qint64(1) << 32) + 1;
        QTest::newRow("pid_t max + 1") << qint64(std::numeric_limits<pid_t>::max()) + 1;
    }
    void pidsOutOfRangeAreNeverAlive()
    {
        QFETCH(qint64, pid);
        QVERIFY(!isProcessAlive(pid));
    }

    // A child that has exited but that its parent (we) has not reaped yet still answers
    // kill(pid, 0): it must count as gone, or a client would wait for it until its deadline.
    void zombieIsDead()
    {
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(0);
        QVERIFY(child > 0);
        // Not reaped while we look: waitid(WNOWAIT) tells that it exited and leaves the zombie.
        siginfo_t info {};
        QCOMPARE(::waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT), 0);
        QCOMPARE(::kill(child, 0), 0); // the zombie is still there for kill()
        QVERIFY(!isProcessAlive(child));
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(!isProcessAlive(child)); // reaped: the pid is free
    }

    void runningChildIsAliveUntilItExits()
    {
        RunningChild child;
        QVERIFY(child.pid > 0);
        QVERIFY(isProcessAlive(child.pid));
        child.letExit();
        int status = 0;
        QCOMPARE(::waitpid(child.pid, &status, 0), child.pid);
        QVERIFY(!isProcessAlive(child.pid));
    }

    // The broker's Checker: the same verdicts, the /proc look at most once per recheck time.
    void checkerSeesAZombieAfterItsRecheckTime_data()
    {
        QTest::addColumn<int>("recheckMs");
        QTest::addColumn<bool>("zombieSeenAtOnce");
        QTest::newRow("recheck every time") << 0 << true;
        QTest::newRow("recheck after a minute") << 60000 << false;
    }
    void checkerSeesAZombieAfterItsRecheckTime()
    {
        QFETCH(int, recheckMs);
        QFETCH(bool, zombieSeenAtOnce);
        Broker::Liveness::Checker checker(recheckMs);
        RunningChild child;
        QVERIFY(child.pid > 0);
        QVERIFY(checker.isProcessAlive(child.pid));
        child.letExit();
        siginfo_t info {};
        QCOMPARE(::waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT), 0); // a zombie now
        QCOMPARE(checker.isProcessAlive(child.pid), !zombieSeenAtOnce);
        QVERIFY(!Broker::Liveness::isProcessAlive(child.pid)); // the free function always looks
        int status = 0;
        QCOMPARE(::waitpid(child.pid, &status, 0), child.pid);
        QVERIFY(!checker.isProcessAlive(child.pid)); // reaped: gone at once either way
    }

    // Divergence from the reference (docs/spec/peers-api.md §13.1 #9): EPERM means
    // "exists, not ours", so alive.
    void processOfAnotherUserIsAlive()
    {
        if (::geteuid() != 0) {
            QVERIFY(isProcessAlive(1)); // init: EPERM for us
            return;
        }
        // As root kill() never says EPERM: ask from a child that dropped to "nobody".
        const pid_t parent = ::getpid();
        const pid_t child = ::fork();
        if (child == 0) {
            if (::setgid(65534) != 0 || ::setuid(65534) != 0)
                ::_exit(3);
            errno = 0;
            const bool eperm = ::kill(parent, 0) != 0 && errno == EPERM;
            ::_exit(eperm ? (isProcessAlive(parent) ? 0 : 1) : 2);
        }
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        if (WEXITSTATUS(status) == 3)
            QSKIP("cannot drop to uid 65534 here, so EPERM cannot be produced");
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Liveness)
#include "tst_liveness.moc"
