// `claude-peers notifications`, the real binary on a temp HOME: it edits the "notifications" object
// of ~/.claude-peers-config.json that the tray reads (no broker needed), prints the result as text
// or --json, keeps the file's other keys, and refuses bad input in plain words, changing nothing.
#include "app/tray/notifications/notificationpreferences.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

using namespace Qt::StringLiterals;
using TestSupport::RunResult;

class tst_NotificationsCommand : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

    QString configPath() const { return m_home.filePath(u".claude-peers-config.json"_s); }

    RunResult cli(const QStringList &args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &name : env.keys())
            if (name.startsWith(u"CLAUDE_PEERS_"_s))
                env.remove(name);
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(TestSupport::freePort())); // no broker there
        return TestSupport::run(TestSupport::cliExe(), QStringList {u"notifications"_s} + args, env);
    }

    QJsonObject json(const QStringList &args)
    {
        const RunResult r = cli(args + QStringList {u"--json"_s});
        [&] { QVERIFY2(r.exitCode == 0, r.err.constData()); }();
        return QJsonDocument::fromJson(r.out).object();
    }

    QByteArray file() const
    {
        QFile f(configPath());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!TestSupport::cliExe().isEmpty());
        QVERIFY(m_home.isValid());
    }

    void init() { QFile::remove(configPath()); }

    // 50 commands at once, each muting another peer: every mute is kept (they take the config
    // file's lock; before, each rewrote the file from what it had read and 1 of 20 survived).
    void concurrentEditsAreAllKept()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &name : env.keys())
            if (name.startsWith(u"CLAUDE_PEERS_"_s))
                env.remove(name);
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(TestSupport::freePort()));
        QFile other(configPath()); // a key of someone else's, which must survive too
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write(R"({"federation":{"pins":{"h:7900":"sha256-kept"}}})");
        other.close();
        constexpr int Count = 50;
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < Count; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(env);
            p->start(TestSupport::cliExe(), {u"notifications"_s, u"mute"_s, u"peer%1"_s.arg(i)});
            processes.push_back(std::move(p));
        }
        for (auto &p : processes) {
            QVERIFY(p->waitForFinished(TestSupport::scaled(30000)));
            QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
        }
        const auto saved = App::NotificationPreferences::load(configPath());
        QVERIFY(saved);
        QCOMPARE(saved->mutedPeers.size(), Count);
        for (int i = 0; i < Count; ++i)
            QVERIFY(saved->mutedPeers.contains(u"peer%1"_s.arg(i)));
        QVERIFY(file().contains("sha256-kept"));
    }

    void statusWithoutAFile()
    {
        const RunResult r = cli({});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Notifications: on\nQuiet hours: none\n"), r.out.constData());
        QVERIFY(r.out.contains("Kinds off: peer_joined peer_left\n"));
        QVERIFY(!QFile::exists(configPath())); // status writes nothing

        const QJsonObject status = json({u"status"_s});
        QCOMPARE(status.value(u"config_file"_s).toString(), configPath());
        QCOMPARE(status.value(u"enabled"_s).toBool(), true);
        QCOMPARE(status.value(u"paused"_s).toBool(), false);
        QVERIFY(status.value(u"quiet_hours"_s).isNull());
        QCOMPARE(status.value(u"kinds"_s).toObject().value(u"needs_you"_s).toBool(), true);
        QCOMPARE(status.value(u"kinds"_s).toObject().value(u"peer_joined"_s).toBool(), false);
    }

    void editsTheSamePreferencesTheTrayReads()
    {
        QFile f(configPath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"federation": {"enabled": true, "port": 7901}})");
        f.close();

        QCOMPARE(json({u"mute"_s, u"p1"_s}).value(u"muted_peers"_s).toArray(), QJsonArray {u"p1"_s});
        QCOMPARE(json({u"quiet-hours"_s, u"22:00-07:00"_s}).value(u"quiet_hours"_s).toString(),
                 u"22:00-07:00"_s);
        QCOMPARE(
            json({u"kind"_s, u"peer_left"_s, u"on"_s}).value(u"kinds"_s).toObject().value(u"peer_left"_s),
            QJsonValue(true));
        QCOMPARE(json({u"only-waiting"_s, u"on"_s}).value(u"only_waiting_for_me"_s), QJsonValue(true));

        const QDateTime before = QDateTime::currentDateTimeUtc();
        QJsonObject status = json({u"pause"_s, u"--for"_s, u"2h"_s});
        QCOMPARE(status.value(u"paused"_s), QJsonValue(true));
        const QDateTime until =
            QDateTime::fromString(status.value(u"paused_until"_s).toString(), Qt::ISODate);
        QVERIFY(until >= before.addSecs(7200 - 1) &&
                until <= QDateTime::currentDateTimeUtc().addSecs(7200 + 1));

        // What the tray reads (NotificationPreferences::load) is what the CLI wrote.
        auto p = App::NotificationPreferences::load(configPath());
        QVERIFY(p);
        QCOMPARE(p->mutedPeers, QStringList {u"p1"_s});
        QCOMPARE(p->quietHours->toText(), u"22:00-07:00"_s);
        QVERIFY(p->kindEnabled(App::NotificationKind::PeerLeft));
        QVERIFY(p->onlyWaitingForYou);
        QVERIFY(p->isPaused(QDateTime::currentDateTimeUtc()));
        QVERIFY(!p->isPaused(until));
        QVERIFY2(file().contains("\"port\": 7901"), file().constData()); // the other keys are kept

        status = json({u"pause"_s});
        QCOMPARE(status.value(u"paused"_s), QJsonValue(true));
        QVERIFY(status.value(u"paused_until"_s).isNull()); // until resumed
        QCOMPARE(cli({u"status"_s}).out.left(40), QByteArray("Notifications: paused until resumed\nQuie"));
        QCOMPARE(json({u"resume"_s}).value(u"paused"_s), QJsonValue(false));
        QCOMPARE(json({u"unmute"_s, u"p1"_s}).value(u"muted_peers"_s).toArray(), QJsonArray());
        QCOMPARE(json({u"quiet-hours"_s, u"off"_s}).value(u"quiet_hours"_s), QJsonValue(QJsonValue::Null));
        QCOMPARE(json({u"off"_s}).value(u"enabled"_s), QJsonValue(false));
        QVERIFY(cli({}).out.startsWith("Notifications: off"));
        QCOMPARE(json({u"on"_s}).value(u"enabled"_s), QJsonValue(true));
    }

    void refusesBadInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown action") << QStringList {u"snooze"_s} << u"Unknown action 'snooze'"_s;
        QTest::newRow("mute without peer") << QStringList {u"mute"_s} << u"notifications mute <peer-id>"_s;
        QTest::newRow("bad quiet hours") << QStringList {u"quiet-hours"_s, u"22-7"_s} << u"HH:MM-HH:MM"_s;
        QTest::newRow("bad duration")
            << QStringList {u"pause"_s, u"--for"_s, u"soon"_s} << u"'soon' is not a duration"_s;
        QTest::newRow("too long") << QStringList {u"pause"_s, u"--for"_s, u"60d"_s}
                                  << u"longer than 30 days"_s;
        QTest::newRow("--for without pause")
            << QStringList {u"resume"_s, u"--for"_s, u"1h"_s} << u"--for goes with pause only"_s;
        QTest::newRow("unknown kind")
            << QStringList {u"kind"_s, u"weather"_s, u"on"_s} << u"Unknown kind 'weather'"_s;
        QTest::newRow("kind not on/off")
            << QStringList {u"kind"_s, u"needs_you"_s, u"yes"_s} << u"Say on or off, not 'yes'"_s;
        QTest::newRow("extra argument") << QStringList {u"resume"_s, u"now"_s} << u"notifications resume"_s;
    }

    void refusesBadInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const RunResult r = cli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFile::exists(configPath()));
    }

    void leavesAMalformedConfigAlone()
    {
        QFile f(configPath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ broken");
        f.close();
        const RunResult r = cli({u"mute"_s, u"p1"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not valid JSON") && r.err.contains("nothing was changed"),
                 r.err.constData());
        QCOMPARE(file(), QByteArray("{ broken"));
    }
};

QTEST_GUILESS_MAIN(tst_NotificationsCommand)
#include "tst_notificationscommand.moc"
