// A scheduled task that messages a peer, end to end through the real programs: a real
// claude-peers-broker, a real claude-peers-mcp helper named "reviewer" (set_name), the real
// claude-peers CLI creating and running the task. The helper writes the task's prompt to its
// stdout as a channel notification from "operator". Plus the CLI's refusals of bad input.
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QTest>

using namespace TestSupport;

namespace {

const QString Tty = QStringLiteral("pts/211");

struct CliResult
{
    int code = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

} // namespace

class tst_PeerScheduleE2e : public QObject
{
    Q_OBJECT

    static CliResult cli(const TestHome &home, const QStringList &args)
    {
        QProcess p;
        p.setProcessEnvironment(home.environment());
        p.start(cliExe(), args);
        CliResult r;
        if (!p.waitForFinished(scaled(30000))) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(mcpExe()));
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(cliExe()));
    }

    void helperReceivesTheScheduledMessage()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient reviewer(helperEnvironment(home, false, Tty));
        reviewer.setClientInfo(QStringLiteral("claude-code"), McpClient::channelCapabilities());
        QVERIFY(reviewer.start());
        QVERIFY(reviewer.initialize());
        QVERIFY(reviewer.waitRegistered(peerIdOfTty(Tty)));
        QVERIFY(!McpClient::isError(reviewer.callTool(
            QStringLiteral("set_name"), toolArgs({{QStringLiteral("name"), QStringLiteral("reviewer")}}))));

        const CliResult created =
            cli(home,
                {QStringLiteral("schedule"), QStringLiteral("create"), QStringLiteral("--peer"),
                 QStringLiteral("reviewer"), QStringLiteral("--name"), QStringLiteral("Morning review"),
                 QStringLiteral("--prompt"), QStringLiteral("review yesterday's commits"),
                 QStringLiteral("--daily"), QStringLiteral("09:00"), QStringLiteral("--timezone"),
                 QStringLiteral("UTC"), QStringLiteral("--json")});
        QVERIFY2(created.code == 0, created.err.constData());
        const QJsonObject task = created.json().value(QStringLiteral("task")).toObject();
        const QString taskId = task.value(QStringLiteral("id")).toString();
        QVERIFY(!taskId.isEmpty());
        QCOMPARE(task[QStringLiteral("execution")][QStringLiteral("peer")].toString(),
                 QStringLiteral("reviewer"));

        // Run now: the same path as a run at its time (the clock's side is tst_peerschedule's).
        const CliResult ran = cli(home,
                                  {QStringLiteral("schedule"), QStringLiteral("run"),
                                   QStringLiteral("--task"), taskId, QStringLiteral("--json")});
        QVERIFY2(ran.code == 0, ran.err.constData());
        const qint64 messageId = ran.json().value(QStringLiteral("messageId")).toInteger();
        QVERIFY(messageId > 0);
        QCOMPARE(ran.json().value(QStringLiteral("peerId")).toString(), peerIdOfTty(Tty));

        QVERIFY(reviewer.waitForChannelMessages(1, scaled(10000)));
        const QJsonObject pushed = reviewer.channelMessages().first();
        QCOMPARE(pushed.value(QStringLiteral("content")).toString(),
                 QStringLiteral("review yesterday's commits"));
        const QJsonObject meta = pushed.value(QStringLiteral("meta")).toObject();
        QCOMPARE(meta.value(QStringLiteral("from_id")).toString(), QStringLiteral("operator"));
        QCOMPARE(meta.value(QStringLiteral("message_id")).toString(), QString::number(messageId));
        const QJsonObject metadata =
            QJsonDocument::fromJson(meta.value(QStringLiteral("metadata_json")).toString().toUtf8()).object();
        QCOMPARE(metadata.value(QStringLiteral("scheduled_task_id")).toString(), taskId);
        QCOMPARE(metadata.value(QStringLiteral("scheduled_task_name")).toString(),
                 QStringLiteral("Morning review"));
        QVERIFY(reviewer.nonJsonLines().isEmpty());

        // The list shows the last run's message; the human form says where it went.
        const CliResult listed = cli(home,
                                     {QStringLiteral("schedule"), QStringLiteral("list"),
                                      QStringLiteral("--peers"), QStringLiteral("--json")});
        QCOMPARE(listed.code, 0);
        const QJsonObject state =
            listed.json()[QStringLiteral("tasks")].toArray().first()[QStringLiteral("state")].toObject();
        QCOMPARE(state.value(QStringLiteral("lastMessageId")).toInteger(), messageId);
        QCOMPARE(state.value(QStringLiteral("lastStatus")).toString(), QStringLiteral("success"));
        const CliResult human =
            cli(home, {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--peers")});
        QVERIFY2(human.out.contains("to peer: reviewer"), human.out.constData());

        // A peer that is not connected: created (allowed), its run fails and says why (exit 1).
        const CliResult ghost =
            cli(home,
                {QStringLiteral("schedule"), QStringLiteral("create"), QStringLiteral("--peer"),
                 QStringLiteral("ghost"), QStringLiteral("--name"), QStringLiteral("g"),
                 QStringLiteral("--prompt"), QStringLiteral("boo"), QStringLiteral("--cron"),
                 QStringLiteral("0 9 * * 1-5"), QStringLiteral("-q")});
        QVERIFY2(ghost.code == 0, ghost.err.constData());
        const CliResult ghostRun = cli(home,
                                       {QStringLiteral("schedule"), QStringLiteral("run"),
                                        QStringLiteral("--task"), QString::fromUtf8(ghost.out.trimmed())});
        QCOMPARE(ghostRun.code, 1);
        QCOMPARE(ghostRun.err, QByteArray("Error: no peer named ghost is connected\n"));
        QCOMPARE(reviewer.channelMessages().size(), 1);
    }

    void cliRefusesBadInputBeforeAnyRequest_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        const QStringList base {QStringLiteral("schedule"), QStringLiteral("create"),
                                QStringLiteral("--peer"),   QStringLiteral("reviewer"),
                                QStringLiteral("--name"),   QStringLiteral("n"),
                                QStringLiteral("--prompt"), QStringLiteral("p"),
                                QStringLiteral("--daily"),  QStringLiteral("09:00")};
        QTest::newRow("--peer and --model")
            << (base + QStringList {QStringLiteral("--model"), QStringLiteral("a/b")})
            << QStringLiteral("Provide only one of --peer or --model.");
        QTest::newRow("--peer and --agent")
            << (base + QStringList {QStringLiteral("--agent"), QStringLiteral("build")})
            << QStringLiteral(
                   "--agent cannot be combined with --peer: a task that targets a peer sends it a message.");
        QTest::newRow("--peer and --project")
            << (base + QStringList {QStringLiteral("--project"), QStringLiteral("p1")})
            << QStringLiteral(
                   "A task that targets a peer is not kept in a project: leave out --dir and --project.");
        QTest::newRow("--peer on run")
            << QStringList {QStringLiteral("schedule"), QStringLiteral("run"),    QStringLiteral("--task"),
                            QStringLiteral("t"),        QStringLiteral("--peer"), QStringLiteral("x")}
            << QStringLiteral("--peer is only valid for schedule create.");
        QTest::newRow("--peers with --dir")
            << QStringList {QStringLiteral("schedule"), QStringLiteral("list"), QStringLiteral("--peers"),
                            QStringLiteral("--dir"), QStringLiteral("/tmp")}
            << QStringLiteral("Provide only one of --dir, --project or --peers.");
        QTest::newRow("--peers on create") << (base + QStringList {QStringLiteral("--peers")})
                                           << QStringLiteral("--peers is only valid for schedule list.");
        QTest::newRow("neither --peer nor --model")
            << QStringList {QStringLiteral("schedule"), QStringLiteral("create"), QStringLiteral("--dir"),
                            QStringLiteral("/tmp"),     QStringLiteral("--name"), QStringLiteral("n"),
                            QStringLiteral("--prompt"), QStringLiteral("p"),      QStringLiteral("--daily"),
                            QStringLiteral("09:00")}
            << QStringLiteral("Missing required --model (or --peer).");
    }

    void cliRefusesBadInputBeforeAnyRequest()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        TestHome home; // no broker: a request would fail with exit 1, not 2
        const CliResult r = cli(home, args);
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(error), r.err.constData());
    }

    void helpNamesThePeerOptions()
    {
        TestHome home;
        const CliResult r = cli(home, {QStringLiteral("schedule"), QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        const QString help = QString::fromUtf8(r.out + r.err);
        QVERIFY2(help.contains(QStringLiteral("--peer NAME")), qPrintable(help));
        QVERIFY(help.contains(QStringLiteral("--peers")));
    }
};

QTEST_GUILESS_MAIN(tst_PeerScheduleE2e)
#include "tst_peerschedulee2e.moc"
