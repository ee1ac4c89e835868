// The helper per kind of MCP client (docs/mcp-helper.md, "What the model sees"): when pushes
// start (the push gate), the channel_push state it reports, what it repeats in the banner and
// check_messages, and what it acknowledges: only what the model could see.
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QTest>

using namespace TestSupport;

namespace {

const QString TtyA = QStringLiteral("pts/301");
const QString TtyB = QStringLiteral("pts/302");

enum class Kind { ChannelClient, Unknown, OpenCode };

void identify(McpClient &c, Kind kind)
{
    if (kind == Kind::ChannelClient)
        c.setClientInfo(QStringLiteral("claude-code"), McpClient::channelCapabilities());
    else if (kind == Kind::OpenCode)
        c.setClientInfo(QStringLiteral("opencode"));
}

bool isHello(const QJsonObject &line)
{
    return line.value(QLatin1String("method")) == QLatin1String("notifications/claude/channel") &&
        line.value(QLatin1String("params"))
            .toObject()
            .value(QLatin1String("meta"))
            .toObject()
            .value(QLatin1String("message_id")) == QLatin1String("startup-hello");
}

} // namespace

class tst_McpClientKinds : public QObject
{
    Q_OBJECT

    static QProcessEnvironment env(const TestHome &home, const QString &tty,
                                   std::initializer_list<QPair<QString, QString>> extra = {})
    {
        QProcessEnvironment e = helperEnvironment(home, false, tty);
        for (const auto &[k, v] : extra)
            e.insert(k, v);
        return e;
    }

    // Started, initialized, registered; pushes open (it called a tool).
    static std::unique_ptr<McpClient> helper(QProcessEnvironment e, const QString &tty, Kind kind)
    {
        auto c = std::make_unique<McpClient>(e);
        identify(*c, kind);
        if (!c->start() || !c->initialize())
            return nullptr;
        if (!c->waitRegistered(peerIdOfTty(tty)))
            return nullptr;
        return c;
    }

    static qint64 send(McpClient &from, const QString &toTty, const QString &text)
    {
        return messageIdFromSendResult(McpClient::text(from.callTool(
            QStringLiteral("send_message"),
            toolArgs({{QStringLiteral("to_id"), peerIdOfTty(toTty)}, {QStringLiteral("message"), text}}))));
    }

    static bool confirmed(McpClient &c, qint64 id)
    {
        return McpClient::text(c.callTool(QStringLiteral("message_status"),
                                          toolArgs({{QStringLiteral("message_id"), id}})))
            .startsWith(QStringLiteral("Message #%1: confirmed").arg(id));
    }

    // channel_push as the broker stores it.
    static QString brokerChannelPush(const TestHome &home, const QString &tty)
    {
        return peerRowOfTty(home, tty).value(QLatin1String("channel_push")).toString();
    }

    static QString whoamiPush(McpClient &c)
    {
        const QString text = McpClient::text(c.callTool(QStringLiteral("whoami")));
        const qsizetype at = text.indexOf(QLatin1String("Channel push: "));
        return at < 0 ? QString() : text.mid(at + 14, text.indexOf(QLatin1Char('\n'), at) - at - 14);
    }

    // A broker, a sender A (a client that says nothing about pushes) and a receiver B.
    struct Pair
    {
        TestHome home;
        BrokerProcess broker {home};
        std::unique_ptr<McpClient> a;
        std::unique_ptr<McpClient> b;
        bool start(Kind receiver)
        {
            if (!broker.start())
                return false;
            a = helper(env(home, TtyA), TtyA, Kind::Unknown);
            b = helper(env(home, TtyB), TtyB, receiver);
            return a && b;
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(mcpExe()));
        QVERIFY(QFileInfo::exists(brokerExe()));
    }

    // Issue 7 §2.1: nothing is pushed on `initialized`; the hello and a message queued before
    // the start go out once the client answered the ping that follows the tools/list answer.
    void pushesWaitUntilTheClientAnsweredThePingAfterToolsList()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(env(home, TtyA), TtyA, Kind::ChannelClient);
        // B's tty has a message waiting: a helper registered it and died without reading.
        {
            McpClient b0(env(home, TtyB));
            QVERIFY(b0.start() && b0.initialize(false));
            QVERIFY(McpClient::waitUntil(
                [&] {
                    return McpClient::text(b0.callTool(QStringLiteral("whoami"))).contains(peerIdOfTty(TtyB));
                },
                scaled(15000)));
            QVERIFY(send(*a, TtyB, QStringLiteral("waiting for you")) > 0);
            b0.kill();
        }
        McpClient b(env(home, TtyB,
                        {{QStringLiteral("CLAUDE_PEERS_PUSH_READY_MS"), QStringLiteral("60000")},
                         {QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"), QStringLiteral("1")}}));
        identify(b, Kind::ChannelClient);
        QVERIFY(b.start() && b.initialize());
        // Registered (with the message) long before the client is ready.
        QTest::qWait(1500);
        QCOMPARE(b.helloCount(), 0);
        QVERIFY(b.channelMessages().isEmpty());
        const int listId = b.request(QStringLiteral("tools/list"));
        QVERIFY(b.waitForChannelMessages(1, 10000));
        QTRY_COMPARE_WITH_TIMEOUT(b.helloCount(), 1, scaled(5000));
        // Order on the wire: tools/list answer, our ping, (its reply), then the pushes.
        const qsizetype answer = b.indexOfLine([&](const QJsonObject &o) {
            return !o.contains(QLatin1String("method")) && o.value(QLatin1String("id")) == QJsonValue(listId);
        });
        const qsizetype ping = b.indexOfLine(
            [](const QJsonObject &o) { return o.value(QLatin1String("method")) == QLatin1String("ping"); });
        const qsizetype hello = b.indexOfLine(isHello);
        const qsizetype message = b.indexOfLine([](const QJsonObject &o) {
            return o.value(QLatin1String("method")) == QLatin1String("notifications/claude/channel") &&
                !isHello(o);
        });
        QVERIFY(answer >= 0 && ping > answer && hello > ping && message > ping);
    }

    // Without tools/list or an answer to the ping, pushes start after the bounded delay.
    void pushesStartAfterTheDelayWhenTheClientNeverAnswers()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient b(env(home, TtyB,
                        {{QStringLiteral("CLAUDE_PEERS_PUSH_READY_MS"), QStringLiteral("5000")},
                         {QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"), QStringLiteral("1")}}));
        identify(b, Kind::ChannelClient);
        b.setAnswerPings(false);
        QVERIFY(b.start() && b.initialize());
        b.request(QStringLiteral("tools/list"));
        QTest::qWait(1500);
        QCOMPARE(b.helloCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(b.helloCount(), 1, scaled(15000));
    }

    // As Claude Code starts a session: initialize, tools/list, the ping answered, and no tool
    // call. channel_push turns "working" when pushes start, with or without the hello (issue 32
    // §4: it stayed "unknown" because the hello's line was reported written before its number
    // was stored). The hello is opt-in: Claude Code starts a model turn for it (issue 32 §3).
    void channelPushWorksRightAfterStartWithoutAToolCall_data()
    {
        QTest::addColumn<QString>("helloSetting");
        QTest::addColumn<int>("hellos");
        QTest::newRow("default") << QString() << 0;
        QTest::newRow("hello on") << QStringLiteral("1") << 1;
    }
    void channelPushWorksRightAfterStartWithoutAToolCall()
    {
        QFETCH(QString, helloSetting);
        QFETCH(int, hellos);
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        QProcessEnvironment e = env(home, TtyB);
        e.remove(QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"));
        if (!helloSetting.isEmpty())
            e.insert(QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"), helloSetting);
        McpClient b(e);
        identify(b, Kind::ChannelClient);
        QVERIFY(b.start() && b.initialize());
        const int listId = b.request(QStringLiteral("tools/list"));
        QVERIFY(McpClient::waitUntil(
            [&] {
                return b.indexOfLine([&](const QJsonObject &o) {
                    return !o.contains(QLatin1String("method")) &&
                        o.value(QLatin1String("id")) == QJsonValue(listId);
                }) >= 0;
            },
            scaled(10000)));
        QTRY_COMPARE_WITH_TIMEOUT(brokerChannelPush(home, TtyB), QStringLiteral("working"), scaled(10000));
        QTest::qWait(1500); // a hello would be written right after the ping's reply
        QCOMPARE(b.helloCount(), hellos);
        QCOMPARE(brokerChannelPush(home, TtyB), QStringLiteral("working"));
    }

    // Issue 7 §2.2, §2.3: channel_push says only what the helper can know.
    void channelPushStatePerClient_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("hello");
        QTest::addColumn<QString>("beforeAMessage");
        QTest::addColumn<QString>("afterAMessage");
        QTest::newRow("channel client, hello") << int(Kind::ChannelClient) << true << "working"
                                               << "working";
        // Pushes started (the gate opened) to a client that shows them: no hello needed.
        QTest::newRow("channel client, no hello") << int(Kind::ChannelClient) << false << "working"
                                                  << "working";
        // A tool call proves nothing about pushes (the reference's "working" heuristic).
        QTest::newRow("unknown client") << int(Kind::Unknown) << true << "unknown"
                                        << "unknown";
        QTest::newRow("opencode") << int(Kind::OpenCode) << true << "unverified"
                                  << "unverified";
    }
    void channelPushStatePerClient()
    {
        QFETCH(int, kind);
        QFETCH(bool, hello);
        QFETCH(QString, beforeAMessage);
        QFETCH(QString, afterAMessage);
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(env(home, TtyA), TtyA, Kind::Unknown);
        auto b = helper(env(home, TtyB,
                            {{QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"),
                              hello ? QStringLiteral("1") : QStringLiteral("0")}}),
                        TtyB, Kind(kind));
        QVERIFY(a && b);
        QTRY_COMPARE_WITH_TIMEOUT(brokerChannelPush(home, TtyB), beforeAMessage, scaled(5000));
        QTest::qWait(1000); // and it stays so
        QCOMPARE(brokerChannelPush(home, TtyB), beforeAMessage);
        QCOMPARE(whoamiPush(*b), beforeAMessage);
        QCOMPARE(b->helloCount(), hello && Kind(kind) != Kind::OpenCode ? 1 : 0);
        QVERIFY(send(*a, TtyB, QStringLiteral("state?")) > 0);
        QTRY_COMPARE_WITH_TIMEOUT(brokerChannelPush(home, TtyB), afterAMessage, scaled(5000));
        QCOMPARE(whoamiPush(*b), afterAMessage);
    }

    // Issue 7 §2.4: Claude Code says nothing in initialize; the helper reads its parent's
    // command line and Claude Code's cached flag. Here the parent is a shell carrying the flag.
    void claudeCodeIsJudgedByItsCommandLine_data()
    {
        QTest::addColumn<QStringList>("parentArguments");
        QTest::addColumn<QString>("state");
        QTest::newRow("with the channels flag")
            << QStringList {QStringLiteral("--dangerously-load-development-channels"),
                            QStringLiteral("server:claude-peers")}
            << "working";
        QTest::newRow("without") << QStringList {QStringLiteral("--debug")} << "unverified";
    }
    void claudeCodeIsJudgedByItsCommandLine()
    {
        QFETCH(QStringList, parentArguments);
        QFETCH(QString, state);
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        {
            QFile claudeJson(home.path() + QStringLiteral("/.claude.json"));
            QVERIFY(claudeJson.open(QIODevice::WriteOnly));
            claudeJson.write(R"({"cachedGrowthBookFeatures":{"tengu_harbor":true}})");
        }
        QProcessEnvironment e =
            env(home, TtyB, {{QStringLiteral("CLAUDE_PEERS_STARTUP_HELLO"), QStringLiteral("1")}});
        for (const char *name :
             {"DISABLE_TELEMETRY", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DO_NOT_TRACK",
              "DISABLE_GROWTHBOOK", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
              "CLAUDE_CODE_USE_FOUNDRY", "CLAUDE_PEERS_CHANNELS", "CLAUDE_PEERS_SERVER_NAME"})
            e.remove(QLatin1String(name));
        // sh runs the helper as its child ("; exit" keeps it from exec-ing it).
        McpClient b(e, QStringLiteral("/bin/sh"));
        b.setClientInfo(QStringLiteral("claude-code"),
                        QJsonObject {{QStringLiteral("roots"), QJsonObject()},
                                     {QStringLiteral("elicitation"), QJsonObject()}});
        QVERIFY(b.start(QStringList {QStringLiteral("-c"), QStringLiteral("\"$0\"; exit $?"), mcpExe()} +
                        parentArguments));
        QVERIFY(b.initialize());
        QVERIFY(b.waitRegistered(peerIdOfTty(TtyB)));
        QTRY_COMPARE_WITH_TIMEOUT(brokerChannelPush(home, TtyB), state, scaled(5000));
        QCOMPARE(b.helloCount(), state == QLatin1String("working") ? 1 : 0);
        b.closeStdin();
        QVERIFY(b.waitForExit(10000));
    }

    // Issue 7 §3.1, §2.4: what is acknowledged, and what is repeated, per client.
    void channelClientSeesEachMessageOnce()
    {
        Pair p;
        QVERIFY(p.start(Kind::ChannelClient));
        auto &a = p.a;
        auto &b = p.b;
        const qint64 id = send(*a, TtyB, QStringLiteral("once"));
        QVERIFY(b->waitForChannelMessages(1, 10000));
        QTRY_VERIFY_WITH_TIMEOUT(confirmed(*a, id), scaled(5000)); // the push is what it saw
        QTest::qWait(5200); // past the banner's grace
        const QString who = McpClient::text(b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.startsWith(QLatin1String("ID: ")), qPrintable(who)); // no banner
        QCOMPARE(McpClient::text(b->callTool(QStringLiteral("check_messages"))),
                 QStringLiteral("No new messages."));
    }

    void unknownClientIsAcknowledgedWhenAToolResultShowsIt()
    {
        Pair p;
        QVERIFY(p.start(Kind::Unknown));
        auto &a = p.a;
        auto &b = p.b;
        const qint64 id = send(*a, TtyB, QStringLiteral("maybe seen"));
        QVERIFY(b->waitForChannelMessages(1, 10000)); // pushed, in case it is shown
        QTest::qWait(1000);
        QVERIFY(!confirmed(*a, id)); // but not known to be seen
        QTest::qWait(4300);
        const QString who = McpClient::text(b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.startsWith(QLatin1String("--- QUEUED PEER MESSAGES (1) ---")), qPrintable(who));
        QTRY_VERIFY_WITH_TIMEOUT(confirmed(*a, id), scaled(5000));
    }

    void openCodeGetsNoPushAndAnImmediateBanner()
    {
        Pair p;
        QVERIFY(p.start(Kind::OpenCode));
        auto &a = p.a;
        auto &b = p.b;
        const qint64 id = send(*a, TtyB, QStringLiteral("for opencode"));
        QTest::qWait(1500);
        QVERIFY(b->channelMessages().isEmpty());
        QCOMPARE(b->helloCount(), 0);
        QVERIFY(!confirmed(*a, id));
        // The next tool result shows it, no grace needed: nothing else can have shown it.
        const QString who = McpClient::text(b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.startsWith(
                     QStringLiteral("--- QUEUED PEER MESSAGES (1) ---\nFrom %1 (msg#%2): for opencode\n")
                         .arg(peerIdOfTty(TtyA))
                         .arg(id)),
                 qPrintable(who));
        QTRY_VERIFY_WITH_TIMEOUT(confirmed(*a, id), scaled(5000));
        const QString health = McpClient::text(b->callTool(QStringLiteral("channel_health")));
        QVERIFY2(
            health.contains(QLatin1String("Channel push: unverified\n  Why: OpenCode does not show channel "
                                          "notifications")),
            qPrintable(health));
    }

    // A message the model never saw stays at the broker and goes to the peer's next helper.
    void unseenMessageGoesToTheNextHelper()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(env(home, TtyA), TtyA, Kind::Unknown);
        auto b = helper(
            env(home, TtyB,
                {{QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("peers.mcp.delivery.debug=true")}}),
            TtyB, Kind::OpenCode);
        QVERIFY(a && b);
        const qint64 id = send(*a, TtyB, QStringLiteral("do not lose me"));
        // The starting state: B's helper fetched it and holds it for a tool result it never makes.
        const QByteArray fetched =
            QStringLiteral("queued message %1 for the next tool result").arg(id).toUtf8();
        QVERIFY(McpClient::waitUntil([&] { return b->stderrOutput().contains(fetched); }, scaled(10000)));
        QVERIFY(!confirmed(*a, id));
        b->closeStdin(); // OpenCode exits before any tool call
        QVERIFY(b->waitForExit(10000));
        b.reset();
        QVERIFY(!confirmed(*a, id));
        auto b2 = helper(env(home, TtyB), TtyB, Kind::OpenCode);
        QVERIFY(b2);
        // In some tool result (the banner of the first whoami may already carry it).
        auto shownInAToolResult = [&] {
            for (const QJsonObject &line : b2->allLines()) {
                if (McpClient::text(line.value(QLatin1String("result")).toObject())
                        .contains(QLatin1String("do not lose me")))
                    return true;
            }
            return false;
        };
        QVERIFY(McpClient::waitUntil(
            [&] {
                b2->callTool(QStringLiteral("check_messages"));
                return shownInAToolResult();
            },
            scaled(10000)));
        QTRY_VERIFY_WITH_TIMEOUT(confirmed(*a, id), scaled(5000));
    }
};

QTEST_GUILESS_MAIN(tst_McpClientKinds)
#include "tst_mcpclientkinds.moc"
