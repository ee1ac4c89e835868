// SIGSTOP / SIGCONT of the broker for longer than the helpers' request timeouts and longer than
// the heartbeat timeout: the helpers say so in their tool results, recover by themselves once
// the broker runs again, and nobody is evicted or has mail bounced because of the pause (the
// broker counts its own pause as a grace period, issue 7 §1.6).
#include "tests/fault/faultsupport.h"
#include "tests/mcp_stdio/helperenv.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTest>

#include <csignal>

using namespace TestSupport;
using namespace FaultSupport;

namespace {

const QString TtyA = QStringLiteral("pts/301");
const QString TtyB = QStringLiteral("pts/302");
constexpr int HeartbeatTimeoutMs = 20000; // above the helpers' 14 s wait cycle
constexpr int PauseMs = HeartbeatTimeoutMs + 3000;

bool sendOk(McpClient &from, const QString &to, const QString &text, QString *answer = nullptr)
{
    const QJsonObject r =
        from.callTool(QStringLiteral("send_message"),
                      args({{QStringLiteral("to_id"), to}, {QStringLiteral("message"), text}}), 30000);
    if (answer)
        *answer = McpClient::text(r);
    return !r.isEmpty() && !McpClient::isError(r);
}

bool received(McpClient &c, const QString &text)
{
    for (const QJsonObject &p : c.channelMessages()) {
        if (p.value(QLatin1String("content")).toString() == text)
            return true;
    }
    return false;
}

} // namespace

class tst_BrokerPause : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(mcpExe()));
    }

    void sigstopLongerThanEveryTimeoutEvictsNobody()
    {
        TestHome home;
        QFile config(home.configPath());
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral(R"({"broker": {"heartbeat_timeout_ms": %1, "sweep_interval_ms": 500}})")
                         .arg(HeartbeatTimeoutMs)
                         .toUtf8());
        config.close();
        HelperBrokerGuard guard {home};
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));
        BrokerProcess broker(home, extra);
        QVERIFY(broker.start());
        auto a = startHelper(home, TtyA, true);
        auto b = startHelper(home, TtyB, true);
        QVERIFY(a && b);
        // C: a session whose helper never reads its mail, so a message waits for it.
        QProcess session;
        session.start(QStringLiteral("sleep"), {QStringLiteral("300")});
        QVERIFY(session.waitForStarted());
        const auto endSession = qScopeGuard([&] {
            session.kill();
            session.waitForFinished();
        });
        const QString c = httpPostJson(home.port(), QStringLiteral("/register"),
                                       {{QStringLiteral("pid"), session.processId()},
                                        {QStringLiteral("cwd"), QStringLiteral("/c")}},
                                       home.token())
                              .object()
                              .value(QStringLiteral("id"))
                              .toString();
        QVERIFY(!c.isEmpty());
        QVERIFY(sendOk(*a, idOf(TtyB), QStringLiteral("before the pause")));
        QVERIFY(sendOk(*a, c, QStringLiteral("for C, unread")));
        QVERIFY(b->waitForChannelMessages(1, 10000));

        ::kill(pid_t(broker.pid()), SIGSTOP);
        QElapsedTimer paused;
        paused.start();
        // A tool call that needs the broker says plainly that it does not answer.
        QString during;
        QVERIFY(!sendOk(*a, idOf(TtyB), QStringLiteral("during the pause"), &during));
        const qint64 troubleMs = paused.elapsed();
        QVERIFY2(during.contains(QLatin1String("not reachable")) ||
                     during.contains(QLatin1String("not registered")),
                 qPrintable(during));
        QString whoami;
        QVERIFY(McpClient::waitUntil(
            [&] {
                whoami = McpClient::text(a->callTool(QStringLiteral("whoami")));
                return whoami.contains(QLatin1String("not registered"));
            },
            scaled(10000)));
        QTest::qWait(int(qMax<qint64>(0, PauseMs - paused.elapsed())));
        ::kill(pid_t(broker.pid()), SIGCONT);
        const qint64 pausedMs = paused.elapsed();

        // Recovery: the helpers come back by themselves; A's next sends go through.
        QElapsedTimer resumed;
        resumed.start();
        QVERIFY(McpClient::waitUntil(
            [&] { return sendOk(*a, idOf(TtyB), QStringLiteral("after the pause")); }, scaled(30000)));
        const qint64 recoveryMs = resumed.elapsed();
        QVERIFY(McpClient::waitUntil([&] { return received(*b, QStringLiteral("after the pause")); },
                                     scaled(10000)));
        QVERIFY(McpClient::text(a->callTool(QStringLiteral("whoami")))
                    .startsWith(QStringLiteral("ID: ") + idOf(TtyA)));
        // Several sweeps run after the resume (every 500 ms): none may evict or bounce.
        QTest::qWait(scaled(3000));
        const QByteArray log = broker.stderrOutput();
        qInfo().noquote() << QStringLiteral("SIGSTOP for %1 ms (heartbeat timeout %2 ms): first tool "
                                            "result reporting trouble after %3 ms, sends ok again %4 ms "
                                            "after SIGCONT; broker log: %5 evictions, %6 bounces")
                                 .arg(pausedMs)
                                 .arg(HeartbeatTimeoutMs)
                                 .arg(troubleMs)
                                 .arg(recoveryMs)
                                 .arg(log.count("Removed peer") + log.count("Evicted peer"))
                                 .arg(log.count("Bounced message"));
        qInfo().noquote() << "during the pause, send_message said:" << during;
        QVERIFY2(!log.contains("Removed peer") && !log.contains("Bounced message"), log.constData());
        QCOMPARE(broker.process().state(), QProcess::Running);
        for (const QJsonObject &p : a->channelMessages())
            QVERIFY2(p.value(QLatin1String("meta")).toObject().value(QLatin1String("from_id")) !=
                         QLatin1String("system"),
                     qPrintable(p.value(QLatin1String("content")).toString()));
        const QString peers = McpClient::text(a->callTool(
            QStringLiteral("list_peers"), args({{QStringLiteral("scope"), QStringLiteral("machine")}})));
        QVERIFY2(peers.contains(idOf(TtyB)) && peers.contains(c), qPrintable(peers));
        // C's unread message is still waiting for it.
        const QJsonObject polled = httpPostJson(home.port(), QStringLiteral("/poll-messages"),
                                                {{QStringLiteral("id"), c}}, home.token())
                                       .object();
        QCOMPARE(polled.value(QStringLiteral("messages")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_BrokerPause)
#include "tst_brokerpause.moc"
