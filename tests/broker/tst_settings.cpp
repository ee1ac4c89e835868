// Settings::load: config file "broker" object, environment overrides, bad input → defaults.
#include "broker/settings.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using Broker::Settings;

class tst_Settings : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    Broker::Location location() const
    {
        Broker::Location l;
        l.configPath = m_dir.filePath(QStringLiteral("config.json"));
        l.databasePath = m_dir.filePath(QStringLiteral("db"));
        l.tokenPath = m_dir.filePath(QStringLiteral("token"));
        return l;
    }
    void writeConfig(const QByteArray &content)
    {
        QFile f(location().configPath);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
    }
    static QProcessEnvironment emptyEnv() { return QProcessEnvironment(); }

private Q_SLOTS:
    void init() { QFile::remove(location().configPath); }

    void defaultsWithoutConfigFile()
    {
        const Settings s = Settings::load(location(), emptyEnv());
        QCOMPARE(s.heartbeatTimeoutMs, 60000);
        QCOMPARE(s.rateLimitPerMinute, 60);
        QCOMPARE(s.maxConnections, 1024);
        QCOMPARE(s.idleTimeoutMs, 60000);
        QCOMPARE(s.maxBodyBytes, 1024 * 1024);
        QCOMPARE(s.federationPort, quint16(7900));
        QVERIFY(s.reloadable);
        QCOMPARE(s.location.configPath, location().configPath);
    }

    void readsBrokerObject()
    {
        writeConfig(R"({"federation":{"port":7901},
                        "broker":{"heartbeat_timeout_ms":5000,"rate_limit_per_minute":5,
                                  "max_connections":10,"idle_timeout_ms":3000,"sweep_interval_ms":250}})");
        const Settings s = Settings::load(location(), emptyEnv());
        QCOMPARE(s.heartbeatTimeoutMs, 5000);
        QCOMPARE(s.rateLimitPerMinute, 5);
        QCOMPARE(s.maxConnections, 10);
        QCOMPARE(s.idleTimeoutMs, 3000);
        QCOMPARE(s.sweepIntervalMs, 250);
        QCOMPARE(s.federationPort, quint16(7901));
    }

    void malformedFileKeepsDefaults_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("not json") << QByteArray("{broker: ");
        QTest::newRow("array") << QByteArray("[1,2]");
        QTest::newRow("broker not object") << QByteArray(R"({"broker":"fast"})");
        QTest::newRow("string value") << QByteArray(R"({"broker":{"rate_limit_per_minute":"10"}})");
        QTest::newRow("negative") << QByteArray(R"({"broker":{"rate_limit_per_minute":-1}})");
        QTest::newRow("fraction") << QByteArray(R"({"broker":{"rate_limit_per_minute":1.5}})");
        QTest::newRow("huge") << QByteArray(R"({"broker":{"rate_limit_per_minute":1e300}})");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe", 3);
        QTest::newRow("empty") << QByteArray();
    }
    void malformedFileKeepsDefaults()
    {
        QFETCH(QByteArray, content);
        writeConfig(content);
        const Settings s = Settings::load(location(), emptyEnv());
        QCOMPARE(s.rateLimitPerMinute, 60);
        QCOMPARE(s.heartbeatTimeoutMs, 60000);
    }

    void environmentOverridesConfig()
    {
        writeConfig(R"({"broker":{"heartbeat_timeout_ms":5000,"rate_limit_per_minute":5}})");
        QProcessEnvironment env;
        env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));
        env.insert(QStringLiteral("CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS"), QStringLiteral("1234"));
        const Settings s = Settings::load(location(), env);
        QCOMPARE(s.rateLimitPerMinute, 0);
        QCOMPARE(s.heartbeatTimeoutMs, 1234);
    }

    void malformedEnvironmentIsIgnored_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("word") << QStringLiteral("lots");
        QTest::newRow("negative") << QStringLiteral("-5");
        QTest::newRow("overflow") << QStringLiteral("99999999999999999999");
        QTest::newRow("blank") << QStringLiteral("  ");
    }
    void malformedEnvironmentIsIgnored()
    {
        QFETCH(QString, value);
        writeConfig(R"({"broker":{"rate_limit_per_minute":7}})");
        QProcessEnvironment env;
        env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), value);
        env.insert(QStringLiteral("CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS"), value);
        const Settings s = Settings::load(location(), env);
        QCOMPARE(s.rateLimitPerMinute, 7);
        QCOMPARE(s.heartbeatTimeoutMs, 60000);
    }
};

QTEST_GUILESS_MAIN(tst_Settings)
#include "tst_settings.moc"
