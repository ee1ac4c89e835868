// End-to-end tests of the real `claude-peers` binary against a real `claude-peers-broker`, each
// in its own temporary HOME on a port the OS picked.
#include "common/liveness.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using TestSupport::BrokerProcess;
using TestSupport::TestHome;

namespace {

struct CliRun
{
    int code = -1;
    QString out;
    QString err;
    QString all() const { return out + err; }
};

// The environment every CLI run gets: the home's variables, no task-master, git confined.
QProcessEnvironment cliEnvironment(const TestHome &home)
{
    QProcessEnvironment env = home.environment();
    env.insert(u"GIT_CEILING_DIRECTORIES"_s, QDir::tempPath());
    env.insert(u"GIT_CONFIG_NOSYSTEM"_s, u"1"_s);
    env.insert(u"GIT_CONFIG_GLOBAL"_s, u"/dev/null"_s);
    env.insert(u"PATH"_s, u"/usr/local/bin:/usr/bin:/bin"_s);
    return env;
}

CliRun runCli(const QProcessEnvironment &env, const QStringList &args, const QString &workingDir = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(TestSupport::cliExe(), args);
    CliRun r;
    if (!p.waitForStarted(TestSupport::scaled(5000)))
        return r;
    p.closeWriteChannel();
    if (!p.waitForFinished(TestSupport::scaled(20000))) {
        p.kill();
        p.waitForFinished(2000);
        r.err = u"(timed out)"_s;
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err += QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString describe(const CliRun &r)
{
    return u"exit %1\n--- stdout\n%2--- stderr\n%3"_s.arg(r.code).arg(r.out, r.err);
}

bool git(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"GIT_CONFIG_NOSYSTEM"_s, u"1"_s);
    env.insert(u"GIT_CONFIG_GLOBAL"_s, u"/dev/null"_s);
    p.setProcessEnvironment(env);
    p.start(u"git"_s, args);
    return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

int modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

// A live process whose pid a registered peer can carry: the broker replaces a peer that
// registers with the pid of another, and prunes peers whose pid is dead.
class LivePid
{
public:
    LivePid()
    {
        m_process.start(u"/bin/sleep"_s, {u"600"_s});
        m_process.waitForStarted(TestSupport::scaled(5000));
    }
    ~LivePid()
    {
        m_process.kill();
        m_process.waitForFinished(TestSupport::scaled(5000));
    }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
};

QString registerPeer(const TestHome &home, const QString &name, const QString &cwd,
                     qint64 pid = QCoreApplication::applicationPid())
{
    const auto r = TestSupport::httpPostJson(home.port(), u"/register"_s,
                                             QJsonObject {{u"pid"_s, pid},
                                                          {u"cwd"_s, cwd},
                                                          {u"git_root"_s, QJsonValue(QJsonValue::Null)},
                                                          {u"tty"_s, QJsonValue(QJsonValue::Null)},
                                                          {u"session_name"_s, name},
                                                          {u"summary"_s, u"first summary"_s}},
                                             home.token());
    return r.object().value(u"id"_s).toString();
}

QJsonObject peerRow(const TestHome &home, const QString &id)
{
    const auto r = TestSupport::httpPostJson(home.port(), u"/list-peers"_s,
                                             QJsonObject {{u"scope"_s, u"machine"_s},
                                                          {u"cwd"_s, u"/"_s},
                                                          {u"git_root"_s, QJsonValue(QJsonValue::Null)}},
                                             home.token());
    for (const QJsonValue &v : r.json().toArray()) {
        if (v.toObject().value(u"id"_s).toString() == id)
            return v.toObject();
    }
    return {};
}

// Kills a detached broker that a test made the CLI start, whatever happens in the test.
struct DetachedBrokerGuard
{
    qint64 pid = 0;
    ~DetachedBrokerGuard()
    {
        if (pid > 0 && Broker::Liveness::isProcessAlive(pid)) {
            ::kill(pid_t(pid), SIGTERM);
            QDeadlineTimer deadline(TestSupport::scaled(5000));
            while (Broker::Liveness::isProcessAlive(pid) && !deadline.hasExpired())
                QThread::msleep(20);
            if (Broker::Liveness::isProcessAlive(pid))
                ::kill(pid_t(pid), SIGKILL);
        }
    }
};

} // namespace

class tst_Cli : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestHome> m_home;
    std::unique_ptr<BrokerProcess> m_broker;
    QString m_peer;
    QTemporaryDir m_peerDir; // the main peer's working directory
    QString peerCwd() const { return QFileInfo(m_peerDir.path()).canonicalFilePath(); }

    QProcessEnvironment env() const { return cliEnvironment(*m_home); }

private Q_SLOTS:
    void initTestCase()
    {
        if (TestSupport::cliExe().isEmpty())
            QSKIP("claude-peers is not built");
        if (TestSupport::brokerExe().isEmpty())
            QSKIP("claude-peers-broker is not built");
        m_home = std::make_unique<TestHome>();
        m_broker = std::make_unique<BrokerProcess>(*m_home);
        QVERIFY2(m_broker->start(), m_broker->stderrOutput().constData());
        m_peer = registerPeer(*m_home, u"CLI_TEST"_s, peerCwd());
        QVERIFY(!m_peer.isEmpty());
    }

    void cleanupTestCase()
    {
        m_broker.reset();
        m_home.reset();
    }

    void linksOnlyQtCore()
    {
        QProcess p;
        p.start(u"readelf"_s, {u"-d"_s, TestSupport::cliExe()});
        QVERIFY(p.waitForFinished(10000));
        QByteArray dynamic = p.readAllStandardOutput();
        if (p.exitCode() != 0 || dynamic.isEmpty()) {
            p.start(u"objdump"_s, {u"-p"_s, TestSupport::cliExe()});
            QVERIFY(p.waitForFinished(10000));
            dynamic = p.readAllStandardOutput();
        }
        QStringList needed;
        static const QRegularExpression entry(uR"(NEEDED\)?\s+(?:Shared library: \[)?([^\]\s]+))"_s);
        for (auto it = entry.globalMatch(QString::fromUtf8(dynamic)); it.hasNext();)
            needed << it.next().captured(1);
        QVERIFY2(!needed.isEmpty(), dynamic.constData());
        for (const QString &lib : needed) {
            // docs/architecture.md: no Sql, no Widgets, and no keychain (only the broker hosts link
            // QtKeychain); no Network either: the broker client is a plain socket.
            for (const char *forbidden :
                 {"Network", "Sql", "HttpServer", "Widgets", "Gui", "keychain", "DBus", "secret", "glib"})
                QVERIFY2(!lib.contains(QLatin1String(forbidden)), qPrintable(lib));
        }
        QVERIFY(needed.contains(u"libQt6Core.so.6"_s));
    }

    void helpAndVersion()
    {
        const CliRun help = runCli(env(), {u"--help"_s});
        QCOMPARE(help.code, 0);
        for (const char *cmd : {"status", "peers", "send", "broadcast", "set-name", "rename", "auto-summary",
                                "messages", "metrics", "rotate-token", "reload-broker", "kill-broker",
                                "restart", "federation", "hook", "autostart"}) {
            QVERIFY2(help.out.contains(u"\n  "_s + QLatin1String(cmd)), cmd);
            const CliRun one = runCli(env(), {QLatin1String(cmd), u"--help"_s});
            QCOMPARE(one.code, 0);
            QVERIFY2(one.out.startsWith(u"Usage: claude-peers "_s + QLatin1String(cmd)),
                     qPrintable(describe(one)));
            QVERIFY(one.out.contains(u"Exit codes:"_s));
        }
        const CliRun version = runCli(env(), {u"--version"_s});
        QCOMPARE(version.code, 0);
        QCOMPARE(version.out, u"claude-peers %1\n"_s.arg(QLatin1String(PEERS_VERSION)));
    }

    void badArgumentsExitOne_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("errContains");
        QTest::newRow("none") << QStringList {} << u"Usage: claude-peers <command>"_s;
        QTest::newRow("unknown command") << QStringList {u"bogus"_s} << u"Unknown command: bogus"_s;
        QTest::newRow("send no args")
            << QStringList {u"send"_s} << u"Usage: claude-peers send <peer-id> <message>"_s;
        QTest::newRow("send no message")
            << QStringList {u"send"_s, u"abc"_s} << u"Usage: claude-peers send"_s;
        QTest::newRow("status extra") << QStringList {u"status"_s, u"now"_s} << u"Unexpected argument: now"_s;
        QTest::newRow("unknown option") << QStringList {u"peers"_s, u"--all"_s} << u"Unknown option: --all"_s;
        QTest::newRow("limit zero") << QStringList {u"messages"_s, u"--limit"_s, u"0"_s} << u"--limit"_s;
        QTest::newRow("limit text") << QStringList {u"messages"_s, u"--limit"_s, u"ten"_s} << u"--limit"_s;
        QTest::newRow("limit missing") << QStringList {u"messages"_s, u"--limit"_s} << u"needs a value"_s;
        QTest::newRow("before-id text") << QStringList {u"messages"_s, u"--before-id"_s, u"soon"_s}
                                        << u"--before-id needs a message id"_s;
        QTest::newRow("after-id fraction")
            << QStringList {u"messages"_s, u"--after-id"_s, u"1.5"_s} << u"--after-id needs a message id"_s;
        QTest::newRow("with alone") << QStringList {u"messages"_s, u"--with"_s, u"abc"_s}
                                    << u"--with needs --peer"_s;
        QTest::newRow("since garbage")
            << QStringList {u"messages"_s, u"--since"_s, u"last week"_s} << u"--since"_s;
        QTest::newRow("broadcast lan")
            << QStringList {u"broadcast"_s, u"lan"_s, u"x"_s} << u"Unknown scope: lan"_s;
        QTest::newRow("broadcast no text")
            << QStringList {u"broadcast"_s, u"machine"_s} << u"Usage: claude-peers broadcast"_s;
        QTest::newRow("set-name no name")
            << QStringList {u"set-name"_s, u"abc"_s} << u"Usage: claude-peers set-name"_s;
        QTest::newRow("auto-summary missing id")
            << QStringList {u"auto-summary"_s} << u"Usage: claude-peers auto-summary <peer-id>"_s;
        QTest::newRow("flag with value")
            << QStringList {u"metrics"_s, u"--detailed=yes"_s} << u"takes no value"_s;
        QTest::newRow("reply-to text")
            << QStringList {u"send"_s, u"--reply-to"_s, u"last"_s, u"abc"_s, u"x"_s}
            << u"--reply-to takes a message id"_s;
        QTest::newRow("reply-to zero") << QStringList {u"send"_s, u"--reply-to=0"_s, u"abc"_s, u"x"_s}
                                       << u"--reply-to takes a message id"_s;
        QTest::newRow("reply-to missing") << QStringList {u"send"_s, u"--reply-to"_s} << u"needs a value"_s;
        QTest::newRow("as-operator with value")
            << QStringList {u"send"_s, u"--as-operator=yes"_s, u"abc"_s, u"x"_s} << u"takes no value"_s;
        QTest::newRow("broadcast unknown option")
            << QStringList {u"broadcast"_s, u"--reply-to"_s, u"1"_s, u"machine"_s, u"x"_s}
            << u"Unknown option"_s;
        QTest::newRow("kill-broker extra")
            << QStringList {u"kill-broker"_s, u"now"_s} << u"Unexpected argument"_s;
    }
    void badArgumentsExitOne()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, errContains);
        const CliRun r = runCli(env(), args);
        QVERIFY2(r.code == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(errContains), qPrintable(describe(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));
    }

    // This broker runs without federation (no CLAUDE_PEERS_FEDERATION_ENABLED): the commands
    // reach it and report its refusal, each with its exit code.
    void federationAgainstBrokerWithoutIt_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("outStarts");
        QTest::addColumn<QString>("errStarts");
        QTest::newRow("status")
            << QStringList {u"status"_s} << 0
            << u"Federation is disabled. Set CLAUDE_PEERS_FEDERATION_ENABLED=true to enable.\n"_s
            << QString();
        QTest::newRow("connect") << QStringList {u"connect"_s, u"127.0.0.1:1"_s} << 2 << QString()
                                 << u"Failed: Federation is not enabled."_s;
        QTest::newRow("disconnect") << QStringList {u"disconnect"_s, u"127.0.0.1:1"_s} << 2 << QString()
                                    << u"Failed: Federation is not enabled."_s;
        for (const char *sub : {"token", "rotate-psk", "pending", "pair-code"})
            QTest::newRow(sub) << QStringList {QLatin1String(sub)} << 2 << QString() << u"Failed: "_s;
        QTest::newRow("accept") << QStringList {u"accept"_s, u"r1"_s} << 2 << QString() << u"Failed: "_s;
        QTest::newRow("reject") << QStringList {u"reject"_s, u"r1"_s} << 2 << QString() << u"Failed: "_s;
        QTest::newRow("join by code")
            << QStringList {u"join"_s, u"127.0.0.1:1"_s, u"ABCDE-FGHJK"_s} << 2
            << u"[Federation Join]\n  1. ..   Proving the code to 127.0.0.1:1 (nothing secret is sent)...\n  1. FAIL "_s
            << u"Failed: Federation is not enabled."_s;
    }
    void federationAgainstBrokerWithoutIt()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, outStarts);
        QFETCH(QString, errStarts);
        const CliRun r = runCli(env(), QStringList {u"federation"_s} + args);
        QVERIFY2(r.code == code, qPrintable(describe(r)));
        QVERIFY2(r.out.startsWith(outStarts), qPrintable(describe(r)));
        QVERIFY2(r.err.startsWith(errStarts), qPrintable(describe(r)));
        if (errStarts.isEmpty())
            QVERIFY2(r.err.isEmpty(), qPrintable(describe(r)));
    }

    void federationStatusJson()
    {
        const CliRun r = runCli(env(), {u"federation"_s, u"status"_s, u"--json"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QJsonObject status = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(status.value(u"enabled"_s), QJsonValue(false));
        QVERIFY(status.value(u"remotes"_s).isArray());
    }

    void federationDoctorShowsEveryCheck()
    {
        QProcessEnvironment e = env();
        e.insert(u"CLAUDE_PEERS_FEDERATION_PORT"_s, QString::number(TestSupport::freePort()));
        const CliRun r = runCli(e, {u"federation"_s, u"doctor"_s});
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QVERIFY2(r.out.startsWith(u"[Federation Doctor]\n"_s), qPrintable(describe(r)));
        for (const QString &line :
             {u"  FAIL Federation is not enabled\n       Fix: claude-peers federation init"_s,
              u"  OK   Broker: running at http://127.0.0.1:"_s,
              u"  FAIL The broker runs without federation\n       Fix: "_s})
            QVERIFY2(r.out.contains(line), qPrintable(describe(r)));
        static const QRegularExpression summary(uR"(\n\d+ passed, [1-9]\d* failed, \d+ warning\(s\)\n$)"_s);
        QVERIFY2(summary.match(r.out).hasMatch(), qPrintable(describe(r)));

        const CliRun json = runCli(e, {u"federation"_s, u"doctor"_s, u"--json"_s});
        QCOMPARE(json.code, 2);
        const QJsonArray checks = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QVERIFY2(!checks.isEmpty(), qPrintable(describe(json)));
        bool sawFail = false;
        for (const QJsonValue &c : checks)
            sawFail = sawFail || c.toObject().value(u"status"_s) == u"fail"_s;
        QVERIFY(sawFail);
    }

    void federationDoctorWithBrokerDownChecksThePort()
    {
        TestHome home;
        QProcessEnvironment e = cliEnvironment(home);
        // A port something listens on: the doctor must call it taken.
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::Any, 0));
        e.insert(u"CLAUDE_PEERS_FEDERATION_PORT"_s, QString::number(taken.serverPort()));
        const CliRun r = runCli(e, {u"federation"_s, u"doctor"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains(u"  FAIL Broker: not reachable at http://127.0.0.1:%1\n"_s.arg(home.port())),
                 qPrintable(describe(r)));
        QVERIFY2(r.out.contains(u"  FAIL Port %1 is taken by another program"_s.arg(taken.serverPort())),
                 qPrintable(describe(r)));
        const quint16 port = taken.serverPort();
        taken.close();
        const CliRun free = runCli(e, {u"federation"_s, u"doctor"_s});
        QVERIFY2(free.out.contains(u"  OK   Port %1 is free for the broker"_s.arg(port)),
                 qPrintable(describe(free)));
    }

    // enable/disable edit the config (keeping remotes, pins and mdns, which 0.7's enable wiped)
    // and have the running broker re-read it.
    void federationEnableDisableKeepTheRest()
    {
        const QString path = m_home->configPath();
        QFile::remove(path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"federation":{"remotes":[{"host":"10.9.9.9","port":7900,"label":"far"}],
                      "pins":{"10.9.9.9:7900":"sha256-AAAA"},"mdns":{"enabled":false}},"other":1})");
        file.close();
        const quint16 port = TestSupport::freePort();
        const CliRun on =
            runCli(env(), {u"federation"_s, u"enable"_s, QString::number(port), u"10.9.0.0/16"_s});
        QVERIFY2(on.code == 0, qPrintable(describe(on)));
        QCOMPARE(
            on.out,
            u"Federation enabled in %1 (port %2, subnet 10.9.0.0/16).\nThe broker re-read the config.\n"_s
                .arg(path)
                .arg(port));
        auto config = [&path] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()
                                               : QJsonObject();
        };
        QJsonObject federation = config().value(u"federation"_s).toObject();
        QCOMPARE(federation.value(u"enabled"_s), QJsonValue(true));
        QCOMPARE(federation.value(u"port"_s).toInt(), int(port));
        QCOMPARE(federation.value(u"subnet"_s).toString(), u"10.9.0.0/16"_s);
        QCOMPARE(federation.value(u"remotes"_s).toArray().size(), 1);
        QCOMPARE(federation.value(u"pins"_s).toObject().value(u"10.9.9.9:7900"_s).toString(),
                 u"sha256-AAAA"_s);
        QCOMPARE(federation.value(u"mdns"_s).toObject().value(u"enabled"_s), QJsonValue(false));
        QCOMPARE(config().value(u"other"_s).toInt(), 1);

        const CliRun off = runCli(env(), {u"federation"_s, u"disable"_s});
        QVERIFY2(off.code == 0, qPrintable(describe(off)));
        QVERIFY2(off.out.startsWith(u"Federation disabled in %1 (remotes and pins are kept).\n"_s.arg(path)),
                 qPrintable(describe(off)));
        federation = config().value(u"federation"_s).toObject();
        QCOMPARE(federation.value(u"enabled"_s), QJsonValue(false));
        QCOMPARE(federation.value(u"remotes"_s).toArray().size(), 1);
        QCOMPARE(federation.value(u"port"_s).toInt(), int(port));
        QFile::remove(path);
        QVERIFY(runCli(env(), {u"reload-broker"_s}).code == 0);
    }

    void federationEnableRefusesABrokenConfig()
    {
        TestHome home;
        QFile file(home.configPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{not json");
        file.close();
        const CliRun r = runCli(cliEnvironment(home), {u"federation"_s, u"enable"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"nothing was changed"_s), qPrintable(describe(r)));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{not json"));
    }

    void statusAndPeersText()
    {
        const CliRun status = runCli(env(), {u"status"_s});
        QVERIFY2(status.code == 0, qPrintable(describe(status)));
        QVERIFY(status.out.startsWith(
            u"Broker: ok (1 peer(s) registered)\nURL: http://127.0.0.1:%1\n"_s.arg(m_home->port())));
        // CLAUDE_PEERS_TOKEN names the file: the broker says the token lives there, and why.
        QVERIFY2(
            status.out.contains(u"\nSecrets: local token in the file %1\n         CLAUDE_PEERS_TOKEN"_s.arg(
                m_home->tokenPath())),
            qPrintable(describe(status)));
        const QString headline =
            u"%1 [CLI_TEST]  PID:%2  %3"_s.arg(m_peer).arg(QCoreApplication::applicationPid()).arg(peerCwd());
        QVERIFY2(status.out.contains(u"\nPeers:\n  "_s + headline + u'\n'), qPrintable(describe(status)));
        QVERIFY(status.out.contains(u"\n         first summary\n"_s) ||
                status.out.contains(u"\n         ["_s));
        QVERIFY(status.out.contains(u"         Last seen: "_s));

        const CliRun peers = runCli(env(), {u"peers"_s});
        QCOMPARE(peers.code, 0);
        QVERIFY2(peers.out.startsWith(headline + u"\n  Summary: "_s), qPrintable(describe(peers)));
    }

    void jsonOutputsAreValid()
    {
        auto parse = [this](const QStringList &args) {
            const CliRun r = runCli(env(), args);
            [&] { QVERIFY2(r.code == 0, qPrintable(describe(r))); }();
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
            [&] { QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(describe(r))); }();
            return doc;
        };
        const QJsonDocument status = parse({u"status"_s, u"--json"_s});
        QCOMPARE(status.object().value(u"running"_s).toBool(), true);
        QCOMPARE(status.object().value(u"health"_s).toObject().value(u"status"_s).toString(), u"ok"_s);
        QVERIFY(status.object().value(u"peers"_s).isArray());
        const QJsonObject local =
            status.object().value(u"secrets"_s).toObject().value(u"local_token"_s).toObject();
        QCOMPARE(local.value(u"store"_s).toString(), u"file"_s);
        QCOMPARE(local.value(u"where"_s).toString(), m_home->tokenPath());

        const QJsonDocument peers = parse({u"peers"_s, u"--json"_s});
        QVERIFY(peers.isArray());
        QCOMPARE(peers.array().first().toObject().value(u"id"_s).toString(), m_peer);

        const QJsonDocument metrics = parse({u"metrics"_s, u"--json"_s});
        QVERIFY(metrics.object().value(u"messages"_s).isObject());
        const QJsonDocument detailed = parse({u"metrics"_s, u"--detailed"_s, u"--json"_s});
        QVERIFY(detailed.object().value(u"peers"_s).isArray());

        const QJsonDocument messages = parse({u"messages"_s, u"--json"_s, u"--limit"_s, u"5"_s});
        QVERIFY(messages.isArray());
    }

    void sendThenHistory()
    {
        const CliRun sent = runCli(env(), {u"send"_s, m_peer, u"hello"_s, u"-from"_s, u"the cli"_s});
        QVERIFY2(sent.code == 0, qPrintable(describe(sent)));
        static const QRegularExpression line(u"^Message sent to (\\w+) \\(msg#(\\d+), type: text\\)\n$"_s);
        const auto match = line.match(sent.out);
        QVERIFY2(match.hasMatch(), qPrintable(sent.out));
        QCOMPARE(match.captured(1), m_peer);

        const CliRun history = runCli(
            env(), {u"messages"_s, u"--json"_s, u"--from"_s, u"cli"_s, u"--search"_s, u"hello -from"_s});
        QCOMPARE(history.code, 0);
        const QJsonArray list = QJsonDocument::fromJson(history.out.toUtf8()).array();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toObject().value(u"text"_s).toString(), u"hello -from the cli"_s);
        QCOMPARE(list.first().toObject().value(u"to_id"_s).toString(), m_peer);
        QCOMPARE(list.first().toObject().value(u"id"_s).toInteger(), match.captured(2).toLongLong());

        const CliRun text = runCli(env(), {u"messages"_s, u"--to"_s, m_peer, u"--limit"_s, u"1"_s});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains(u"  Messages (1 result):"_s), qPrintable(text.out));
        QVERIFY(text.out.contains(u"    From: cli  \u2192  To: %1\n"_s.arg(m_peer)));
        QVERIFY(text.out.contains(u"[text] pending"_s));

        // Paging the log: the message just sent is the page after the one before it, and the
        // thread between cli and the peer holds it.
        const qint64 sentId = match.captured(2).toLongLong();
        const CliRun page = runCli(env(),
                                   {u"messages"_s, u"--json"_s, u"--after-id"_s, QString::number(sentId - 1),
                                    u"--oldest-first"_s, u"--peer"_s, u"cli"_s, u"--with"_s, m_peer});
        QCOMPARE(page.code, 0);
        const QJsonArray pageList = QJsonDocument::fromJson(page.out.toUtf8()).array();
        QCOMPARE(pageList.size(), 1);
        QCOMPARE(pageList.first().toObject().value(u"id"_s).toInteger(), sentId);
        const CliRun before =
            runCli(env(), {u"messages"_s, u"--json"_s, u"--before-id"_s, QString::number(sentId)});
        QCOMPARE(before.code, 0);
        for (const QJsonValue &v : QJsonDocument::fromJson(before.out.toUtf8()).array())
            QVERIFY(v.toObject().value(u"id"_s).toInteger() < sentId);

        const CliRun none = runCli(env(), {u"messages"_s, u"--search"_s, u"no such text anywhere"_s});
        QCOMPARE(none.code, 0);
        QCOMPARE(none.out, u"No messages found.\n"_s);

        const CliRun since =
            runCli(env(), {u"messages"_s, u"--json"_s, u"--since"_s, u"2999-01-01T00:00:00Z"_s});
        QCOMPARE(since.code, 0);
        QCOMPARE(QJsonDocument::fromJson(since.out.toUtf8()).array().size(), 0);
    }

    void sendToUnknownPeerFails()
    {
        const CliRun r = runCli(env(), {u"send"_s, u"zzzzzzzz"_s, u"hi"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.startsWith(u"Failed: Peer zzzzzzzz not found"_s), qPrintable(describe(r)));
    }

    void broadcastScopes()
    {
        const CliRun machine = runCli(env(), {u"broadcast"_s, u"machine"_s, u"all"_s, u"hands"_s});
        QVERIFY2(machine.code == 0, qPrintable(describe(machine)));
        QCOMPARE(machine.out, u"Broadcast sent to 1 peer(s)\n"_s);

        QTemporaryDir elsewhere;
        const CliRun directory = runCli(env(), {u"broadcast"_s, u"directory"_s, u"x"_s}, elsewhere.path());
        QCOMPARE(directory.code, 0);
        QCOMPARE(directory.out, u"No peers in scope 'directory'\n"_s);

        // From the peer's own directory the directory scope reaches it.
        const CliRun here = runCli(env(), {u"broadcast"_s, u"directory"_s, u"x"_s}, peerCwd());
        QCOMPARE(here.out, u"Broadcast sent to 1 peer(s)\n"_s);
    }

    // The Messages page's sender from the command line: --as-operator sends as the tray's operator
    // peer (refused while none is registered), --reply-to makes it a response, --json prints the
    // broker's answer; without them send and broadcast stay 0.7's (sendThenHistory, broadcastScopes).
    void sendAndBroadcastAsOperator()
    {
        // No operator peer yet: refused in plain words, nothing sent.
        const CliRun refused = runCli(env(), {u"send"_s, u"--as-operator"_s, m_peer, u"hi"_s});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains(u"operator peer is not registered"_s), qPrintable(describe(refused)));
        QVERIFY2(refused.err.contains(u"claude-peers-tray"_s), qPrintable(describe(refused)));
        const CliRun refusedBroadcast =
            runCli(env(), {u"broadcast"_s, u"--as-operator"_s, u"machine"_s, u"x"_s});
        QCOMPARE(refusedBroadcast.code, 2);

        // The tray's operator peer (as OperatorPeer registers it).
        LivePid live;
        const auto reg = TestSupport::httpPostJson(m_home->port(), u"/register"_s,
                                                   QJsonObject {{u"pid"_s, live.pid()},
                                                                {u"cwd"_s, u"/tmp"_s},
                                                                {u"git_root"_s, QJsonValue(QJsonValue::Null)},
                                                                {u"tty"_s, QJsonValue(QJsonValue::Null)},
                                                                {u"session_name"_s, u"operator"_s},
                                                                {u"summary"_s, QString()},
                                                                {u"requested_id"_s, u"operator"_s}},
                                                   m_home->token());
        QCOMPARE(reg.object().value(u"id"_s).toString(), u"operator"_s);

        const CliRun sent =
            runCli(env(), {u"send"_s, u"--as-operator"_s, u"--json"_s, m_peer, u"--please"_s, u"review"_s});
        QVERIFY2(sent.code == 0, qPrintable(describe(sent)));
        const QJsonObject answer = QJsonDocument::fromJson(sent.out.toUtf8()).object();
        QCOMPARE(answer.value(u"ok"_s).toBool(), true);
        QCOMPARE(answer.value(u"from_id"_s).toString(), u"operator"_s);
        QCOMPARE(answer.value(u"to_id"_s).toString(), m_peer);
        const qint64 id = answer.value(u"message_id"_s).toInteger();
        QVERIFY(id > 0);
        const CliRun stored = runCli(env(), {u"messages"_s, u"--json"_s, u"--from"_s, u"operator"_s});
        const QJsonArray list = QJsonDocument::fromJson(stored.out.toUtf8()).array();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toObject().value(u"id"_s).toInteger(), id);
        QCOMPARE(list.first().toObject().value(u"text"_s).toString(),
                 u"--please review"_s); // options first only
        QCOMPARE(list.first().toObject().value(u"type"_s).toString(), u"text"_s);

        // A reply in the thread, in text.
        const CliRun reply = runCli(env(),
                                    {u"send"_s, u"--as-operator"_s, u"--reply-to"_s, QString::number(id),
                                     m_peer, u"and"_s, u"this"_s});
        QVERIFY2(reply.code == 0, qPrintable(describe(reply)));
        static const QRegularExpression line(
            u"^Message sent to (\\w+) as operator \\(msg#(\\d+), type: response\\)\n$"_s);
        const auto match = line.match(reply.out);
        QVERIFY2(match.hasMatch(), qPrintable(reply.out));
        const CliRun replies = runCli(env(), {u"messages"_s, u"--json"_s, u"--search"_s, u"and this"_s});
        const QJsonObject stored2 = QJsonDocument::fromJson(replies.out.toUtf8()).array().first().toObject();
        QCOMPARE(stored2.value(u"reply_to"_s).toInteger(), id);
        QCOMPARE(stored2.value(u"type"_s).toString(), u"response"_s);
        QCOMPARE(stored2.value(u"from_id"_s).toString(), u"operator"_s);

        // --json without --as-operator: 0.7's sender, the answer as JSON; a refusal too (exit 2).
        const CliRun cliJson = runCli(env(), {u"send"_s, u"--json"_s, m_peer, u"x"_s});
        QCOMPARE(cliJson.code, 0);
        QCOMPARE(QJsonDocument::fromJson(cliJson.out.toUtf8()).object().value(u"from_id"_s).toString(),
                 u"cli"_s);
        const CliRun unknown =
            runCli(env(), {u"send"_s, u"--as-operator"_s, u"--json"_s, u"zzzzzzzz"_s, u"x"_s});
        QCOMPARE(unknown.code, 2);
        const QJsonObject refusal = QJsonDocument::fromJson(unknown.out.toUtf8()).object();
        QCOMPARE(refusal.value(u"ok"_s).toBool(), false);
        QVERIFY(refusal.value(u"error"_s).toString().contains(u"not found"_s));
        // A reply to a message that does not exist: the broker's refusal.
        const CliRun badReply =
            runCli(env(), {u"send"_s, u"--as-operator"_s, u"--reply-to"_s, u"999999"_s, m_peer, u"x"_s});
        QCOMPARE(badReply.code, 2);
        QVERIFY2(badReply.err.startsWith(u"Failed: "_s), qPrintable(describe(badReply)));

        // Broadcast as the operator: the answer's recipients and ids.
        const CliRun all =
            runCli(env(), {u"broadcast"_s, u"--as-operator"_s, u"--json"_s, u"machine"_s, u"hello"_s});
        QVERIFY2(all.code == 0, qPrintable(describe(all)));
        const QJsonObject b = QJsonDocument::fromJson(all.out.toUtf8()).object();
        QCOMPARE(b.value(u"ok"_s).toBool(), true);
        QCOMPARE(b.value(u"from_id"_s).toString(), u"operator"_s);
        QCOMPARE(b.value(u"recipients"_s).toInteger(), 1); // the peer, not the operator itself
        QCOMPARE(b.value(u"message_ids"_s).toArray().size(), 1);
        const CliRun allText = runCli(env(), {u"broadcast"_s, u"--as-operator"_s, u"machine"_s, u"hello"_s});
        QCOMPARE(allText.out, u"Broadcast sent to 1 peer(s)\n"_s);
        TestSupport::httpPostJson(m_home->port(), u"/unregister"_s, QJsonObject {{u"id"_s, u"operator"_s}},
                                  m_home->token());
    }

    void setNameShowsInPeers()
    {
        LivePid live;
        const QString id = registerPeer(*m_home, u"TEMP"_s, u"/tmp/cli-set-name"_s, live.pid());
        const CliRun r = runCli(env(), {u"set-name"_s, id, u"NEW"_s, u"NAME"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QCOMPARE(r.out, u"Session name set for %1: \"NEW NAME\"\n"_s.arg(id));
        QCOMPARE(peerRow(*m_home, id).value(u"session_name"_s).toString(), u"NEW NAME"_s);
    }

    // The Peers page's rename, from the command line: options anywhere, JSON on request.
    void renameWithJson()
    {
        LivePid live;
        const QString id = registerPeer(*m_home, u"TEMP"_s, u"/tmp/cli-rename"_s, live.pid());
        const CliRun r = runCli(env(), {u"rename"_s, id, u"--json"_s, u"code"_s, u"reviewer"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QJsonObject answer = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(answer.value(u"ok"_s).toBool(), true);
        QCOMPARE(answer.value(u"id"_s).toString(), id);
        QCOMPARE(answer.value(u"session_name"_s).toString(), u"code reviewer"_s);
        QCOMPARE(peerRow(*m_home, id).value(u"session_name"_s).toString(), u"code reviewer"_s);

        const CliRun text = runCli(env(), {u"rename"_s, id, u"short"_s});
        QCOMPARE(text.out, u"Renamed %1 to \"short\"\n"_s.arg(id));
        const CliRun empty = runCli(env(), {u"rename"_s, id, u" "_s});
        QCOMPARE(empty.code, 1);
        QVERIFY(empty.err.contains(u"The new name is empty."_s));
    }

    // docs/spec/peers-api.md §12 item 35.
    void autoSummaryInGitRepository()
    {
        QTemporaryDir tmp;
        const QString repo = QDir(tmp.path()).filePath(u"summary-repo"_s);
        QVERIFY(QDir().mkpath(repo));
        QVERIFY(git(repo, {u"init"_s, u"-q"_s, u"-b"_s, u"feature-x"_s}));
        QVERIFY(git(repo,
                    {u"-c"_s, u"user.email=t@example.invalid"_s, u"-c"_s, u"user.name=T"_s, u"commit"_s,
                     u"-q"_s, u"--allow-empty"_s, u"-m"_s, u"init"_s}));
        LivePid live;
        const QString id = registerPeer(*m_home, u"SUMMARY"_s, repo, live.pid());
        const CliRun r = runCli(env(), {u"auto-summary"_s, id}, repo);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QString expected =
            u"[summary-repo:feature-x] Working in %1"_s.arg(QFileInfo(repo).canonicalFilePath());
        QCOMPARE(r.out, expected + u'\n');
        QCOMPARE(peerRow(*m_home, id).value(u"summary"_s).toString(), expected);
    }

    void autoSummaryOutsideGit()
    {
        QTemporaryDir tmp;
        const QString dir = QFileInfo(tmp.path()).canonicalFilePath();
        const CliRun r = runCli(env(), {u"auto-summary"_s, m_peer}, dir);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QCOMPARE(r.out, u"Working in %1\n"_s.arg(dir));
        QCOMPARE(peerRow(*m_home, m_peer).value(u"summary"_s).toString(), u"Working in %1"_s.arg(dir));
    }

    void autoSummaryUnknownPeerStillSucceeds()
    {
        const CliRun r = runCli(env(), {u"auto-summary"_s, u"zzzzzzzz"_s}, QDir::tempPath());
        QCOMPARE(r.code, 0);
        QVERIFY(!r.out.trimmed().isEmpty());
    }

    void metricsAndReload()
    {
        const CliRun metrics = runCli(env(), {u"metrics"_s, u"--detailed"_s});
        QVERIFY2(metrics.code == 0, qPrintable(describe(metrics)));
        QVERIFY(metrics.out.contains(u"  Broker Metrics:"_s));
        QVERIFY(metrics.out.contains(u"    Delivery rate:       "_s));
        QVERIFY(metrics.out.contains(u"  Peers (detailed):"_s));
        QVERIFY(metrics.out.contains(u"(%1)"_s.arg(m_peer)));

        const CliRun reload = runCli(env(), {u"reload-broker"_s});
        QVERIFY2(reload.code == 0, qPrintable(describe(reload)));
        QVERIFY2(QRegularExpression(u"^Broker hot-reloaded\\. \\d+ peer\\(s\\) stay connected\\.\n$"_s)
                     .match(reload.out)
                     .hasMatch(),
                 qPrintable(describe(reload)));
    }

    void brokerDownExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("outText");
        QTest::newRow("status") << QStringList {u"status"_s} << u"Broker is not running.\n"_s;
        QTest::newRow("peers") << QStringList {u"peers"_s} << u"Broker is not running.\n"_s;
        QTest::newRow("send") << QStringList {u"send"_s, u"abc"_s, u"hi"_s} << u""_s;
        QTest::newRow("broadcast") << QStringList {u"broadcast"_s, u"machine"_s, u"hi"_s} << u""_s;
        QTest::newRow("set-name") << QStringList {u"set-name"_s, u"abc"_s, u"N"_s} << u""_s;
        QTest::newRow("messages") << QStringList {u"messages"_s} << u""_s;
        QTest::newRow("metrics") << QStringList {u"metrics"_s} << u""_s;
        QTest::newRow("reload-broker") << QStringList {u"reload-broker"_s} << u"Broker is not running.\n"_s;
    }
    void brokerDownExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, outText);
        TestHome nobody; // its port has no broker
        const CliRun r = runCli(cliEnvironment(nobody), args);
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QCOMPARE(r.out, outText);
        QVERIFY2(r.err.contains(
                     u"Broker not reachable at http://127.0.0.1:%1. Is it running?"_s.arg(nobody.port())),
                 qPrintable(describe(r)));
    }

    void autoSummaryWithBrokerDown()
    {
        TestHome nobody;
        const CliRun r = runCli(cliEnvironment(nobody), {u"auto-summary"_s, u"testpeer"_s}, QDir::tempPath());
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"Error:"_s));
        QVERIFY(r.err.contains(u"Broker not reachable"_s));
        QVERIFY(!r.out.trimmed().isEmpty()); // the summary is still printed
    }

    void statusJsonWithBrokerDown()
    {
        TestHome nobody;
        const CliRun r = runCli(cliEnvironment(nobody), {u"status"_s, u"--json"_s});
        QCOMPARE(r.code, 2);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(u"running"_s).toBool(true), false);
        QCOMPARE(o.value(u"url"_s).toString(), u"http://127.0.0.1:%1"_s.arg(nobody.port()));
    }

    void killBrokerWhenNoneRuns()
    {
        TestHome nobody;
        const CliRun r = runCli(cliEnvironment(nobody), {u"kill-broker"_s});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, u"Broker is not running.\n"_s);
    }

    void rotateTokenWithoutBroker()
    {
        TestHome nobody;
        const CliRun r = runCli(cliEnvironment(nobody), {u"rotate-token"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.out.startsWith(u"Token rotated. New token written to %1."_s.arg(nobody.tokenPath())));
        QVERIFY(r.out.contains(u"not running"_s));
        QCOMPARE(nobody.token().size(), 64);
        QCOMPARE(modeOf(nobody.tokenPath()), 0600);
    }

    void rotateTokenVoidsTheOldToken()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const QByteArray oldToken = home.token();
        QVERIFY(!oldToken.isEmpty());
        const QJsonObject heartbeat {{u"id"_s, u"nobody"_s}};
        QCOMPARE(TestSupport::httpPostJson(home.port(), u"/heartbeat"_s, heartbeat, oldToken).status, 200);

        const CliRun r = runCli(cliEnvironment(home), {u"rotate-token"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(u"The broker picked it up"_s), qPrintable(describe(r)));
        const QByteArray newToken = home.token();
        QCOMPARE(newToken.size(), 64);
        QVERIFY(newToken != oldToken);
        QCOMPARE(modeOf(home.tokenPath()), 0600);

        const auto old = TestSupport::httpPostJson(home.port(), u"/heartbeat"_s, heartbeat, oldToken);
        QCOMPARE(old.status, 401);
        QCOMPARE(old.object().value(u"error"_s).toString(), u"Unauthorized"_s);
        QCOMPARE(TestSupport::httpPostJson(home.port(), u"/heartbeat"_s, heartbeat, newToken).status, 200);
        // The CLI reads the new file: it keeps working.
        QCOMPARE(runCli(cliEnvironment(home), {u"peers"_s}).code, 0);
    }

    void killBrokerViaShutdown()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const QString pidPath = home.databasePath() + u".pid"_s;
        QVERIFY(QFile::exists(pidPath));

        const CliRun r = runCli(cliEnvironment(home), {u"kill-broker"_s});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.out.startsWith(u"Broker has 0 peer(s). Shutting down...\n"_s));
        QVERIFY(r.out.endsWith(u"Broker stopped.\n"_s));
        // It exited by itself (no signal from us), cleanly, and took its pid file along.
        QTRY_COMPARE_WITH_TIMEOUT(broker.process().state(), QProcess::NotRunning, TestSupport::scaled(5000));
        QCOMPARE(broker.process().exitStatus(), QProcess::NormalExit);
        QVERIFY(!QFile::exists(pidPath));
        QCOMPARE(TestSupport::httpGet(home.port(), u"/health"_s, 500).status, 0);
    }

    void restartStartsANewBroker()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const qint64 oldPid = broker.pid();

        QProcessEnvironment env = cliEnvironment(home);
        env.insert(u"PATH"_s, QFileInfo(TestSupport::brokerExe()).absolutePath() + u":/usr/bin:/bin"_s);
        const CliRun r = runCli(env, {u"restart"_s});
        DetachedBrokerGuard guard;
        const auto health = TestSupport::httpGet(home.port(), u"/health"_s);
        guard.pid = health.object().value(u"pid"_s).toInteger();
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        // The new broker took the old one's listening socket over (tests/handover has the load test).
        QVERIFY2(r.out.contains(u"Broker restarted on http://127.0.0.1:%1: pid %2 took over from pid %3"_s
                                    .arg(home.port())
                                    .arg(guard.pid)
                                    .arg(oldPid)),
                 qPrintable(describe(r)));
        QCOMPARE(health.status, 200);
        QVERIFY(guard.pid > 0);
        QVERIFY(guard.pid != oldPid);
        QTRY_COMPARE_WITH_TIMEOUT(broker.process().state(), QProcess::NotRunning, TestSupport::scaled(5000));

        // And the new one stops again through the CLI.
        const CliRun stop = runCli(env, {u"kill-broker"_s});
        QVERIFY2(stop.code == 0, qPrintable(describe(stop)));
        QVERIFY(!Broker::Liveness::isProcessAlive(guard.pid));
    }

    void restartWithoutBrokerExecutableFails()
    {
        TestHome nobody;
        QProcessEnvironment env = cliEnvironment(nobody);
        env.insert(u"PATH"_s, u"/nonexistent"_s);
        // The build puts claude-peers-broker beside claude-peers: name a missing one instead.
        env.insert(u"CLAUDE_PEERS_BROKER_EXE"_s, nobody.path() + u"/claude-peers-broker"_s);
        const CliRun r = runCli(env, {u"restart"_s});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"CLAUDE_PEERS_BROKER_EXE="_s + nobody.path() +
                                u"/claude-peers-broker is not an executable file"_s),
                 qPrintable(describe(r)));
    }
};

QTEST_GUILESS_MAIN(tst_Cli)
#include "tst_cli.moc"
