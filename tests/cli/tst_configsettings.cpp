// Broker::ConfigSettings: the settings table shared by `claude-peers config` and the tray's
// Settings page — checks in plain words, writes that keep the rest of the file.
#include "common/configsettings.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Broker;

class tst_ConfigSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void checksValues_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error"); // "" = accepted; else a part of the message
        QTest::newRow("port") << "federation.port"
                              << "7901"
                              << "";
        QTest::newRow("port with spaces") << " federation.port"
                                          << "7901"
                                          << "Unknown setting";
        QTest::newRow("port zero") << "federation.port"
                                   << "0"
                                   << "from 1 to 65535";
        QTest::newRow("port too big") << "federation.port"
                                      << "65536"
                                      << "from 1 to 65535";
        QTest::newRow("port words") << "federation.port"
                                    << "seven"
                                    << "got \"seven\"";
        QTest::newRow("port empty removes") << "federation.port"
                                            << ""
                                            << "";
        QTest::newRow("subnets") << "federation.subnets"
                                 << "192.168.1.0/24, 10.0.0.0/8,fd00::/64"
                                 << "";
        QTest::newRow("subnet without prefix") << "federation.subnets"
                                               << "192.168.1.0"
                                               << "has no /prefix";
        QTest::newRow("subnet octet") << "federation.subnets"
                                      << "192.168.1.300/24"
                                      << "0-255";
        QTest::newRow("subnet v4 prefix") << "federation.subnets"
                                          << "10.0.0.0/33"
                                          << "at most 32";
        QTest::newRow("subnet v6 prefix") << "federation.subnets"
                                          << "fd00::/129"
                                          << "at most 128";
        QTest::newRow("subnet name") << "federation.subnets"
                                     << "office/24"
                                     << "not an IPv4 or IPv6";
        QTest::newRow("subnet prefix words") << "federation.subnets"
                                             << "10.0.0.0/x"
                                             << "must be a number";
        QTest::newRow("subnet double ::") << "federation.subnets"
                                          << "fd00::1::/64"
                                          << "not an IPv4 or IPv6";
        QTest::newRow("url") << "openchamber.opencode_url"
                             << "http://127.0.0.1:4100"
                             << "";
        QTest::newRow("https url") << "openchamber.opencode_url"
                                   << "https://box.lan:4096/"
                                   << "";
        QTest::newRow("url without scheme") << "openchamber.opencode_url"
                                            << "127.0.0.1:4096"
                                            << "http(s) URL";
        QTest::newRow("ftp url") << "openchamber.opencode_url"
                                 << "ftp://x"
                                 << "http(s) URL";
        QTest::newRow("unknown key") << "broker.port"
                                     << "1"
                                     << "Unknown setting";
    }
    void checksValues()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        const auto done = ConfigSettings::setInFile(path, key, value);
        if (error.isEmpty()) {
            QVERIFY2(done.has_value(), qPrintable(done ? QString() : done.error().message));
            const ConfigFile config = ConfigFile::load(path);
            QString shown = ConfigSettings::get(config, *ConfigSettings::find(key));
            QCOMPARE(shown.remove(QLatin1Char(' ')), QString(value).remove(QLatin1Char(' ')));
        } else {
            QVERIFY(!done);
            QVERIFY2(done.error().message.contains(error), qPrintable(done.error().message));
            QVERIFY(!QFile::exists(path)); // nothing written
        }
    }

    void keepsTheRestOfTheFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"federation":{"enabled":true,"port":7900,"remotes":[{"host":"a","port":7900}]},)"
                   R"("openchamber":{"projects":[{"name":"x"}]},"custom":{"k":[1,2]}})");
        file.close();
        QVERIFY(ConfigSettings::setInFile(path, QStringLiteral("federation.port"), QStringLiteral("7901")));
        QVERIFY(ConfigSettings::setInFile(path, QStringLiteral("openchamber.opencode_url"),
                                          QStringLiteral("http://127.0.0.1:4100")));
        const QJsonObject root = ConfigFile::load(path).root();
        QCOMPARE(root.value(QStringLiteral("federation")).toObject().value(QStringLiteral("port")).toInt(),
                 7901);
        QVERIFY(
            root.value(QStringLiteral("federation")).toObject().value(QStringLiteral("enabled")).toBool());
        QCOMPARE(root.value(QStringLiteral("federation"))
                     .toObject()
                     .value(QStringLiteral("remotes"))
                     .toArray()
                     .size(),
                 1);
        QCOMPARE(root.value(QStringLiteral("openchamber"))
                     .toObject()
                     .value(QStringLiteral("projects"))
                     .toArray()
                     .size(),
                 1);
        QCOMPARE(root.value(QStringLiteral("custom")).toObject().value(QStringLiteral("k")).toArray().size(),
                 2);
        QVERIFY(ConfigSettings::setInFile(path, QStringLiteral("federation.port"), QString()));
        QVERIFY(!ConfigFile::load(path)
                     .root()
                     .value(QStringLiteral("federation"))
                     .toObject()
                     .contains(QStringLiteral("port")));
    }

    void refusesToRewriteABrokenFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ not json");
        file.close();
        const auto done =
            ConfigSettings::setInFile(path, QStringLiteral("federation.port"), QStringLiteral("7901"));
        QVERIFY(!done);
        QVERIFY(done.error().message.contains(
            QStringLiteral("Fix or remove %1, then try again (nothing was changed)").arg(path)));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{ not json")); // untouched
    }
};

QTEST_GUILESS_MAIN(tst_ConfigSettings)
#include "tst_configsettings.moc"
