// Who a helper is and what it tells its client (issue 7 §3.2–3.4), with real helper and broker
// processes: a stable id without a terminal, CLAUDE_PEERS_ID, the client in listings, the
// texts per client, broker trouble as MCP log notifications and in every tool result.
#include "mcp_stdio/tty.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QTest>

using namespace TestSupport;

class tst_HelperIdentity : public QObject
{
    Q_OBJECT

    static QJsonArray peers(const TestHome &home)
    {
        return httpPostJson(home.port(), QStringLiteral("/list-peers"),
                            QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                                         {QStringLiteral("cwd"), QStringLiteral("/")}},
                            home.token())
            .json()
            .toArray();
    }

    static QString firstLine(const QString &text) { return text.section(QLatin1Char('\n'), 0, 0); }

private Q_SLOTS:
    void ttyLessHelperKeepsItsIdAcrossRestarts()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const QString expected =
            Mcp::Tty::stableIdWithoutTty(QStringLiteral("opencode"), QDir::currentPath());
        for (int run = 0; run < 2; ++run) {
            McpClient c(helperEnvironment(home, false)); // no tty
            c.setClientInfo(QStringLiteral("opencode"));
            QVERIFY(c.start());
            // The second client, busy elsewhere, sends initialize late: a real OpenCode under load
            // took over 20 ms, and a helper that had registered by then without knowing its
            // client was listed with no client and an id other than the stable one.
            if (run == 1)
                QTest::qWait(300);
            QVERIFY(c.initialize());
            QTRY_COMPARE_WITH_TIMEOUT(firstLine(McpClient::text(c.callTool(QStringLiteral("whoami")))),
                                      QStringLiteral("ID: ") + expected, scaled(10000));
            const QJsonArray listed = peers(home);
            QCOMPARE(listed.size(), 1);
            QCOMPARE(listed.at(0).toObject().value(QLatin1String("client")).toString(),
                     QStringLiteral("opencode"));
            c.closeStdin();
            QVERIFY(c.waitForExit(5000));
        }
    }

    void claudePeersIdChoosesTheId()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        QProcessEnvironment env = helperEnvironment(home, false, QStringLiteral("pts/61"));
        env.insert(QStringLiteral("CLAUDE_PEERS_ID"), QStringLiteral("reviewer"));
        McpClient c(env);
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        QTRY_COMPARE_WITH_TIMEOUT(firstLine(McpClient::text(c.callTool(QStringLiteral("whoami")))),
                                  QStringLiteral("ID: reviewer"), scaled(10000));
        // A second helper asking for the same id while the first lives gets its own, and says why.
        McpClient second(env);
        QVERIFY(second.start());
        QVERIFY(second.initialize());
        QTRY_COMPARE_WITH_TIMEOUT(peers(home).size(), 2, scaled(10000));
        QTRY_VERIFY_WITH_TIMEOUT(McpClient::text(second.callTool(QStringLiteral("whoami")))
                                     .contains(QLatin1String("reviewer belongs to another live session")),
                                 scaled(10000));
        QCOMPARE(firstLine(McpClient::text(c.callTool(QStringLiteral("whoami")))),
                 QStringLiteral("ID: reviewer"));
    }

    void textsAreWordedForTheClient()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        McpClient open(helperEnvironment(home, false, QStringLiteral("pts/62")));
        open.setClientInfo(QStringLiteral("opencode"));
        QVERIFY(open.start());
        QVERIFY(open.initialize());
        const QString none = McpClient::text(
            open.callTool(QStringLiteral("list_peers"),
                          QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")}}));
        QCOMPARE(none, QStringLiteral("No other peers found (scope: machine)."));
        const QString who = McpClient::text(open.callTool(QStringLiteral("whoami")));
        QVERIFY2(who.contains(QLatin1String("(not used by this client: messages reach you")),
                 qPrintable(who));
        QVERIFY2(who.contains(QLatin1String("Client: OpenCode (opencode)")), qPrintable(who));
        const QJsonArray tools = open.call(QStringLiteral("tools/list"))
                                     .value(QLatin1String("result"))
                                     .toObject()
                                     .value(QLatin1String("tools"))
                                     .toArray();
        for (const QJsonValue &t : tools) {
            const QString description = t.toObject().value(QLatin1String("description")).toString();
            QVERIFY2(!description.contains(QLatin1String("Claude Code instance")), qPrintable(description));
            QVERIFY2(!description.contains(QLatin1String("/rename")), qPrintable(description));
        }
        // The broker never hears "working" from a client without channels.
        QTest::qWait(scaled(500));
        QVERIFY(peers(home).at(0).toObject().value(QLatin1String("channel_push")).toString() !=
                QLatin1String("working"));

        McpClient claude(helperEnvironment(home, false, QStringLiteral("pts/63")));
        claude.setClientInfo(QStringLiteral("claude-code"));
        QVERIFY(claude.start());
        QVERIFY(claude.initialize());
        const QString listed = McpClient::text(
            claude.callTool(QStringLiteral("list_peers"),
                            QJsonObject {{QStringLiteral("scope"), QStringLiteral("directory")}}));
        QVERIFY2(listed.contains(QLatin1String("Client: OpenCode")), qPrintable(listed));
    }

    void brokerTroubleReachesTheClient()
    {
        TestHome home; // no broker, none to start
        QProcessEnvironment env = helperEnvironment(home, false);
        env.insert(QStringLiteral("CLAUDE_PEERS_TOOL_WAIT_MS"), QStringLiteral("200"));
        McpClient c(env);
        c.setClientInfo(QStringLiteral("opencode"));
        QVERIFY(c.start());
        QVERIFY(c.initialize());
        auto troubleNotes = [&c] {
            QList<QJsonObject> notes;
            for (const QJsonObject &line : c.allLines()) {
                if (line.value(QLatin1String("method")) == QLatin1String("notifications/message"))
                    notes << line.value(QLatin1String("params")).toObject();
            }
            return notes;
        };
        QTRY_VERIFY_WITH_TIMEOUT(!troubleNotes().isEmpty(), scaled(10000));
        QCOMPARE(troubleNotes().at(0).value(QLatin1String("level")).toString(), QStringLiteral("error"));
        QVERIFY(troubleNotes()
                    .at(0)
                    .value(QLatin1String("data"))
                    .toString()
                    .startsWith(QLatin1String("No broker answers")));
        // channel_health does not say the reason itself: the tool result carries it.
        const QString health = McpClient::text(c.callTool(QStringLiteral("channel_health")));
        QVERIFY2(health.contains(QLatin1String("\n\n[claude-peers trouble: No broker answers")),
                 qPrintable(health));
        // setLevel critical: the next trouble (a broker that then comes and goes) is not sent.
        QVERIFY(c.call(QStringLiteral("logging/setLevel"),
                       QJsonObject {{QStringLiteral("level"), QStringLiteral("critical")}})
                    .value(QLatin1String("result"))
                    .isObject());
        const qsizetype before = troubleNotes().size();
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        QTRY_VERIFY_WITH_TIMEOUT(firstLine(McpClient::text(c.callTool(QStringLiteral("whoami"))))
                                         .startsWith(QLatin1String("ID: ")) &&
                                     !McpClient::text(c.callTool(QStringLiteral("whoami")))
                                          .contains(QLatin1String("not registered")),
                                 scaled(15000));
        // Registered: the trouble is over, tool results are clean again.
        QVERIFY(!McpClient::text(c.callTool(QStringLiteral("channel_health")))
                     .contains(QLatin1String("trouble")));
        QCOMPARE(troubleNotes().size(), before); // "connected again" is info, below critical
        QVERIFY(c.nonJsonLines().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_HelperIdentity)
#include "tst_helperidentity.moc"
