#include "common/location.h"

#include <QTest>

using Broker::Location;

class tst_Location : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaultsFollowHome()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/home/u"));
        const Location loc = Location::fromEnvironment(env);
        QCOMPARE(loc.port, quint16(7899));
        QCOMPARE(loc.tokenPath, QStringLiteral("/home/u/.claude-peers-token"));
        QVERIFY(!loc.tokenPathExplicit);
        QCOMPARE(loc.databasePath, QStringLiteral("/home/u/.claude-peers.db"));
        QCOMPARE(loc.configPath, QStringLiteral("/home/u/.claude-peers-config.json"));
        QCOMPARE(loc.pidPath(), QStringLiteral("/home/u/.claude-peers.db.pid"));
        QCOMPARE(loc.lockPath(), QStringLiteral("/home/u/.claude-peers.db.lock"));
        QCOMPARE(loc.baseUrl().toString(), QStringLiteral("http://127.0.0.1:7899"));
    }

    void environmentOverrides()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/home/u"));
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QStringLiteral("18899"));
        env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), QStringLiteral("/tmp/tok"));
        env.insert(QStringLiteral("CLAUDE_PEERS_DB"), QStringLiteral("/tmp/x.db"));
        const Location loc = Location::fromEnvironment(env);
        QCOMPARE(loc.port, quint16(18899));
        QCOMPARE(loc.tokenPath, QStringLiteral("/tmp/tok"));
        QVERIFY(loc.tokenPathExplicit);
        QCOMPARE(loc.databasePath, QStringLiteral("/tmp/x.db"));
        QCOMPARE(loc.pidPath(), QStringLiteral("/tmp/x.db.pid"));
        // The config file stays in HOME whatever the other variables say (docs/spec/peers-api.md §10.1).
        QCOMPARE(loc.configPath, QStringLiteral("/home/u/.claude-peers-config.json"));
        QCOMPARE(loc.baseUrl().toString(), QStringLiteral("http://127.0.0.1:18899"));
    }

    void badPortFallsBackToDefault_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("empty") << QString();
        QTest::newRow("text") << QStringLiteral("abc");
        QTest::newRow("zero") << QStringLiteral("0");
        QTest::newRow("negative") << QStringLiteral("-1");
        QTest::newRow("too large") << QStringLiteral("65536");
        QTest::newRow("huge") << QStringLiteral("99999999999");
        QTest::newRow("trailing junk") << QStringLiteral("80x");
        QTest::newRow("float") << QStringLiteral("80.5");
    }
    void badPortFallsBackToDefault()
    {
        QFETCH(QString, value);
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/h"));
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), value);
        QCOMPARE(Location::fromEnvironment(env).port, quint16(7899));
    }

    void edgePortsAccepted()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/h"));
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QStringLiteral("1"));
        QCOMPARE(Location::fromEnvironment(env).port, quint16(1));
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QStringLiteral("65535"));
        QCOMPARE(Location::fromEnvironment(env).port, quint16(65535));
    }

    void emptyVariablesMeanDefaults()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), QStringLiteral("/h"));
        env.insert(QStringLiteral("CLAUDE_PEERS_TOKEN"), QString());
        env.insert(QStringLiteral("CLAUDE_PEERS_DB"), QString());
        const Location loc = Location::fromEnvironment(env);
        QCOMPARE(loc.tokenPath, QStringLiteral("/h/.claude-peers-token"));
        QVERIFY(!loc.tokenPathExplicit);
        QCOMPARE(loc.databasePath, QStringLiteral("/h/.claude-peers.db"));
    }
};

QTEST_GUILESS_MAIN(tst_Location)
#include "tst_location.moc"
