// Two real helpers and a real broker: messages travel send_message → broker → push stream →
// notifications/claude/channel, are acknowledged only after the write, are repeated in the
// banner, survive a broker killed with SIGKILL and a helper restarted on the same TTY.
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <csignal>

using namespace TestSupport;

namespace {

const QString TtyA = QStringLiteral("pts/101");
const QString TtyB = QStringLiteral("pts/102");

QString idOf(const QString &tty)
{
    return peerIdOfTty(tty);
}

QJsonObject args(std::initializer_list<QPair<QString, QJsonValue>> list)
{
    return toolArgs(list);
}

} // namespace

class tst_McpDelivery : public QObject
{
    Q_OBJECT

    // A registered, initialized helper on tty. It says it shows channel pushes (as Claude Code
    // would with channels on) unless channelClient is false.
    static std::unique_ptr<McpClient> helper(const TestHome &home, const QString &tty,
                                             bool brokerOnPath = false, bool initialized = true,
                                             bool channelClient = true)
    {
        auto c = std::make_unique<McpClient>(helperEnvironment(home, brokerOnPath, tty));
        if (channelClient)
            c->setClientInfo(QStringLiteral("claude-code"), McpClient::channelCapabilities());
        if (!c->start() || !c->initialize(initialized))
            return nullptr;
        if (!c->waitRegistered(idOf(tty)))
            return nullptr;
        return c;
    }

    static QJsonObject meta(const QJsonObject &channelParams)
    {
        return channelParams.value(QLatin1String("meta")).toObject();
    }

    static QString status(McpClient &c, qint64 messageId)
    {
        return McpClient::text(
            c.callTool(QStringLiteral("message_status"), args({{QStringLiteral("message_id"), messageId}})));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(mcpExe()));
        QVERIFY(QFileInfo::exists(brokerExe()));
    }

    void exchangesEveryMessageKind()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(home, TtyA);
        auto b = helper(home, TtyB);
        QVERIFY(a && b);
        QVERIFY(!McpClient::isError(a->callTool(QStringLiteral("set_name"),
                                                args({{QStringLiteral("name"), QStringLiteral("ALPHA")}}))));
        QVERIFY(!McpClient::isError(
            a->callTool(QStringLiteral("set_summary"),
                        args({{QStringLiteral("summary"), QStringLiteral("[ALPHA] testing delivery")}}))));

        // text
        const QString sent = McpClient::text(
            a->callTool(QStringLiteral("send_message"),
                        args({{QStringLiteral("to_id"), idOf(TtyB)},
                              {QStringLiteral("message"), QStringLiteral("hello B\nsecond line")}})));
        QVERIFY2(sent.startsWith(QStringLiteral("Message sent to peer %1 (msg#").arg(idOf(TtyB))),
                 qPrintable(sent));
        QVERIFY(sent.endsWith(QLatin1String("\n> Preview: hello B")));
        const qint64 first = messageIdFromSendResult(sent);
        QVERIFY(b->waitForChannelMessages(1, 10000));
        QJsonObject n = b->channelMessages().at(0);
        QCOMPARE(n.value(QLatin1String("content")).toString(), QStringLiteral("hello B\nsecond line"));
        QJsonObject m = meta(n);
        QCOMPARE(m.value(QLatin1String("from_id")).toString(), idOf(TtyA));
        QCOMPARE(m.value(QLatin1String("from_name")).toString(), QStringLiteral("ALPHA"));
        QCOMPARE(m.value(QLatin1String("from_summary")).toString(),
                 QStringLiteral("[ALPHA] testing delivery"));
        QVERIFY(!m.value(QLatin1String("from_cwd")).toString().isEmpty());
        QCOMPARE(m.value(QLatin1String("type")).toString(), QStringLiteral("text"));
        QCOMPARE(m.value(QLatin1String("message_id")).toString(), QString::number(first));
        QVERIFY(!m.value(QLatin1String("sent_at")).toString().isEmpty());
        QVERIFY(!m.contains(QLatin1String("reply_to")));
        QVERIFY(!m.contains(QLatin1String("metadata_json")));
        for (auto it = m.begin(); it != m.end(); ++it)
            QVERIFY2(it.value().isString(), qPrintable(it.key()));
        // Acknowledged after the write: the sender sees it confirmed.
        QTRY_VERIFY_WITH_TIMEOUT(
            status(*a, first).startsWith(QStringLiteral("Message #%1: confirmed").arg(first)), scaled(10000));

        // query
        a->callTool(QStringLiteral("send_message"),
                    args({{QStringLiteral("to_id"), idOf(TtyB)},
                          {QStringLiteral("message"), QStringLiteral("status?")},
                          {QStringLiteral("type"), QStringLiteral("query")}}));
        QVERIFY(b->waitForChannelMessages(2, 10000));
        QCOMPARE(meta(b->channelMessages().at(1)).value(QLatin1String("type")).toString(),
                 QStringLiteral("query"));
        const qint64 query =
            meta(b->channelMessages().at(1)).value(QLatin1String("message_id")).toString().toLongLong();

        // response with reply_to, from B to A
        const QString reply =
            McpClient::text(b->callTool(QStringLiteral("send_message"),
                                        args({{QStringLiteral("to_id"), idOf(TtyA)},
                                              {QStringLiteral("message"), QStringLiteral("all good")},
                                              {QStringLiteral("type"), QStringLiteral("response")},
                                              {QStringLiteral("reply_to"), query}})));
        QVERIFY2(reply.contains(QLatin1String("(msg#")), qPrintable(reply));
        QVERIFY(a->waitForChannelMessages(1, 10000));
        QJsonObject ma = meta(a->channelMessages().at(0));
        QCOMPARE(ma.value(QLatin1String("type")).toString(), QStringLiteral("response"));
        QCOMPARE(ma.value(QLatin1String("reply_to")).toString(), QString::number(query));
        QCOMPARE(ma.value(QLatin1String("from_id")).toString(), idOf(TtyB));

        // handoff with metadata
        const QJsonObject metadata {
            {QStringLiteral("task"), QStringLiteral("fix the build")},
            {QStringLiteral("files"), QJsonArray {QStringLiteral("a.cpp"), QStringLiteral("b.h")}},
            {QStringLiteral("priority"), 2}};
        a->callTool(QStringLiteral("send_message"),
                    args({{QStringLiteral("to_id"), idOf(TtyB)},
                          {QStringLiteral("message"), QStringLiteral("please take over")},
                          {QStringLiteral("type"), QStringLiteral("handoff")},
                          {QStringLiteral("metadata"), metadata}}));
        QVERIFY(b->waitForChannelMessages(3, 10000));
        QJsonObject mh = meta(b->channelMessages().at(2));
        QCOMPARE(mh.value(QLatin1String("type")).toString(), QStringLiteral("handoff"));
        QCOMPARE(
            QJsonDocument::fromJson(mh.value(QLatin1String("metadata_json")).toString().toUtf8()).object(),
            metadata);

        // broadcast (machine scope): B gets it, A (the sender) does not
        const QString bc =
            McpClient::text(a->callTool(QStringLiteral("broadcast_message"),
                                        args({{QStringLiteral("message"), QStringLiteral("all hands")},
                                              {QStringLiteral("scope"), QStringLiteral("machine")}})));
        QCOMPARE(bc, QStringLiteral("Broadcast sent to 1 peer(s) in scope 'machine'"));
        QVERIFY(b->waitForChannelMessages(4, 10000));
        QCOMPARE(meta(b->channelMessages().at(3)).value(QLatin1String("type")).toString(),
                 QStringLiteral("broadcast"));
        QCOMPARE(b->channelMessages().at(3).value(QLatin1String("content")).toString(),
                 QStringLiteral("all hands"));
        QTest::qWait(200);
        QCOMPARE(a->channelMessages().size(), 1);

        // list_peers shows the other one with its name and summary
        const QString peers = McpClient::text(b->callTool(
            QStringLiteral("list_peers"), args({{QStringLiteral("scope"), QStringLiteral("machine")}})));
        QVERIFY2(peers.startsWith(QLatin1String("Found 1 peer(s) (scope: machine):\n\n**ALPHA** (") +
                                  idOf(TtyA) + QLatin1Char(')')),
                 qPrintable(peers));
        QVERIFY(peers.contains(QLatin1String("Summary: [ALPHA] testing delivery")));

        // Bad arguments are tool errors in plain words.
        const QJsonObject missing =
            a->callTool(QStringLiteral("send_message"), args({{QStringLiteral("to_id"), idOf(TtyB)}}));
        QVERIFY(McpClient::isError(missing));
        QCOMPARE(McpClient::text(missing),
                 QStringLiteral("Missing required parameter: to_id and message are required"));
        const QJsonObject badType = a->callTool(QStringLiteral("send_message"),
                                                args({{QStringLiteral("to_id"), idOf(TtyB)},
                                                      {QStringLiteral("message"), QStringLiteral("x")},
                                                      {QStringLiteral("type"), QStringLiteral("shout")}}));
        QVERIFY(McpClient::isError(badType));
        QVERIFY2(McpClient::text(badType).startsWith(QLatin1String("Failed to send: Invalid message type")),
                 qPrintable(McpClient::text(badType)));
        const QJsonObject unknown = a->callTool(QStringLiteral("send_message"),
                                                args({{QStringLiteral("to_id"), QStringLiteral("nobody00")},
                                                      {QStringLiteral("message"), QStringLiteral("x")}}));
        QVERIFY(McpClient::isError(unknown));
        QVERIFY(
            McpClient::text(unknown).startsWith(QLatin1String("Failed to send: Peer nobody00 not found.")));
        const QJsonObject badReply = a->callTool(QStringLiteral("send_message"),
                                                 args({{QStringLiteral("to_id"), idOf(TtyB)},
                                                       {QStringLiteral("message"), QStringLiteral("x")},
                                                       {QStringLiteral("reply_to"), QStringLiteral("abc")}}));
        QVERIFY(McpClient::isError(badReply));
        const QJsonObject badScope = a->callTool(QStringLiteral("list_peers"),
                                                 args({{QStringLiteral("scope"), QStringLiteral("galaxy")}}));
        QVERIFY(McpClient::isError(badScope));
        const QJsonObject badStatus =
            a->callTool(QStringLiteral("message_status"), args({{QStringLiteral("message_id"), 999999}}));
        QVERIFY(McpClient::isError(badStatus));
        QVERIFY(McpClient::text(badStatus).startsWith(
            QLatin1String("Error checking status: Broker error (/message-status): 404")));

        // Each message exactly once, and nothing but JSON on either stdout.
        QSet<QString> ids;
        for (const QJsonObject &p : b->channelMessages())
            ids.insert(meta(p).value(QLatin1String("message_id")).toString());
        QCOMPARE(ids.size(), b->channelMessages().size());
        QVERIFY(a->nonJsonLines().isEmpty());
        QVERIFY(b->nonJsonLines().isEmpty());
    }

    void bannerRepeatsPushedMessagesAfterTheGrace()
    {
        // A client that does not say whether it shows pushes gets them repeated.
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(home, TtyA);
        auto b = helper(home, TtyB, false, true, false);
        QVERIFY(a && b);
        a->callTool(QStringLiteral("send_message"),
                    args({{QStringLiteral("to_id"), idOf(TtyB)},
                          {QStringLiteral("message"), QStringLiteral("are you there?")},
                          {QStringLiteral("type"), QStringLiteral("query")}}));
        QVERIFY(b->waitForChannelMessages(1, 10000));
        const QString msgId = meta(b->channelMessages().at(0)).value(QLatin1String("message_id")).toString();
        // Within the grace: no banner.
        QVERIFY(McpClient::text(b->callTool(QStringLiteral("whoami"))).startsWith(QLatin1String("ID: ")));
        QTest::qWait(5200);
        const QString withBanner = McpClient::text(b->callTool(QStringLiteral("whoami")));
        QVERIFY2(
            withBanner.startsWith(
                QStringLiteral(
                    "--- QUEUED PEER MESSAGES (1) ---\n[QUERY] From %1 (msg#%2): are you there?\n"
                    "(Answer with the send_message tool to the sender's id, reply_to = the msg# "
                    "number; check_messages shows messages in full.)\n--- END QUEUED MESSAGES ---\n\nID: ")
                    .arg(idOf(TtyA), msgId)),
            qPrintable(withBanner));
        // Shown once.
        QVERIFY(McpClient::text(b->callTool(QStringLiteral("whoami"))).startsWith(QLatin1String("ID: ")));
    }

    void checkMessagesDeliversWithoutPush()
    {
        // A client that never sends notifications/initialized gets no pushes; check_messages
        // still delivers, and acknowledges after its result is written.
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(home, TtyA);
        auto b = helper(home, TtyB, false, false);
        QVERIFY(a && b);
        QCOMPARE(McpClient::text(b->callTool(QStringLiteral("check_messages"))),
                 QStringLiteral("No new messages."));
        const QString sent =
            McpClient::text(a->callTool(QStringLiteral("send_message"),
                                        args({{QStringLiteral("to_id"), idOf(TtyB)},
                                              {QStringLiteral("message"), QStringLiteral("done")},
                                              {QStringLiteral("type"), QStringLiteral("response")},
                                              {QStringLiteral("reply_to"), 0}})));
        // reply_to 0 refers to nothing: the broker refuses it.
        QVERIFY2(sent.startsWith(QLatin1String("Failed to send: Referenced message 0 not found")),
                 qPrintable(sent));
        const qint64 id = messageIdFromSendResult(McpClient::text(
            a->callTool(QStringLiteral("send_message"),
                        args({{QStringLiteral("to_id"), idOf(TtyB)},
                              {QStringLiteral("message"), QStringLiteral("take this")},
                              {QStringLiteral("type"), QStringLiteral("handoff")},
                              {QStringLiteral("metadata"),
                               QJsonObject {{QStringLiteral("task"), QStringLiteral("t")}}}}))));
        QVERIFY(id > 0);
        QTest::qWait(300);
        QVERIFY(b->channelMessages().isEmpty());
        QVERIFY(status(*a, id).contains(QLatin1String("unconfirmed")));
        const QString check = McpClient::text(b->callTool(QStringLiteral("check_messages")));
        QCOMPARE(check,
                 QStringLiteral("1 new message(s):\n\n[HANDOFF] From %1 (msg#%2, ").arg(idOf(TtyA)).arg(id) +
                     check.mid(check.indexOf(QLatin1String(", ")) + 2, 24) +
                     QStringLiteral("):\ntake this\nMetadata: {\"task\":\"t\"}"));
        QTRY_VERIFY_WITH_TIMEOUT(status(*a, id).contains(QLatin1String("confirmed")) &&
                                     !status(*a, id).contains(QLatin1String("unconfirmed")),
                                 scaled(10000));
        QCOMPARE(McpClient::text(b->callTool(QStringLiteral("check_messages"))),
                 QStringLiteral("No new messages."));
    }

    void brokerKilledMidSessionLosesNothing()
    {
        TestHome home;
        HelperBrokerGuard guard {home};
        auto broker = std::make_unique<BrokerProcess>(home);
        QVERIFY(broker->start());
        auto a = helper(home, TtyA, true);
        auto b = helper(home, TtyB, true);
        QVERIFY(a && b);
        QVERIFY(!McpClient::isError(a->callTool(
            QStringLiteral("set_name"), args({{QStringLiteral("name"), QStringLiteral("SURVIVOR")}}))));
        QVERIFY(!McpClient::isError(a->callTool(
            QStringLiteral("set_summary"),
            args({{QStringLiteral("summary"), QStringLiteral("[SURVIVOR] outliving the broker")}}))));

        // A burst, and the broker killed right after the last one was stored: some of them
        // are pushed and acknowledged, some are still pending at the kill.
        QList<qint64> stored;
        QList<int> requests;
        for (int i = 0; i < 30; ++i)
            requests << a->request(
                QStringLiteral("tools/call"),
                QJsonObject {{QStringLiteral("name"), QStringLiteral("send_message")},
                             {QStringLiteral("arguments"),
                              args({{QStringLiteral("to_id"), idOf(TtyB)},
                                    {QStringLiteral("message"), QStringLiteral("burst %1").arg(i)}})}});
        for (int r : requests) {
            const auto answer = a->waitResponse(r, scaled(15000));
            QVERIFY(answer);
            const QString text = McpClient::text(answer->value(QLatin1String("result")).toObject());
            QVERIFY2(text.startsWith(QLatin1String("Message sent")), qPrintable(text));
            stored << messageIdFromSendResult(text);
        }
        const int pushedBeforeKill = int(b->channelMessages().size());
        broker->process().kill(); // SIGKILL
        broker->process().waitForFinished();
        broker.reset();

        // The helpers notice, start a new broker (on PATH), register again, resume the stream.
        const QJsonObject after =
            a->callTool(QStringLiteral("send_message"),
                        args({{QStringLiteral("to_id"), idOf(TtyB)},
                              {QStringLiteral("message"), QStringLiteral("after the crash")}}),
                        30000);
        // The first call may race the reconnect; the helper reports it plainly, a retry works.
        QString afterText = McpClient::text(after);
        if (McpClient::isError(after)) {
            QVERIFY(McpClient::waitUntil(
                [&] {
                    const QJsonObject r =
                        a->callTool(QStringLiteral("send_message"),
                                    args({{QStringLiteral("to_id"), idOf(TtyB)},
                                          {QStringLiteral("message"), QStringLiteral("after the crash")}}));
                    afterText = McpClient::text(r);
                    return !McpClient::isError(r);
                },
                scaled(30000)));
        }
        stored << messageIdFromSendResult(afterText);
        QVERIFY(b->waitForChannelMessages(stored.size(), 30000));
        QTest::qWait(500); // give a duplicate, if any, the chance to show up
        QList<qint64> got;
        for (const QJsonObject &p : b->channelMessages())
            got << meta(p).value(QLatin1String("message_id")).toString().toLongLong();
        std::sort(got.begin(), got.end());
        std::sort(stored.begin(), stored.end());
        QCOMPARE(got, stored); // every stored message, each exactly once
        QVERIFY(brokerPidFromFile(home) > 0);
        // Name and summary survived the crash and the re-registration.
        const QString peers = McpClient::text(b->callTool(
            QStringLiteral("list_peers"), args({{QStringLiteral("scope"), QStringLiteral("machine")}})));
        QVERIFY2(peers.contains(QStringLiteral("**SURVIVOR** (%1)").arg(idOf(TtyA))), qPrintable(peers));
        QVERIFY2(peers.contains(QLatin1String("Summary: [SURVIVOR] outliving the broker")),
                 qPrintable(peers));
        // Both really lost the broker and registered again; one of them started the new broker.
        const QByteArray errA = a->stderrOutput();
        const QByteArray errB = b->stderrOutput();
        QCOMPARE(errA.count("registered as"), 2);
        QCOMPARE(errB.count("registered as"), 2);
        QVERIFY(errA.contains("started \"") || errB.contains("started \""));
        qInfo() << "pushed before the kill:" << pushedBeforeKill << "of" << stored.size();
        QVERIFY(a->nonJsonLines().isEmpty());
        QVERIFY(b->nonJsonLines().isEmpty());
        a.reset();
        b.reset();
        killBrokerFromPidFile(home);
    }

    void reRegistersWithItsNameAndSummaryOnAFreshBroker()
    {
        // The broker is killed and its database deleted: only what the helper sends again in
        // /register can bring its name and summary back.
        TestHome home;
        HelperBrokerGuard guard {home};
        auto broker = std::make_unique<BrokerProcess>(home);
        QVERIFY(broker->start());
        auto a = helper(home, TtyA, true);
        auto b = helper(home, TtyB, true);
        QVERIFY(a && b);
        a->callTool(QStringLiteral("set_name"), args({{QStringLiteral("name"), QStringLiteral("PHOENIX")}}));
        a->callTool(QStringLiteral("set_summary"),
                    args({{QStringLiteral("summary"), QStringLiteral("[PHOENIX] rising")}}));
        broker->process().kill();
        broker->process().waitForFinished();
        broker.reset();
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(home.databasePath() + suffix);
        QString peers;
        QVERIFY(McpClient::waitUntil(
            [&] {
                peers = McpClient::text(
                    b->callTool(QStringLiteral("list_peers"),
                                args({{QStringLiteral("scope"), QStringLiteral("machine")}})));
                return peers.contains(QLatin1String("PHOENIX"));
            },
            scaled(30000)));
        QVERIFY2(peers.contains(QStringLiteral("**PHOENIX** (%1)").arg(idOf(TtyA))), qPrintable(peers));
        QVERIFY2(peers.contains(QLatin1String("Summary: [PHOENIX] rising")), qPrintable(peers));
        // And the push stream works again on the new broker.
        QVERIFY(
            !McpClient::isError(a->callTool(QStringLiteral("send_message"),
                                            args({{QStringLiteral("to_id"), idOf(TtyB)},
                                                  {QStringLiteral("message"), QStringLiteral("still here")}}),
                                            30000)));
        QVERIFY(b->waitForChannelMessages(1, 15000));
        a.reset();
        b.reset();
        killBrokerFromPidFile(home);
    }

    void restartedHelperOnTheSameTtyGetsQueuedMessages()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        auto a = helper(home, TtyA);
        // B registered but not listening (no notifications/initialized): messages queue up.
        auto b = helper(home, TtyB, false, false);
        QVERIFY(a && b);
        QList<qint64> sent;
        for (int i = 0; i < 3; ++i) {
            sent << messageIdFromSendResult(McpClient::text(
                a->callTool(QStringLiteral("send_message"),
                            args({{QStringLiteral("to_id"), idOf(TtyB)},
                                  {QStringLiteral("message"), QStringLiteral("queued %1").arg(i)}}))));
        }
        QVERIFY(!sent.contains(-1));
        b->kill(); // SIGKILL: no unregister
        b.reset();
        auto b2 = helper(home, TtyB);
        QVERIFY(b2);
        QVERIFY(b2->waitForChannelMessages(3, 10000));
        QList<qint64> got;
        for (const QJsonObject &p : b2->channelMessages())
            got << meta(p).value(QLatin1String("message_id")).toString().toLongLong();
        QCOMPARE(got, sent);
        QCOMPARE(b2->channelMessages().at(0).value(QLatin1String("content")).toString(),
                 QStringLiteral("queued 0"));
    }
};

QTEST_GUILESS_MAIN(tst_McpDelivery)
#include "tst_mcpdelivery.moc"
