#include "common/config.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using Broker::ConfigFile;

namespace {

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

void writeRaw(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QByteArray readRaw(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class tst_ConfigFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Writers at once (the broker pinning, the tray saving, the CLI): every change is kept.
    void concurrentUpdatesKeepEveryChange()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        constexpr int Threads = 8;
        constexpr int Each = 10;
        std::vector<std::thread> writers;
        std::atomic<int> failures {0};
        for (int t = 0; t < Threads; ++t) {
            writers.emplace_back([&, t] {
                for (int i = 0; i < Each; ++i) {
                    const auto saved = ConfigFile::update(path, [&](ConfigFile &c) {
                        c.setPin(QStringLiteral("h%1-%2").arg(t).arg(i), 7900, QStringLiteral("sha256-x"));
                        return true;
                    });
                    if (!saved)
                        ++failures;
                }
            });
        }
        for (std::thread &w : writers)
            w.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(ConfigFile::load(path).pins().size(), Threads * Each);
        QCOMPARE(modeOf(path), 0600);
    }

    // A file that does not load cleanly is never overwritten (it would lose what could not be
    // read); a change that says "nothing to do" writes nothing.
    void updateLeavesUnreadableFilesAndNoOpsAlone()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeRaw(path, "{ not json");
        bool called = false;
        const auto refused = ConfigFile::update(path, [&](ConfigFile &) { return called = true; });
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Broker::ErrorKind::Unreadable);
        QVERIFY(refused.error().message.contains(path));
        QVERIFY(!called);
        QCOMPARE(readRaw(path), QByteArray("{ not json"));
        writeRaw(path, "{\"x\": 1}");
        QVERIFY(ConfigFile::update(path, [](ConfigFile &c) {
            c.setFederationEnabled(true);
            return false;
        }));
        QCOMPARE(readRaw(path), QByteArray("{\"x\": 1}"));
    }

    // Another writer that holds the lock too long: a clear error after the wait, nothing written.
    void aHeldLockIsAnErrorAfterTheWait()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        const int fd =
            ::open(QFile::encodeName(path + QStringLiteral(".lock")).constData(), O_RDWR | O_CREAT, 0600);
        QVERIFY(fd >= 0);
        QCOMPARE(::flock(fd, LOCK_EX), 0);
        const auto r = ConfigFile::update(
            path,
            [](ConfigFile &c) {
                c.setFederationEnabled(true);
                return true;
            },
            300);
        ::close(fd);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Broker::ErrorKind::Locked);
        QVERIFY(!QFile::exists(path));
    }

    void missingFileIsEmptyWithoutWarning()
    {
        QTemporaryDir dir;
        const ConfigFile c = ConfigFile::load(dir.filePath(QStringLiteral("absent.json")));
        QVERIFY(c.isEmpty());
        QVERIFY(c.warning().isEmpty());
        QVERIFY(!c.federationEnabled());
        QVERIFY(c.remotes().isEmpty());
    }

    void malformedFileIsEmptyWithWarning_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("truncated") << QByteArray(R"({"federation": {"enabled": tru)");
        QTest::newRow("not json") << QByteArray("hello");
        QTest::newRow("array root") << QByteArray("[1,2]");
        QTest::newRow("string root") << QByteArray(R"("x")");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe", 3);
    }
    void malformedFileIsEmptyWithWarning()
    {
        QFETCH(QByteArray, content);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        writeRaw(path, content);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^Config file")));
        const ConfigFile c = ConfigFile::load(path);
        QVERIFY(c.isEmpty());
        QVERIFY(c.warning().contains(path));
        QVERIFY(c.warning().contains(QStringLiteral("using defaults")));
    }

    void oversizedFileIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        writeRaw(path, "{\"x\":\"" + QByteArray(ConfigFile::MaxFileBytes, 'a') + "\"}");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("larger than")));
        const ConfigFile c = ConfigFile::load(path);
        QVERIFY(c.isEmpty());
        QVERIFY(!c.warning().isEmpty());
    }

    void readsReferenceKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        writeRaw(path, R"({
  "federation": {
    "enabled": true,
    "port": 7900,
    "subnet": "192.168.1.0/24",
    "remotes": [{"host": "192.168.1.42", "port": 7900, "label": "rafi-macbook"}, {"port": 1}, {"host": "h2"}],
    "mdns": {"enabled": false, "interface": null}
  },
  "server": {"startup_timeout_ms": 15000},
  "broker": {"heartbeat_timeout_ms": 60000, "rate_limit_per_minute": 0, "max_connections": 1024,
             "idle_timeout_ms": 60000},
  "unknown_key": {"kept": true}
})");
        const ConfigFile c = ConfigFile::load(path);
        QVERIFY(c.warning().isEmpty());
        QCOMPARE(c.federationEnabled(), std::optional<bool>(true));
        QCOMPARE(c.federationPort(), std::optional<int>(7900));
        QCOMPARE(c.federationSubnet(), std::optional<QString>(QStringLiteral("192.168.1.0/24")));
        const QList<ConfigFile::Remote> remotes = c.remotes();
        QCOMPARE(remotes.size(), 2); // the entry without a host is skipped
        QCOMPARE(remotes.at(0),
                 (ConfigFile::Remote {QStringLiteral("192.168.1.42"), 7900, QStringLiteral("rafi-macbook")}));
        QCOMPARE(remotes.at(1), (ConfigFile::Remote {QStringLiteral("h2"), 7900, QString()}));
        QCOMPARE(c.mdnsEnabled(), std::optional<bool>(false));
        QCOMPARE(c.startupTimeoutMs(), std::optional<int>(15000));
        QCOMPARE(c.heartbeatTimeoutMs(), std::optional<int>(60000));
        QCOMPARE(c.rateLimitPerMinute(), std::optional<int>(0));
        QCOMPARE(c.maxConnections(), std::optional<int>(1024));
        QCOMPARE(c.idleTimeoutMs(), std::optional<int>(60000));
    }

    void wrongTypesReadAsAbsent_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("strings") << QByteArray(R"({"federation":{"enabled":"true","port":"7900","subnet":5},
            "server":{"startup_timeout_ms":"15000"},"broker":{"rate_limit_per_minute":"60"}})");
        QTest::newRow("fractions and overflow") << QByteArray(R"({"federation":{"port":7900.5},
            "server":{"startup_timeout_ms":1e20},"broker":{"rate_limit_per_minute":null}})");
        QTest::newRow("objects are scalars") << QByteArray(R"({"federation":true,"server":[],"broker":1})");
    }
    void wrongTypesReadAsAbsent()
    {
        QFETCH(QByteArray, content);
        const ConfigFile c(QJsonDocument::fromJson(content).object());
        QVERIFY(!c.federationEnabled());
        QVERIFY(!c.federationPort());
        QVERIFY(!c.federationSubnet());
        QVERIFY(!c.startupTimeoutMs());
        QVERIFY(!c.rateLimitPerMinute());
    }

    void saveRoundTripsWithTwoSpaceIndentAnd0600()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        ConfigFile c;
        c.setFederationEnabled(true);
        c.setFederationPort(7901);
        c.setFederationSubnet(QStringLiteral("10.0.0.0/8"));
        c.upsertRemote({QStringLiteral("10.0.0.2"), 7900, QStringLiteral("a")});
        c.setMdnsEnabled(true);
        c.setStartupTimeoutMs(20000);
        c.setBrokerValue(QStringLiteral("rate_limit_per_minute"), 120);
        QVERIFY(c.save(path));
        QCOMPARE(modeOf(path), 0600);

        const QByteArray text = readRaw(path);
        QVERIFY(text.endsWith("}\n"));
        QVERIFY(!text.endsWith("\n\n"));
        QVERIFY(text.contains("\n  \"federation\": {\n    \"enabled\": true,"));
        QVERIFY(!text.contains("\n    \"federation\""));

        const ConfigFile back = ConfigFile::load(path);
        QVERIFY(back.warning().isEmpty());
        QCOMPARE(back.root(), c.root());
        QCOMPARE(back.federationPort(), std::optional<int>(7901));
        QCOMPARE(back.remotes().size(), 1);
        QCOMPARE(back.rateLimitPerMinute(), std::optional<int>(120));
    }

    void saveKeepsUnknownKeysAndTightensMode()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        writeRaw(path, R"({"custom":{"a":[1,2,{"b":null}]},"federation":{"enabled":false}})");
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
        ConfigFile c = ConfigFile::load(path);
        c.setFederationEnabled(true);
        QVERIFY(c.save(path));
        QCOMPARE(modeOf(path), 0600);
        const QJsonObject root = QJsonDocument::fromJson(readRaw(path)).object();
        QCOMPARE(root.value(QStringLiteral("custom")).toObject().value(QStringLiteral("a")).toArray().size(),
                 3);
        QCOMPARE(
            root.value(QStringLiteral("federation")).toObject().value(QStringLiteral("enabled")).toBool(),
            true);
    }

    void remotesUpsertAndRemoveByHostAndPort()
    {
        ConfigFile c;
        c.upsertRemote({QStringLiteral("h"), 7900, QStringLiteral("one")});
        c.upsertRemote({QStringLiteral("h"), 7901, QStringLiteral("two")});
        c.upsertRemote({QStringLiteral("h"), 7900, QStringLiteral("renamed")});
        QCOMPARE(c.remotes().size(), 2);
        QCOMPARE(c.remotes().at(0).label, QStringLiteral("renamed"));
        QVERIFY(!c.removeRemote(QStringLiteral("h"), 7999));
        QVERIFY(c.removeRemote(QStringLiteral("h"), 7900));
        QCOMPARE(c.remotes().size(), 1);
        QCOMPARE(c.remotes().at(0).port, 7901);
    }

    void subnetsAsListWithThe07SingleSubnetKept()
    {
        ConfigFile old(
            QJsonDocument::fromJson(R"({"federation":{"subnet":"192.168.1.0/24, 10.0.0.0/8"}})").object());
        QCOMPARE(old.federationSubnets(),
                 QStringList({QStringLiteral("192.168.1.0/24"), QStringLiteral("10.0.0.0/8")}));
        ConfigFile c(
            QJsonDocument::fromJson(R"({"federation":{"subnet":"1.2.3.0/24","port":7901}})").object());
        c.setFederationSubnets({QStringLiteral("10.1.0.0/16"), QStringLiteral("fd00::/8")});
        QCOMPARE(c.federationSubnets(),
                 QStringList({QStringLiteral("10.1.0.0/16"), QStringLiteral("fd00::/8")}));
        QCOMPARE(c.federationSubnet(), QStringLiteral("10.1.0.0/16")); // what 0.7 reads
        QCOMPARE(c.federationPort(), 7901);
        // A subnets list wins over the single key; junk entries are skipped.
        ConfigFile both(
            QJsonDocument::fromJson(R"({"federation":{"subnet":"1.2.3.0/24","subnets":["5.6.0.0/16",3,""]}})")
                .object());
        QCOMPARE(both.federationSubnets(), QStringList({QStringLiteral("5.6.0.0/16")}));
        c.setFederationSubnets({});
        QVERIFY(c.federationSubnets().isEmpty());
        QVERIFY(!c.federationSubnet());
        QCOMPARE(ConfigFile().federationSubnets(), QStringList());
    }

    void acceptLegacyAndPins()
    {
        ConfigFile c;
        QVERIFY(!c.acceptLegacy());
        c.setAcceptLegacy(false);
        QCOMPARE(c.acceptLegacy(), false);
        c.upsertRemote({QStringLiteral("h"), 7900, QStringLiteral("one")});
        c.setPin(QStringLiteral("h"), 7900, QStringLiteral("sha256-AAAA"));
        c.setPin(QStringLiteral("h"), 7901, QStringLiteral("sha256-BBBB"));
        c.setPin(QStringLiteral("h"), 7900, QStringLiteral("sha256-CCCC"));
        QCOMPARE(c.pins().size(), 2);
        QCOMPARE(c.pins().value(QStringLiteral("h:7900")), QStringLiteral("sha256-CCCC"));
        QVERIFY(c.removePin(QStringLiteral("h"), 7901));
        QVERIFY(!c.removePin(QStringLiteral("h"), 7901));
        QCOMPARE(c.pins().size(), 1);
        QCOMPARE(c.remotes().size(), 1); // pins live beside the remotes, not in them
        ConfigFile typed(
            QJsonDocument::fromJson(R"({"federation":{"accept_legacy":"no","pins":{"a:1":5}}})").object());
        QVERIFY(!typed.acceptLegacy());
        QVERIFY(typed.pins().isEmpty());
    }

    void saveIntoMissingDirectoryFails()
    {
        QTemporaryDir dir;
        auto saved = ConfigFile().save(dir.filePath(QStringLiteral("no/dir/c.json")));
        QVERIFY(!saved);
        QCOMPARE(saved.error().kind, Broker::ErrorKind::ConfigUnwritable);
    }

    void twoSpaceJsonOfNestedValues()
    {
        const QJsonObject o {{QStringLiteral("a"),
                              QJsonArray {1, QJsonObject {{QStringLiteral("b"), QStringLiteral("  x  ")}}}}};
        const QByteArray text = Broker::toTwoSpaceJson(QJsonDocument(o));
        QCOMPARE(text, QByteArray("{\n  \"a\": [\n    1,\n    {\n      \"b\": \"  x  \"\n    }\n  ]\n}\n"));
    }
};

QTEST_GUILESS_MAIN(tst_ConfigFile)
#include "tst_configfile.moc"
