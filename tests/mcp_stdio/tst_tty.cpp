#include "mcp_stdio/tty.h"

#include <QCryptographicHash>
#include <QRegularExpression>
#include <QTest>

#include <sys/sysmacros.h>
#include <unistd.h>

using namespace Mcp;

class tst_Tty : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void peerIdVectors_data()
    {
        // docs/spec/peers-api.md §7.9 test vectors.
        QTest::addColumn<QString>("tty");
        QTest::addColumn<QString>("id");
        QTest::newRow("pts/44") << QStringLiteral("pts/44") << QStringLiteral("d92a5e28");
        QTest::newRow("pts/0") << QStringLiteral("pts/0") << QStringLiteral("478e3862");
        QTest::newRow("/dev/pts/0") << QStringLiteral("/dev/pts/0") << QStringLiteral("321f9571");
        QTest::newRow("ttys001") << QStringLiteral("ttys001") << QStringLiteral("380ea400");
        QTest::newRow("none") << QString() << QString();
    }
    void peerIdVectors()
    {
        QFETCH(QString, tty);
        QFETCH(QString, id);
        QCOMPARE(Tty::peerIdForTty(tty), id);
    }

    void deviceNumbers_data()
    {
        QTest::addColumn<quint64>("nr");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << quint64(0) << QString();
        QTest::newRow("pts/0") << quint64(makedev(136, 0)) << QStringLiteral("pts/0");
        QTest::newRow("pts/44") << quint64(makedev(136, 44)) << QStringLiteral("pts/44");
        QTest::newRow("pts/300") << quint64(makedev(137, 44)) << QStringLiteral("pts/300");
        QTest::newRow("pts/1000") << quint64(makedev(139, 232)) << QStringLiteral("pts/1000");
        QTest::newRow("tty1") << quint64(makedev(4, 1)) << QStringLiteral("tty1");
        QTest::newRow("ttyS0") << quint64(makedev(4, 64)) << QStringLiteral("ttyS0");
        QTest::newRow("unknown major") << quint64(makedev(250, 3)) << QString();
    }
    void deviceNumbers()
    {
        QFETCH(quint64, nr);
        QFETCH(QString, name);
        QCOMPARE(Tty::nameFromDeviceNumber(nr), name);
    }

    void statLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<qint64>("ttyNr");
        QTest::newRow("plain") << QByteArray("1234 (claude) S 1 1234 1234 34860 1234 4194560 0")
                               << qint64(34860);
        QTest::newRow("comm with spaces and parens")
            << QByteArray("77 (a) b (c)) R 1 77 77 0 -1 0") << qint64(0);
        QTest::newRow("truncated") << QByteArray("1 (x) S 1") << qint64(-1);
        QTest::newRow("no paren") << QByteArray("garbage") << qint64(-1);
    }
    void statLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(qint64, ttyNr);
        QCOMPARE(Tty::ttyNrFromStat(line), ttyNr);
    }

    void ownProcessParses()
    {
        // Whatever the test runs under (terminal or not), reading our own stat must not fail
        // in a way that yields garbage: either empty or a plausible name.
        const QString name = Tty::forProcess(qint64(::getpid()));
        QVERIFY(name.isEmpty() || name.startsWith(QLatin1String("pts/")) ||
                name.startsWith(QLatin1String("tty")));
        QCOMPARE(Tty::forProcess(0), QString());
        QCOMPARE(Tty::forProcess(999999999), QString());
    }

    void environmentOverride()
    {
        qputenv("CLAUDE_PEERS_TTY", "pts/44");
        QCOMPARE(Tty::detect(), QStringLiteral("pts/44"));
        qputenv("CLAUDE_PEERS_TTY", "");
        QCOMPARE(Tty::detect(), QString());
        qunsetenv("CLAUDE_PEERS_TTY");
    }

    // Issue 7 §3.2: a helper without a terminal keeps one id per client and folder.
    void stableIdWithoutTty()
    {
        const QString a = Tty::stableIdWithoutTty(QStringLiteral("opencode"), QStringLiteral("/w/a"));
        QCOMPARE(a, Tty::stableIdWithoutTty(QStringLiteral("opencode"), QStringLiteral("/w/a")));
        QCOMPARE(a.size(), 8);
        QVERIFY(QRegularExpression(QStringLiteral("^[0-9a-f]{8}$")).match(a).hasMatch());
        // Independent of the code: SHA-256 of "client:opencode:/w/a", first 8 hex.
        QCOMPARE(
            a,
            QString::fromLatin1(QCryptographicHash::hash("client:opencode:/w/a", QCryptographicHash::Sha256)
                                    .toHex()
                                    .left(8)));
        QVERIFY(a != Tty::stableIdWithoutTty(QStringLiteral("opencode"), QStringLiteral("/w/b")));
        QVERIFY(a != Tty::stableIdWithoutTty(QStringLiteral("claude-code"), QStringLiteral("/w/a")));
        QCOMPARE(Tty::stableIdWithoutTty(QString(), QStringLiteral("/w/a")),
                 Tty::stableIdWithoutTty(QStringLiteral("mcp-client"), QStringLiteral("/w/a")));
    }
};

QTEST_GUILESS_MAIN(tst_Tty)
#include "tst_tty.moc"
