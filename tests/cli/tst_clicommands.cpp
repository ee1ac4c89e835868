// Unit tests of the CLI library: argument parsing, the command table, the text formats, and
// whole command lines run in-process with in-memory streams (no broker; a free port).
#include "app/cli/command.h"
#include "app/cli/context.h"
#include "app/cli/formatting.h"

#include "tests/support/testsupport.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct InProcessRun
{
    int code = -1;
    QString out;
    QString err;
};

InProcessRun runInProcess(const QStringList &args)
{
    QTemporaryDir home;
    QProcessEnvironment env;
    env.insert(u"HOME"_s, home.path());
    env.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(TestSupport::freePort()));
    env.insert(u"CLAUDE_PEERS_DB"_s, home.filePath(u"db"_s));
    env.insert(u"CLAUDE_PEERS_TOKEN"_s, home.filePath(u"token"_s));
    QBuffer out;
    QBuffer err;
    out.open(QIODevice::WriteOnly);
    err.open(QIODevice::WriteOnly);
    Cli::Context context(env, &out, &err, home.path());
    QSignalSpy finished(&context, &Cli::Context::finished);
    Cli::dispatch(context, args);
    InProcessRun r;
    if (finished.isEmpty() && !finished.wait(TestSupport::scaled(10000)))
        return r;
    r.code = finished.first().first().toInt();
    r.out = QString::fromUtf8(out.data());
    r.err = QString::fromUtf8(err.data());
    return r;
}

QJsonObject parseObject(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

} // namespace

class tst_CliCommands : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableHasHelpForEveryCommand()
    {
        const QString usage = Cli::globalUsage();
        QVERIFY(Cli::commands().size() >= 13);
        for (const Cli::Command &c : Cli::commands()) {
            const QString name = QLatin1String(c.name);
            QCOMPARE(Cli::findCommand(name), &c);
            QVERIFY2(usage.contains(u"  "_s + name), qPrintable(name));
            const QString help = Cli::commandHelp(c);
            QVERIFY(help.startsWith(u"Usage: claude-peers "_s + name));
            QVERIFY(help.contains(u"Exit codes: 0 ok, 1 usage error, 2 broker not reachable"_s));
            QVERIFY(c.run);
        }
        QVERIFY(!Cli::findCommand(u"Status"_s));
        QVERIFY(!Cli::findCommand(QString()));
        QVERIFY(usage.contains(u"Exit codes:"_s));
        QCOMPARE(Cli::versionText(), u"claude-peers "_s + QLatin1String(PEERS_VERSION));
    }

    void parsesArguments_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QStringList>("positional");
        QTest::addColumn<QString>("options"); // "name=value;flag" sorted
        QTest::newRow("flag") << u"status"_s << QStringList {u"--json"_s} << true << QStringList {}
                              << u"json"_s;
        QTest::newRow("help") << u"status"_s << QStringList {u"-h"_s} << true << QStringList {} << u""_s;
        QTest::newRow("unknown option")
            << u"status"_s << QStringList {u"--bogus"_s} << false << QStringList {} << u""_s;
        QTest::newRow("short option")
            << u"status"_s << QStringList {u"-j"_s} << false << QStringList {} << u""_s;
        QTest::newRow("extra positional")
            << u"status"_s << QStringList {u"x"_s} << false << QStringList {} << u""_s;
        QTest::newRow("value separate") << u"messages"_s << QStringList {u"--from"_s, u"ab"_s, u"--json"_s}
                                        << true << QStringList {} << u"from=ab;json"_s;
        QTest::newRow("value inline")
            << u"messages"_s << QStringList {u"--limit=5"_s} << true << QStringList {} << u"limit=5"_s;
        QTest::newRow("value missing")
            << u"messages"_s << QStringList {u"--from"_s} << false << QStringList {} << u""_s;
        QTest::newRow("flag with value")
            << u"metrics"_s << QStringList {u"--detailed=1"_s} << false << QStringList {} << u""_s;
        QTest::newRow("free text keeps dashes")
            << u"send"_s << QStringList {u"abc"_s, u"--json"_s, u"-5"_s, u"degrees"_s} << true
            << QStringList {u"abc"_s, u"--json"_s, u"-5"_s, u"degrees"_s} << u""_s;
        QTest::newRow("double dash") << u"send"_s << QStringList {u"--"_s, u"-id"_s, u"hi"_s} << true
                                     << QStringList {u"-id"_s, u"hi"_s} << u""_s;
        QTest::newRow("too few") << u"send"_s << QStringList {u"abc"_s} << false << QStringList {} << u""_s;
        QTest::newRow("lone dash is positional")
            << u"send"_s << QStringList {u"-"_s, u"x"_s} << true << QStringList {u"-"_s, u"x"_s} << u""_s;
        QTest::newRow("auto-summary two ids")
            << u"auto-summary"_s << QStringList {u"a"_s, u"b"_s} << false << QStringList {} << u""_s;
        QTest::newRow("federation anything") << u"federation"_s << QStringList {u"join"_s, u"cpt://x"_s}
                                             << true << QStringList {u"join"_s, u"cpt://x"_s} << u""_s;
    }
    void parsesArguments()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        QFETCH(QStringList, positional);
        QFETCH(QString, options);
        const Cli::Command *c = Cli::findCommand(command);
        QVERIFY(c);
        auto inv = Cli::parseInvocation(*c, args);
        QCOMPARE(bool(inv), ok);
        if (!ok) {
            QCOMPARE(inv.error().kind, Broker::ErrorKind::Usage);
            return;
        }
        QCOMPARE(inv->positional, positional);
        QStringList seen;
        for (auto it = inv->values.cbegin(); it != inv->values.cend(); ++it)
            seen << it.key() + u'=' + it.value();
        for (const QString &f : inv->flags)
            seen << f;
        seen.sort();
        QCOMPARE(seen.join(u';'), options);
    }

    void statusSecretsFormat_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<int>("failedWith"); // an HTTP status instead of the answer
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("keychain")
            << uR"({"local_token":{"store":"keychain","where":"Secret Service","token_file":"/h/.t"}})"_s << 0
            << QStringList {u"Secrets: local token in the OS keychain (Secret Service); token file /h/.t"_s};
        QTest::newRow("file with a note")
            << uR"({"local_token":{"store":"file","where":"/h/.t","token_file":"/h/.t","note":"No OS keychain."}})"_s
            << 0 << QStringList {u"Secrets: local token in the file /h/.t"_s, u"         No OS keychain."_s};
        QTest::newRow("0.7 broker") << u"Broker error (/secrets): 404 not found"_s << 404
                                    << QStringList {
                                           u"Secrets: not reported by this broker (a 0.7 broker keeps "
                                           u"the token in the file /cli/.t)"_s};
        QTest::newRow("asking failed")
            << u"Unauthorized"_s << 401 << QStringList {u"Secrets: unknown (Unauthorized)"_s};
    }
    void statusSecretsFormat()
    {
        QFETCH(QString, answer);
        QFETCH(int, failedWith);
        QFETCH(QStringList, lines);
        const Broker::Result<Broker::SecretsAnswer> secrets = failedWith
            ? Broker::Result<Broker::SecretsAnswer>(
                  std::unexpected(Broker::Error {Broker::ErrorKind::Http, answer, failedWith}))
            : Broker::SecretsAnswer::fromJson(parseObject(answer.toUtf8()));
        QCOMPARE(Cli::Format::statusSecrets(secrets, u"/cli/.t"_s), lines);
    }

    void statusFormat()
    {
        const Broker::HealthAnswer health = *Broker::HealthAnswer::fromJson(
            parseObject(R"({"status":"ok","peers":2,"pid":77,"version":"0.8.0"})"));
        QCOMPARE(Cli::Format::statusHeader(health, u"http://127.0.0.1:7899"_s),
                 (QStringList {u"Broker: ok (2 peer(s) registered)"_s, u"URL: http://127.0.0.1:7899"_s,
                               u"Version: 0.8.0  PID: 77"_s}));
        // A reference broker's /health has neither pid nor version.
        QCOMPARE(Cli::Format::statusHeader(
                     *Broker::HealthAnswer::fromJson(parseObject(R"({"status":"ok","peers":0})")), u"u"_s)
                     .size(),
                 2);

        const QList<Broker::Peer> peers = *Broker::peersFromJson(QJsonDocument::fromJson(R"([
            {"id":"d92a5e28","pid":10,"cwd":"/p","session_name":"AUTH","summary":"doing x","tty":"pts/4",
             "last_seen":"2026-03-27T12:00:00.000Z"},
            {"id":"478e3862","pid":11,"cwd":"/q","session_name":"","summary":"","tty":null,"last_seen":"L",
             "client":"opencode","delivery":"banner"}])")
                                                                     .array());
        QCOMPARE(Cli::Format::statusPeers(peers),
                 (QStringList {u""_s, u"Peers:"_s, u"  d92a5e28 [AUTH]  PID:10  /p"_s, u"         doing x"_s,
                               u"         TTY: pts/4"_s, u"         Last seen: 2026-03-27T12:00:00.000Z"_s,
                               u"  478e3862  PID:11  /q"_s, u"         Client: OpenCode"_s,
                               u"         Last seen: L"_s}));
        QCOMPARE(
            Cli::Format::peerList(peers),
            (QStringList {u"d92a5e28 [AUTH]  PID:10  /p"_s, u"  Summary: doing x"_s,
                          u"478e3862  PID:11  /q"_s, u"  Client: OpenCode"_s,
                          u"  Delivery: banner (shown at the session's next claude-peers tool call)"_s}));
        QCOMPARE(Cli::Format::peerList({}), QStringList {u"No peers registered."_s});
    }

    void uptime_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative") << qint64(-5) << u"0s"_s;
        QTest::newRow("seconds") << qint64(59) << u"59s"_s;
        QTest::newRow("minute") << qint64(60) << u"1m"_s;
        QTest::newRow("hour flat") << qint64(3600) << u"1h"_s;
        QTest::newRow("hour minutes") << qint64(3600 + 15 * 60 + 59) << u"1h 15m"_s;
        QTest::newRow("day flat") << qint64(86400) << u"1d"_s;
        QTest::newRow("days hours") << qint64(2 * 86400 + 3 * 3600 + 5) << u"2d 3h"_s;
    }
    void uptime()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, expected);
        QCOMPARE(Cli::Format::uptime(seconds), expected);
    }

    void metricsFormat()
    {
        const Broker::MetricsAnswer m =
            *Broker::MetricsAnswer::fromJson(parseObject(R"({"uptime_seconds":3600,"peer_count":3,
            "messages":{"total":120,"delivered":118,"pending":2,"delivery_rate_pct":98.33},
            "requests_per_minute":42,"federation":{"enabled":true,"remote_count":1,"remote_peer_count":2},
            "peers":[{"id":"d92a5e28","name":"AUTH_WORKER","cwd":"/x","channel_push":"working",
                      "registered_at":"r","last_seen":"s"}]})"));
        const QStringList lines = Cli::Format::metrics(m, true);
        QVERIFY(lines.contains(u"  Broker Metrics:"_s));
        QVERIFY(lines.contains(u"    Uptime:              1h"_s));
        QVERIFY(lines.contains(u"    Peers:               3"_s));
        QVERIFY(lines.contains(u"    Requests/min:        42"_s));
        QVERIFY(lines.contains(u"    Delivery rate:       98.33%"_s));
        QVERIFY(lines.contains(u"    Enabled:             true"_s));
        QVERIFY(lines.contains(u"    Remote peers:        2"_s));
        QVERIFY(lines.contains(u"    AUTH_WORKER (d92a5e28)"_s));
        QVERIFY(lines.contains(u"      push: working  last_seen: s"_s));
        QVERIFY(!Cli::Format::metrics(m, false).contains(u"  Peers (detailed):"_s));
    }

    void messagesFormat()
    {
        QCOMPARE(Cli::Format::messageTime(u"2026-01-01T00:01:00.000Z"_s), u"2026-01-01 00:01:00"_s);
        QCOMPARE(Cli::Format::messageTime(u"2026-01-01T00:01:00Z"_s), u"2026-01-01 00:01:00Z"_s);
        QCOMPARE(Cli::Format::messageList({}), QStringList {u"No messages found."_s});
        const QString longText(130, u'x');
        const QList<Broker::Message> list =
            *Broker::messagesFromJson(QJsonArray {QJsonObject {{u"id"_s, 2},
                                                               {u"from_id"_s, u"peer2"_s},
                                                               {u"to_id"_s, u"peer1"_s},
                                                               {u"text"_s, longText},
                                                               {u"type"_s, u"response"_s},
                                                               {u"sent_at"_s, u"2026-01-01T00:01:00.000Z"_s},
                                                               {u"delivered"_s, false}},
                                                  QJsonObject {{u"id"_s, 1},
                                                               {u"from_id"_s, u"peer1"_s},
                                                               {u"to_id"_s, u"peer2"_s},
                                                               {u"text"_s, u"hello world"_s},
                                                               {u"type"_s, u"text"_s},
                                                               {u"sent_at"_s, u"2026-01-01T00:00:00.000Z"_s},
                                                               {u"delivered"_s, 1}}});
        QCOMPARE(
            Cli::Format::messageList(list),
            (QStringList {u""_s, u"  Messages (2 results):"_s, u""_s,
                          u"  #2  2026-01-01 00:01:00  [response] pending"_s,
                          u"    From: peer2  \u2192  To: peer1"_s, u"    "_s + longText.left(120) + u"..."_s,
                          u""_s, u"  #1  2026-01-01 00:00:00  [text] delivered"_s,
                          u"    From: peer1  \u2192  To: peer2"_s, u"    hello world"_s, u""_s}));
        QVERIFY(Cli::Format::messageList({list.at(1)}).contains(u"  Messages (1 result):"_s));
    }

    void scalarsAndJson()
    {
        QCOMPARE(Cli::Format::scalar(QJsonValue(98.33)), u"98.33"_s);
        QCOMPARE(Cli::Format::scalar(QJsonValue(100.0)), u"100"_s);
        QCOMPARE(Cli::Format::scalar(QJsonValue(0.1 + 0.2)), u"0.30000000000000004"_s);
        QCOMPARE(Cli::Format::scalar(QJsonValue(true)), u"true"_s);
        QCOMPARE(Cli::Format::scalar(QJsonValue()), u"null"_s);
        QCOMPARE(Cli::Format::scalar(QJsonValue(QJsonValue::Undefined)), u"undefined"_s);
        QCOMPARE(Cli::Format::scalar(QJsonArray {1, 2}), u"[1,2]"_s);
        QCOMPARE(Cli::Format::prettyJson(QJsonArray {1}), QByteArray("[\n  1\n]\n"));
        QCOMPARE(Cli::Format::prettyJson(QJsonObject {{u"a"_s, QJsonObject {{u"b"_s, 1}}}}),
                 QByteArray("{\n  \"a\": {\n    \"b\": 1\n  }\n}\n"));
    }

    void dispatchUsageAndVersion_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("outContains");
        QTest::addColumn<QString>("errContains");
        QTest::newRow("no command") << QStringList {} << 1 << u""_s << u"Usage: claude-peers <command>"_s;
        QTest::newRow("--help") << QStringList {u"--help"_s} << 0 << u"Usage: claude-peers <command>"_s
                                << u""_s;
        QTest::newRow("help send") << QStringList {u"help"_s, u"send"_s} << 0 << u"Usage: claude-peers send"_s
                                   << u""_s;
        QTest::newRow("send --help") << QStringList {u"send"_s, u"--help"_s} << 0
                                     << u"Usage: claude-peers send"_s << u""_s;
        QTest::newRow("--version") << QStringList {u"--version"_s} << 0 << u"claude-peers "_s << u""_s;
        QTest::newRow("-V") << QStringList {u"-V"_s} << 0 << u"claude-peers "_s << u""_s;
        QTest::newRow("unknown") << QStringList {u"frobnicate"_s} << 1 << u""_s
                                 << u"Unknown command: frobnicate"_s;
        QTest::newRow("send no args")
            << QStringList {u"send"_s} << 1 << u""_s << u"Usage: claude-peers send <peer-id> <message>"_s;
        QTest::newRow("bad scope") << QStringList {u"broadcast"_s, u"lan"_s, u"hi"_s} << 1 << u""_s
                                   << u"Unknown scope: lan"_s;
        QTest::newRow("bad limit") << QStringList {u"messages"_s, u"--limit"_s, u"1001"_s} << 1 << u""_s
                                   << u"--limit needs a whole number"_s;
        QTest::newRow("bad since") << QStringList {u"messages"_s, u"--since"_s, u"yesterday"_s} << 1 << u""_s
                                   << u"--since needs an ISO-8601 time"_s;
        QTest::newRow("federation status, no broker")
            << QStringList {u"federation"_s, u"status"_s} << 2 << u"Broker is not running."_s
            << u"Error: Broker not reachable at http://127.0.0.1:"_s;
        QTest::newRow("federation help")
            << QStringList {u"federation"_s, u"--help"_s} << 0 << u"Subcommands: init"_s << u""_s;
        QTest::newRow("federation bare") << QStringList {u"federation"_s} << 1 << u""_s
                                         << u"  connect <host>:<port> [--fingerprint sha256-...]"_s;
        QTest::newRow("federation unknown") << QStringList {u"federation"_s, u"frob"_s} << 1 << u""_s
                                            << u"Unknown federation subcommand: frob"_s;
        QTest::newRow("federation connect bad port")
            << QStringList {u"federation"_s, u"connect"_s, u"host:99999"_s} << 1 << u""_s
            << u"Invalid port in \"host:99999\". Expected <host>:<port>."_s;
        QTest::newRow("federation connect no port")
            << QStringList {u"federation"_s, u"connect"_s, u"host"_s} << 1 << u""_s << u"Invalid port in"_s;
        QTest::newRow("federation connect two targets")
            << QStringList {u"federation"_s, u"connect"_s, u"a:1"_s, u"b:2"_s} << 1 << u""_s
            << u"Usage: claude-peers federation connect"_s;
        QTest::newRow("federation join bad url")
            << QStringList {u"federation"_s, u"join"_s, u"http://h:7900/x"_s} << 1 << u""_s
            << u"Error: Invalid URL format. Expected cpt://<host>:<port>/<token>"_s;
        QTest::newRow("federation join no token")
            << QStringList {u"federation"_s, u"join"_s, u"cpt://h:7900/"_s} << 1 << u""_s
            << u"Invalid URL format"_s;
        QTest::newRow("federation enable bad port")
            << QStringList {u"federation"_s, u"enable"_s, u"0"_s} << 1 << u""_s << u"Invalid port \"0\""_s;
        QTest::newRow("federation enable bad subnet")
            << QStringList {u"federation"_s, u"enable"_s, u"7901"_s, u"10.0.0.0/33"_s} << 1 << u""_s
            << u"Invalid subnet \"10.0.0.0/33\""_s;
        QTest::newRow("federation init bad subnet")
            << QStringList {u"federation"_s, u"init"_s, u"--subnet"_s, u"10.0.0.0/8,nope"_s} << 1 << u""_s
            << u"Invalid subnet \"nope\""_s;
        QTest::newRow("federation option elsewhere")
            << QStringList {u"federation"_s, u"status"_s, u"--legacy"_s} << 1 << u""_s
            << u"Option --legacy does not apply to federation status"_s;
        QTest::newRow("federation refresh-wsl2") << QStringList {u"federation"_s, u"refresh-wsl2"_s} << 3
                                                 << u""_s << u"not part of this version"_s;
    }
    void dispatchUsageAndVersion()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, outContains);
        QFETCH(QString, errContains);
        const InProcessRun r = runInProcess(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.out.contains(outContains), qPrintable(r.out));
        QVERIFY2(r.err.contains(errContains), qPrintable(r.err));
        if (outContains.isEmpty())
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
        if (errContains.isEmpty())
            QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    }

    void unreachableBrokerInProcess()
    {
        const InProcessRun r = runInProcess({u"peers"_s});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.out, u"Broker is not running.\n"_s);
        QVERIFY(r.err.startsWith(u"Error: Broker not reachable at http://127.0.0.1:"_s));
    }
};

QTEST_GUILESS_MAIN(tst_CliCommands)
#include "tst_clicommands.moc"
