// Claude Code 2.1.3xx without the channel flag (issue 32): the real helper delivers into the
// session's inbox socket (here a fake one) and follows the session's state file, with nothing
// installed. Checks what the model reads, what is acknowledged and when, the fallback to the
// banner for a held message with the sender told why, and idle → busy → needs-you at the broker.
#include "tests/mcp_stdio/fakeclaudeinbox.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QTest>

using namespace TestSupport;

namespace {

const QString TtyA = QStringLiteral("pts/311");
const QString TtyB = QStringLiteral("pts/312");

} // namespace

class tst_ClaudeCodeInbox : public QObject
{
    Q_OBJECT

    struct Setup
    {
        TestHome home;
        BrokerProcess broker {home};
        QString socketPath = home.runtimeDir() + QStringLiteral("/cc-socks/4242.sock");
        std::unique_ptr<FakeClaudeInbox> inbox;
        std::unique_ptr<McpClient> a; // a plain MCP client
        std::unique_ptr<McpClient> b; // Claude Code, no channel flag, inbox given

        QString sessionFile() const
        {
            // The helper is our child: its parent's session file is ours.
            return home.path() +
                QStringLiteral("/.claude/sessions/%1.json").arg(QCoreApplication::applicationPid());
        }
        bool writeSession(const QByteArray &status, const QByteArray &waitingFor = {}) const
        {
            QByteArray json = "{\"pid\":1,\"sessionId\":\"s\",\"cwd\":\"/\",\"status\":\"" + status + '"';
            if (!waitingFor.isEmpty())
                json += ",\"waitingFor\":\"" + waitingFor + '"';
            json += ",\"messagingSocketPath\":\"" + socketPath.toUtf8() + "\"}";
            QFile f(sessionFile());
            return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(json) == json.size();
        }
        bool start(bool withSessionFile = false)
        {
            if (!QDir().mkpath(QFileInfo(socketPath).absolutePath()) ||
                !QDir().mkpath(QFileInfo(sessionFile()).absolutePath()) || !broker.start())
                return false;
            if (withSessionFile && !writeSession("idle"))
                return false;
            inbox = std::make_unique<FakeClaudeInbox>(socketPath);
            a = std::make_unique<McpClient>(helperEnvironment(home, false, TtyA));
            QProcessEnvironment envB = helperEnvironment(home, false, TtyB);
            envB.insert(QStringLiteral("CLAUDE_CODE_MESSAGING_SOCKET"), socketPath);
            envB.insert(QStringLiteral("CLAUDE_CODE_MESSAGING_TOKEN"), QStringLiteral("inbox-token"));
            envB.remove(QStringLiteral("CLAUDE_PEERS_CHANNELS"));
            // Nothing waits for a channel handler that will never come: delivery starts at
            // notifications/initialized (it once waited out this delay, 3 s by default).
            envB.insert(QStringLiteral("CLAUDE_PEERS_PUSH_READY_MS"), QStringLiteral("60000"));
            b = std::make_unique<McpClient>(envB);
            b->setClientInfo(QStringLiteral("claude-code"));
            return inbox->ok && a->start() && a->initialize() && a->waitRegistered(peerIdOfTty(TtyA)) &&
                b->start() && b->initialize() && b->waitRegistered(peerIdOfTty(TtyB));
        }
        QJsonObject peerRow(const QString &tty) const { return peerRowOfTty(home, tty); }
        qint64 sendToB(const QString &text)
        {
            return messageIdFromSendResult(
                McpClient::text(a->callTool(QStringLiteral("send_message"),
                                            toolArgs({{QStringLiteral("to_id"), peerIdOfTty(TtyB)},
                                                      {QStringLiteral("message"), text}}))));
        }
        bool confirmed(qint64 id)
        {
            return McpClient::text(a->callTool(QStringLiteral("message_status"),
                                               toolArgs({{QStringLiteral("message_id"), id}})))
                .startsWith(QStringLiteral("Message #%1: confirmed").arg(id));
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(mcpExe()));
        QVERIFY(QFileInfo::exists(brokerExe()));
    }

    void deliversIntoTheInboxAndSaysSo()
    {
        Setup s;
        QVERIFY(s.start());
        QTRY_COMPARE_WITH_TIMEOUT(s.peerRow(TtyB).value(QLatin1String("delivery")).toString(),
                                  QStringLiteral("inbox"), scaled(5000));
        const qint64 id = s.sendToB(QStringLiteral("can you review auth.ts?"));
        QVERIFY(id > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!s.inbox->userLines().isEmpty(), scaled(5000));
        QCOMPARE(s.inbox->lines.constFirst().value(QLatin1String("type")).toString(), QStringLiteral("auth"));
        QCOMPARE(s.inbox->lines.constFirst().value(QLatin1String("token")).toString(),
                 QStringLiteral("inbox-token"));
        const QString content = FakeClaudeInbox::content(s.inbox->userLines().constFirst());
        const QString a = peerIdOfTty(TtyA);
        QVERIFY2(content.startsWith(
                     QStringLiteral("[claude-peers] Message #%1 from %2 (peer id %2, on this machine")
                         .arg(id)
                         .arg(a)),
                 qPrintable(content));
        QVERIFY2(content.contains(QStringLiteral(":\ncan you review auth.ts?\n")), qPrintable(content));
        QVERIFY2(content.contains(
                     QStringLiteral("send_message tool with to_id \"%1\" and reply_to %2").arg(a).arg(id)),
                 qPrintable(content));
        QVERIFY(content.contains(QLatin1String("not from your user")));
        // Accepted (no receipt came): acknowledged, and shown nowhere else.
        QTRY_VERIFY_WITH_TIMEOUT(s.confirmed(id), scaled(8000));
        QVERIFY(s.b->channelMessages().isEmpty());
        const QString who = McpClient::text(s.b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.startsWith(QLatin1String("ID: ")), qPrintable(who)); // no banner
        QCOMPARE(McpClient::text(s.b->callTool(QStringLiteral("check_messages"))),
                 QStringLiteral("No new messages."));
        QCOMPARE(s.inbox->userLines().size(), 1);
    }

    // Held for the user's review: the message is not acknowledged as seen, the next tool result
    // shows it, and its sender is told why.
    void heldGoesToTheBannerAndTheSenderLearnsWhy()
    {
        Setup s;
        QVERIFY(s.start());
        const qint64 id = s.sendToB(QStringLiteral("please approve me"));
        QTRY_VERIFY_WITH_TIMEOUT(!s.inbox->userLines().isEmpty(), scaled(5000));
        QVERIFY(s.inbox->sendReceipt(s.inbox->userLines().constFirst(),
                                     {{QStringLiteral("status"), QStringLiteral("held")}}));
        QTest::qWait(2500); // past the confirmation window
        QVERIFY(!s.confirmed(id));
        const QString who = McpClient::text(s.b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.startsWith(
                     QStringLiteral("--- QUEUED PEER MESSAGES (1) ---\nFrom %1 (msg#%2): please approve me\n")
                         .arg(peerIdOfTty(TtyA))
                         .arg(id)),
                 qPrintable(who));
        QTRY_VERIFY_WITH_TIMEOUT(s.confirmed(id), scaled(5000)); // the tool result showed it
        QString notice;
        QVERIFY(McpClient::waitUntil(
            [&] {
                notice = McpClient::text(s.a->callTool(QStringLiteral("check_messages")));
                return notice.contains(QStringLiteral("Your message #%1").arg(id));
            },
            scaled(10000)));
        QVERIFY2(notice.contains(QStringLiteral("Your message #%1 to %2 is held for its user's review")
                                     .arg(id)
                                     .arg(peerIdOfTty(TtyB))),
                 qPrintable(notice));
        QVERIFY2(notice.contains(QLatin1String("because")), qPrintable(notice)); // Claude Code's reason
    }

    // With no inbox socket listening, messages fall back to the banner: nothing is lost.
    void inboxGoneFallsBackToTheBanner()
    {
        Setup s;
        QVERIFY(s.start());
        s.inbox.reset();
        const qint64 id = s.sendToB(QStringLiteral("still there?"));
        QString who;
        QVERIFY(McpClient::waitUntil(
            [&] {
                who = McpClient::text(s.b->callTool(QStringLiteral("whoami")));
                return who.startsWith(QLatin1String("--- QUEUED PEER MESSAGES (1) ---"));
            },
            scaled(10000)));
        QVERIFY2(who.contains(QStringLiteral("(msg#%1): still there?").arg(id)), qPrintable(who));
        QTRY_VERIFY_WITH_TIMEOUT(s.confirmed(id), scaled(5000));
    }

    // State without hooks: the session file says idle, busy, waiting; the broker follows.
    void attentionFollowsTheSessionFile()
    {
        Setup s;
        QVERIFY(s.start(true));
        const auto attention = [&] { return s.peerRow(TtyB).value(QLatin1String("attention")).toString(); };
        QTRY_COMPARE_WITH_TIMEOUT(attention(), QStringLiteral("idle"), scaled(5000));
        QVERIFY(s.writeSession("busy"));
        QTRY_COMPARE_WITH_TIMEOUT(attention(), QStringLiteral("busy"), scaled(5000));
        QVERIFY(s.writeSession("waiting", "permission prompt"));
        QTRY_COMPARE_WITH_TIMEOUT(attention(), QStringLiteral("needs-you"), scaled(5000));
        QCOMPARE(s.peerRow(TtyB).value(QLatin1String("attention_message")).toString(),
                 QStringLiteral("permission prompt"));
        QVERIFY(s.writeSession("idle"));
        QTRY_COMPARE_WITH_TIMEOUT(attention(), QStringLiteral("idle"), scaled(5000));
    }
};

QTEST_GUILESS_MAIN(tst_ClaudeCodeInbox)
#include "tst_claudecodeinbox.moc"
