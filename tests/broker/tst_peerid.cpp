// Peer ids (reference §7.9 vectors), session secrets and the liveness probe.
#include "internal/liveness.h"
#include "internal/peerid.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

class tst_PeerId : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void derivesIdFromTty_data()
    {
        QTest::addColumn<QString>("tty");
        QTest::addColumn<QString>("id");
        QTest::newRow("pts/44") << QStringLiteral("pts/44") << QStringLiteral("d92a5e28");
        QTest::newRow("pts/0") << QStringLiteral("pts/0") << QStringLiteral("478e3862");
        QTest::newRow("/dev/pts/0") << QStringLiteral("/dev/pts/0") << QStringLiteral("321f9571");
        QTest::newRow("ttys001") << QStringLiteral("ttys001") << QStringLiteral("380ea400");
    }
    void derivesIdFromTty()
    {
        QFETCH(QString, tty);
        QFETCH(QString, id);
        QCOMPARE(Broker::PeerId::fromTty(tty), id);
        QCOMPARE(Broker::PeerId::derive(tty), id);
    }

    void randomIdsAreEightLowerAlnum()
    {
        static const QRegularExpression shape(QStringLiteral("^[a-z0-9]{8}$"));
        QSet<QString> seen;
        for (int i = 0; i < 200; ++i) {
            const QString id = Broker::PeerId::derive(QString());
            QVERIFY2(shape.match(id).hasMatch(), qPrintable(id));
            seen.insert(id);
        }
        QVERIFY(seen.size() > 190); // not a constant
    }

    void sessionSecretIs64HexAndHashedWithSha256()
    {
        const QByteArray secret = Broker::SessionSecret::generate();
        QCOMPARE(secret.size(), 64);
        QVERIFY(Broker::SessionSecret::looksLikeSecret(secret));
        QVERIFY(secret != Broker::SessionSecret::generate());
        // SHA-256("abc")
        QCOMPARE(Broker::SessionSecret::hash("abc"),
                 QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void rejectsThingsThatAreNotSecrets_data()
    {
        QTest::addColumn<QByteArray>("credential");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("short") << QByteArray(63, 'a');
        QTest::newRow("long") << QByteArray(65, 'a');
        QTest::newRow("upper") << QByteArray(64, 'A');
        QTest::newRow("non-hex") << QByteArray(64, 'g');
    }
    void rejectsThingsThatAreNotSecrets()
    {
        QFETCH(QByteArray, credential);
        QVERIFY(!Broker::SessionSecret::looksLikeSecret(credential));
    }

    void ownProcessIsAlive() { QVERIFY(Broker::Liveness::isProcessAlive(getpid())); }

    void nonPositiveAndExitedPidsAreDead()
    {
        QVERIFY(!Broker::Liveness::isProcessAlive(0));
        QVERIFY(!Broker::Liveness::isProcessAlive(-1));
        QVERIFY(!Broker::Liveness::isProcessAlive(qint64(1) << 40));
        const pid_t child = fork();
        if (child == 0)
            _exit(0);
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child); // reaped: the pid no longer exists
        QVERIFY(!Broker::Liveness::isProcessAlive(child));
    }

    // Divergence from the reference (§13.1 #9): EPERM means "exists, not ours" → alive.
    void processOfAnotherUserIsAlive()
    {
        if (geteuid() != 0) {
            QVERIFY(Broker::Liveness::isProcessAlive(1)); // init: EPERM for us
            return;
        }
        // As root, ask from a child that dropped to "nobody": kill(parent, 0) gives EPERM there.
        const pid_t parent = getpid();
        const pid_t child = fork();
        if (child == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(3);
            errno = 0;
            const bool eperm = ::kill(parent, 0) != 0 && errno == EPERM;
            _exit(eperm ? (Broker::Liveness::isProcessAlive(parent) ? 0 : 1) : 2);
        }
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(tst_PeerId)
#include "tst_peerid.moc"
