// `claude-peers hook`: the real binary, fed a hook's JSON on stdin as Claude Code does, against a
// real claude-peers-broker in a temporary HOME; and what it does when the broker is down or hung
// or the input is garbage (exit 0, nothing on stdout, at most one line on stderr).
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

#include <csignal>

using namespace Qt::StringLiterals;
using TestSupport::BrokerProcess;
using TestSupport::TestHome;

namespace {

struct HookRun
{
    int code = -1;
    QByteArray out;
    QString err;
    qint64 elapsedMs = 0;
};

HookRun runHook(const QProcessEnvironment &env, const QStringList &args, const QByteArray &input)
{
    QProcess p;
    p.setProcessEnvironment(env);
    HookRun r;
    QElapsedTimer clock;
    clock.start();
    p.start(TestSupport::cliExe(), QStringList {u"hook"_s} + args);
    if (!p.waitForStarted(TestSupport::scaled(5000)))
        return r;
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(TestSupport::scaled(20000))) {
        p.kill();
        p.waitForFinished(2000);
        r.err = u"(timed out)"_s;
        return r;
    }
    r.elapsedMs = clock.elapsed();
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QByteArray hookJson(const QString &event, const QString &cwd, const QJsonObject &extra = {})
{
    QJsonObject o = extra;
    o.insert(u"session_id"_s, u"0b6c2f1e-5c7a-4d55-9d3c-hook-test"_s);
    o.insert(u"transcript_path"_s, u"/tmp/nowhere.jsonl"_s);
    o.insert(u"cwd"_s, cwd);
    o.insert(u"permission_mode"_s, u"default"_s);
    o.insert(u"hook_event_name"_s, event);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// A live process for a peer's pid whose parent is this test, which is also the hook's parent:
// as Claude Code is the parent of both its MCP helper and (through a shell) its hooks.
class Session
{
public:
    Session()
    {
        m_process.start(u"/bin/sleep"_s, {u"600"_s});
        m_process.waitForStarted(TestSupport::scaled(5000));
    }
    ~Session()
    {
        m_process.kill();
        m_process.waitForFinished(TestSupport::scaled(5000));
    }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
};

// A sleep whose parent is gone (init adopted it): no process chain leads to it.
class Orphan
{
public:
    Orphan()
    {
        QProcess sh;
        sh.start(u"/bin/sh"_s, {u"-c"_s, u"sleep 600 >/dev/null 2>&1 & echo $!"_s});
        sh.waitForFinished(TestSupport::scaled(5000));
        m_pid = sh.readAllStandardOutput().trimmed().toLongLong();
    }
    ~Orphan()
    {
        if (m_pid > 0)
            ::kill(pid_t(m_pid), SIGKILL);
    }
    qint64 pid() const { return m_pid; }

private:
    qint64 m_pid = 0;
};

} // namespace

class tst_Hook : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestHome> m_home;
    std::unique_ptr<BrokerProcess> m_broker;

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = m_home->environment();
        e.remove(u"CLAUDE_PEERS_ID"_s);
        e.remove(u"CLAUDE_PEERS_TTY"_s);
        return e;
    }

    QString registerPeer(qint64 pid, const QString &cwd, const QString &tty = {})
    {
        const auto r = TestSupport::httpPostJson(m_home->port(), u"/register"_s,
                                                 QJsonObject {{u"pid"_s, pid},
                                                              {u"cwd"_s, cwd},
                                                              {u"git_root"_s, QJsonValue(QJsonValue::Null)},
                                                              {u"tty"_s, tty.isEmpty() ? QJsonValue() : tty},
                                                              {u"client"_s, u"claude-code"_s}},
                                                 m_home->token());
        return r.object().value(u"id"_s).toString();
    }

    QJsonObject row(const QString &id) const
    {
        const auto r = TestSupport::httpPostJson(m_home->port(), u"/list-peers"_s,
                                                 QJsonObject {{u"scope"_s, u"machine"_s}, {u"cwd"_s, u"/"_s}},
                                                 m_home->token());
        for (const QJsonValue &v : r.json().toArray()) {
            if (v.toObject().value(u"id"_s).toString() == id)
                return v.toObject();
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (TestSupport::brokerExe().isEmpty())
            QSKIP("claude-peers-broker is not built");
        m_home = std::make_unique<TestHome>();
        m_broker = std::make_unique<BrokerProcess>(*m_home);
        QVERIFY2(m_broker->start(), m_broker->stderrOutput().constData());
    }

    void cleanupTestCase()
    {
        m_broker.reset();
        m_home.reset();
    }

    void statesArriveFromEachEvent()
    {
        Session session;
        const QString id = registerPeer(session.pid(), u"/work/hooked"_s);
        QVERIFY(!id.isEmpty());

        struct Step
        {
            QString event;
            QJsonObject extra;
            QString state; // empty: cleared
            QString message;
        };
        const Step steps[] = {
            {u"UserPromptSubmit"_s, {{u"prompt"_s, u"fix the tests"_s}}, u"busy"_s, {}},
            {u"Notification"_s,
             {{u"message"_s, u"Claude needs your permission to use Bash"_s},
              {u"notification_type"_s, u"permission_prompt"_s}},
             u"needs-you"_s,
             u"Claude needs your permission to use Bash"_s},
            {u"Stop"_s, {{u"stop_hook_active"_s, false}}, u"idle"_s, {}},
            {u"SessionEnd"_s, {{u"reason"_s, u"other"_s}}, {}, {}},
        };
        for (const Step &step : steps) {
            const HookRun run =
                runHook(env(), {step.event}, hookJson(step.event, u"/work/hooked"_s, step.extra));
            QCOMPARE(run.code, 0);
            QVERIFY2(run.out.isEmpty(), run.out.constData()); // Claude Code would read stdout
            QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
            const QJsonObject r = row(id);
            QCOMPARE(r.value(u"attention"_s).toString(), step.state);
            QCOMPARE(r.value(u"attention_message"_s).toString(), step.message);
            QCOMPARE(r.contains(u"attention_since"_s), !step.state.isEmpty());
        }
    }

    void eventWithoutAttentionChangesNothing()
    {
        Session session;
        const QString id = registerPeer(session.pid(), u"/work/quiet"_s);
        for (const QByteArray &input :
             {hookJson(u"PreToolUse"_s, u"/work/quiet"_s),
              hookJson(u"Notification"_s, u"/work/quiet"_s, {{u"notification_type"_s, u"auth_success"_s}})}) {
            const HookRun run = runHook(env(), {}, input);
            QCOMPARE(run.code, 0);
            QVERIFY(run.out.isEmpty());
            QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        }
        QVERIFY(!row(id).contains(u"attention"_s));
    }

    void findsThePeerByTerminalIdOrFolder()
    {
        // Peers whose helper is no child of our parent: only the other ways find them.
        Orphan byTty;
        Orphan byId;
        Orphan byFolder;
        QVERIFY(byTty.pid() > 0 && byId.pid() > 0 && byFolder.pid() > 0);
        const QString ttyPeer = registerPeer(byTty.pid(), u"/work/t"_s, u"pts/917"_s);
        const QString idPeer = registerPeer(byId.pid(), u"/work/i"_s, u"pts/918"_s);
        // A helper without a terminal asks for the id hashed from its client and folder.
        const QString folderId = QString::fromLatin1(
            QCryptographicHash::hash("client:claude-code:/work/folder-peer", QCryptographicHash::Sha256)
                .toHex()
                .left(8));
        const auto registered = TestSupport::httpPostJson(m_home->port(), u"/register"_s,
                                                          QJsonObject {{u"pid"_s, byFolder.pid()},
                                                                       {u"cwd"_s, u"/work/folder-peer"_s},
                                                                       {u"requested_id"_s, folderId}},
                                                          m_home->token());
        QCOMPARE(registered.object().value(u"id"_s).toString(), folderId);

        QProcessEnvironment tty = env();
        tty.insert(u"CLAUDE_PEERS_TTY"_s, u"pts/917"_s);
        QCOMPARE(runHook(tty, {u"Stop"_s}, hookJson(u"Stop"_s, u"/work/t"_s)).code, 0);
        QCOMPARE(row(ttyPeer).value(u"attention"_s).toString(), u"idle"_s);

        QProcessEnvironment explicitId = env();
        explicitId.insert(u"CLAUDE_PEERS_ID"_s, idPeer);
        QCOMPARE(
            runHook(explicitId, {u"UserPromptSubmit"_s}, hookJson(u"UserPromptSubmit"_s, u"/work/i"_s)).code,
            0);
        QCOMPARE(row(idPeer).value(u"attention"_s).toString(), u"busy"_s);

        QProcessEnvironment noTty = env();
        noTty.insert(u"CLAUDE_PEERS_TTY"_s, QString());
        const HookRun run =
            runHook(noTty, {u"Notification"_s}, hookJson(u"Notification"_s, u"/work/folder-peer"_s));
        QCOMPARE(run.code, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        QCOMPARE(row(folderId).value(u"attention"_s).toString(), u"needs-you"_s);
        // The others were left alone.
        QCOMPARE(row(ttyPeer).value(u"attention"_s).toString(), u"idle"_s);
        QCOMPARE(row(idPeer).value(u"attention"_s).toString(), u"busy"_s);
    }

    void noPeerForTheSessionSaysSoAndExitsZero()
    {
        QProcessEnvironment e = env();
        e.insert(u"CLAUDE_PEERS_TTY"_s, u"pts/999"_s);
        const HookRun run = runHook(e, {u"Stop"_s}, hookJson(u"Stop"_s, u"/work/nobody-here"_s));
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(u"no registered peer belongs to this session"_s), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
    }

    void garbageInputExitsZeroAndStoresNothing_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("not JSON") << QByteArray("{\"hook_event_name\": \"Notification\", oops");
        QTest::newRow("a JSON array") << QByteArray("[1,2,3]");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe garbage", 12);
        QTest::newRow("too large") << QByteArray(200 * 1024, '{');
    }
    void garbageInputExitsZeroAndStoresNothing()
    {
        QFETCH(QByteArray, input);
        Session session;
        const QString id = registerPeer(session.pid(), u"/work/garbage"_s);
        const HookRun run = runHook(env(), {u"Notification"_s}, input);
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(u"claude-peers hook: "_s), qPrintable(run.err));
        QCOMPARE(run.err.count(u'\n'), 1);
        QVERIFY(!row(id).contains(u"attention"_s));
    }

    void brokerDownExitsZeroAtOnce()
    {
        TestHome home; // no broker runs on its port
        const HookRun run = runHook(home.environment(), {u"Stop"_s}, hookJson(u"Stop"_s, u"/work/x"_s));
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(u"not reachable"_s), qPrintable(run.err));
        // Not a timing assert: the hook gives up after 250 ms, far inside this, but a hang would not.
        QVERIFY2(run.elapsedMs < TestSupport::scaled(5000), qPrintable(QString::number(run.elapsedMs)));
    }

    void hungBrokerIsGivenUpOn()
    {
        // Accepts connections (the kernel's backlog does) and never answers.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        TestHome home;
        QProcessEnvironment e = home.environment();
        e.insert(u"CLAUDE_PEERS_PORT"_s, QString::number(silent.serverPort()));
        const HookRun run =
            runHook(e, {u"UserPromptSubmit"_s}, hookJson(u"UserPromptSubmit"_s, u"/work/x"_s));
        QCOMPARE(run.code, 0);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.startsWith(u"claude-peers hook: "_s), qPrintable(run.err));
        QVERIFY2(run.elapsedMs < TestSupport::scaled(5000), qPrintable(QString::number(run.elapsedMs)));
    }

    void printConfigIsTheSettingsSnippet()
    {
        const HookRun run = runHook(env(), {u"--print-config"_s}, {});
        QCOMPARE(run.code, 0);
        QVERIFY(run.err.isEmpty());
        QJsonParseError error {};
        const QJsonObject snippet = QJsonDocument::fromJson(run.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject hooks = snippet.value(u"hooks"_s).toObject();
        QCOMPARE(hooks.keys(),
                 QStringList({u"Notification"_s, u"SessionEnd"_s, u"Stop"_s, u"UserPromptSubmit"_s}));
        for (const QString &event : hooks.keys()) {
            const QJsonObject command =
                hooks.value(event).toArray().at(0).toObject().value(u"hooks"_s).toArray().at(0).toObject();
            QCOMPARE(command.value(u"type"_s).toString(), u"command"_s);
            QVERIFY(command.value(u"command"_s).toString().endsWith(u"claude-peers hook "_s + event));
            QVERIFY(command.value(u"timeout"_s).toInt() > 0);
        }
    }
};

QTEST_GUILESS_MAIN(tst_Hook)
#include "tst_hook.moc"
