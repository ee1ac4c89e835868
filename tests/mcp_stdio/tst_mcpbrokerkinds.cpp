// The helper against brokers that are not the one it registered with: a broker restarted on a
// fresh database (message ids start over), a claude-peers 0.7 broker (no /wait-messages, no
// session secret), and a broker whose push stream hangs (the safety net delivers).
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/mcp_stdio/referencebroker.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QTest>

using namespace TestSupport;

namespace {

const QString TtyA = QStringLiteral("pts/201");
const QString TtyB = QStringLiteral("pts/202");

QStringList contents(const McpClient &c)
{
    QStringList out;
    for (const QJsonObject &p : c.channelMessages())
        out << p.value(QLatin1String("content")).toString();
    return out;
}

} // namespace

class tst_McpBrokerKinds : public QObject
{
    Q_OBJECT

    // A registered helper that says it shows channel pushes, pushes open (it called a tool).
    static std::unique_ptr<McpClient> helper(QProcessEnvironment env, const QString &tty)
    {
        auto c = std::make_unique<McpClient>(env);
        c->setClientInfo(QStringLiteral("claude-code"), McpClient::channelCapabilities());
        if (!c->start() || !c->initialize())
            return nullptr;
        if (!c->waitRegistered(peerIdOfTty(tty)))
            return nullptr;
        return c;
    }

    static QProcessEnvironment onPort(QProcessEnvironment env, quint16 port)
    {
        env.insert(QStringLiteral("CLAUDE_PEERS_PORT"), QString::number(port));
        return env;
    }

    static bool writeToken(const TestHome &home, const QByteArray &token)
    {
        QFile f(home.tokenPath());
        return f.open(QIODevice::WriteOnly) && f.write(token + '\n') == token.size() + 1;
    }

    static QString send(McpClient &from, const QString &toTty, const QString &text)
    {
        return McpClient::text(from.callTool(
            QStringLiteral("send_message"),
            toolArgs({{QStringLiteral("to_id"), peerIdOfTty(toTty)}, {QStringLiteral("message"), text}})));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(mcpExe()));
        QVERIFY(QFileInfo::exists(brokerExe()));
    }

    // Issue 7 §1.1: ids 1..3 were delivered; the broker comes back on a new database, where
    // the next message is id 1 again. It must reach the session, not be taken for a re-send.
    void freshDatabaseDoesNotSwallowReusedIds()
    {
        TestHome home;
        HelperBrokerGuard guard {home};
        auto broker = std::make_unique<BrokerProcess>(home);
        QVERIFY(broker->start());
        const QString firstDb = httpGet(home.port(), QStringLiteral("/health"))
                                    .object()
                                    .value(QLatin1String("database_id"))
                                    .toString();
        QCOMPARE(firstDb.size(), 32);
        auto a = helper(helperEnvironment(home, true, TtyA), TtyA);
        auto b = helper(helperEnvironment(home, true, TtyB), TtyB);
        QVERIFY(a && b);
        for (int i = 1; i <= 3; ++i) {
            const QString sent = send(*a, TtyB, QStringLiteral("old %1").arg(i));
            QCOMPARE(messageIdFromSendResult(sent), qint64(i));
        }
        QVERIFY(b->waitForChannelMessages(3, 10000));

        broker->process().kill();
        broker->process().waitForFinished();
        broker.reset();
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(home.databasePath() + suffix);
        // The helpers start a broker on a new database and register again.
        qint64 id = -1;
        QVERIFY(McpClient::waitUntil(
            [&] {
                id = messageIdFromSendResult(send(*a, TtyB, QStringLiteral("new 1")));
                return id > 0;
            },
            scaled(30000)));
        QCOMPARE(id, qint64(1));
        const QString secondDb = httpGet(home.port(), QStringLiteral("/health"))
                                     .object()
                                     .value(QLatin1String("database_id"))
                                     .toString();
        QVERIFY(!secondDb.isEmpty() && secondDb != firstDb);
        QVERIFY2(b->waitForChannelMessages(4, 15000), qPrintable(contents(*b).join(QLatin1Char('|'))));
        QCOMPARE(contents(*b).last(), QStringLiteral("new 1"));
        QCOMPARE(b->channelMessages()
                     .last()
                     .value(QLatin1String("meta"))
                     .toObject()
                     .value(QLatin1String("message_id")),
                 QJsonValue(QStringLiteral("1")));
        a.reset();
        b.reset();
        killBrokerFromPidFile(home);
    }

    // Issue 7 §1.5: against a 0.7 broker the helper polls every second, acknowledges what it
    // pushed, and registers once (a 404 is not "not registered").
    void deliversThroughAReferenceBroker()
    {
        TestHome home;
        // The helper reads the token from the home, like the reference broker would.
        const QByteArray token = "0123456789abcdef0123456789abcdef";
        QVERIFY(writeToken(home, token));
        ReferenceBroker ref(token);
        QVERIFY(ref.listen());
        auto a = helper(onPort(helperEnvironment(home, false, TtyA), ref.port()), TtyA);
        auto b = helper(onPort(helperEnvironment(home, false, TtyB), ref.port()), TtyB);
        QVERIFY(a && b);
        QList<qint64> ids;
        for (int i = 0; i < 5; ++i) {
            const QString sent = send(*a, TtyB, QStringLiteral("to a 0.7 broker %1").arg(i));
            QVERIFY2(sent.startsWith(QLatin1String("Message sent")), qPrintable(sent));
            ids << messageIdFromSendResult(sent);
        }
        QVERIFY(b->waitForChannelMessages(5, 10000));
        QCOMPARE(contents(*b).first(), QStringLiteral("to a 0.7 broker 0"));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(ids.cbegin(), ids.cend(), [&](qint64 id) { return ref.isDelivered(id); }),
            scaled(5000));
        QTest::qWait(2500); // long enough for a re-registration loop to show
        QCOMPARE(ref.requests(QStringLiteral("/register")), 2);
        QCOMPARE(ref.requests(QStringLiteral("/wait-messages")), 0);
        QCOMPARE(b->channelMessages().size(), 5); // each once
        const QString who = McpClient::text(b->callTool(QStringLiteral("whoami")));
        QVERIFY2(who.contains(QLatin1String("polling /poll-messages every 1000 ms")), qPrintable(who));
        QCOMPARE(ref.channelPush(peerIdOfTty(TtyB)), QStringLiteral("working"));
        QVERIFY(a->nonJsonLines().isEmpty() && b->nonJsonLines().isEmpty());
    }

    // Answers a 0.7 broker never gives, from brokers that are not 0.7 (docs/divergences.md):
    // a refusal inside a 200 is an error for the model, not "updated"; a delivered flag stored
    // as 0/1 still reads as delivered; a /health that is not JSON is a broker error, not
    // "unreachable" (the port answers — something else may hold it).
    void oddBrokerAnswersReachTheModelAsTheyAre()
    {
        TestHome home;
        const QByteArray token = "00112233445566778899aabbccddeeff";
        QVERIFY(writeToken(home, token));
        ReferenceBroker ref(token);
        QVERIFY(ref.listen());
        auto a = helper(onPort(helperEnvironment(home, false, TtyA), ref.port()), TtyA);
        QVERIFY(a);

        ref.answerWith(QStringLiteral("/set-summary"), R"({"ok":false,"error":"database is full"})");
        const QJsonObject summary = a->callTool(QStringLiteral("set_summary"),
                                                toolArgs({{QStringLiteral("summary"), QStringLiteral("x")}}));
        QVERIFY(McpClient::isError(summary));
        QCOMPARE(McpClient::text(summary), QStringLiteral("Error setting summary: database is full"));

        ref.answerWith(QStringLiteral("/set-name"), R"({"ok":false,"error":"database is full"})");
        const QJsonObject name = a->callTool(QStringLiteral("set_name"),
                                             toolArgs({{QStringLiteral("name"), QStringLiteral("n")}}));
        QVERIFY(McpClient::isError(name));
        QCOMPARE(McpClient::text(name), QStringLiteral("Error setting name: database is full"));

        ref.answerWith(
            QStringLiteral("/message-status"),
            R"({"id":7,"from_id":"a","to_id":"b","delivered":1,"sent_at":"2026-11-30T10:00:00Z"})");
        const QString status = McpClient::text(
            a->callTool(QStringLiteral("message_status"), toolArgs({{QStringLiteral("message_id"), 7}})));
        QVERIFY2(status.startsWith(QLatin1String("Message #7: confirmed")), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("Delivered: true")), qPrintable(status));

        ref.answerWith(QStringLiteral("/health"), "<html>a web server</html>", "text/html");
        const QJsonObject health = a->callTool(QStringLiteral("channel_health"));
        QVERIFY(!McpClient::isError(health));
        const QString report = McpClient::text(health);
        QVERIFY2(report.contains(QLatin1String("Broker: error (")), qPrintable(report));
        QVERIFY2(!report.contains(QLatin1String("unreachable")), qPrintable(report));
        QVERIFY(a->nonJsonLines().isEmpty());
    }

    // Issue 7 §1.9: the 30 s safety net (here 1 s) delivers while the push stream hangs.
    void safetyNetDeliversWhileTheStreamHangs()
    {
        TestHome home;
        const QByteArray token = "fedcba9876543210fedcba9876543210";
        QVERIFY(writeToken(home, token));
        ReferenceBroker ref(token, ReferenceBroker::Mode::BrokenStream);
        QVERIFY(ref.listen());
        QProcessEnvironment env = onPort(helperEnvironment(home, false, TtyB), ref.port());
        env.insert(QStringLiteral("CLAUDE_PEERS_SAFETY_NET_MS"), QStringLiteral("1000"));
        auto b = helper(env, TtyB);
        QVERIFY(b);
        QTRY_VERIFY_WITH_TIMEOUT(ref.requests(QStringLiteral("/wait-messages")) >= 1, scaled(5000));
        const qint64 id = ref.addMessage(peerIdOfTty(TtyB), QStringLiteral("through the net"));
        QVERIFY(b->waitForChannelMessages(1, 10000));
        QCOMPARE(contents(*b), QStringList {QStringLiteral("through the net")});
        QTRY_VERIFY_WITH_TIMEOUT(ref.isDelivered(id), scaled(5000));
        QVERIFY(ref.requests(QStringLiteral("/poll-messages")) >= 1);
    }
};

QTEST_GUILESS_MAIN(tst_McpBrokerKinds)
#include "tst_mcpbrokerkinds.moc"
