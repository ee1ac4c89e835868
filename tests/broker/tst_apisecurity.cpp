// What the API refuses: malformed bodies and fields (400 on every endpoint), session
// credentials acting as someone else (403), senders over the per-peer rate limit (429),
// oversized bodies (413).
#include "tests/broker/brokerharness.h"

#include <QTest>

using TestSupport::HttpResult;

class tst_ApiSecurity : public QObject
{
    Q_OBJECT

    std::unique_ptr<BrokerHarness> m_shared; // one broker for the data-driven rows

private Q_SLOTS:
    void initTestCase()
    {
        m_shared = std::make_unique<BrokerHarness>();
        QVERIFY(m_shared->start());
    }
    void cleanupTestCase() { m_shared.reset(); }

    void rejectsBadBodies_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        const auto field = [](const char *name, const char *what) {
            return QStringLiteral("Field \"%1\" must be %2").arg(QLatin1String(name), QLatin1String(what));
        };
        // malformed JSON on every route
        for (const char *path :
             {"/register", "/heartbeat", "/set-summary", "/set-name", "/set-channel-push", "/list-peers",
              "/send-message", "/broadcast", "/poll-messages", "/ack-messages", "/message-status",
              "/unregister", "/wait-messages", "/messages", "/shutdown", "/reload", "/secrets",
              "/rotate-token", "/federation/connect"}) {
            QTest::addRow("%s truncated", path)
                << QString::fromLatin1(path) << QByteArray("{\"id\":") << QString();
            QTest::addRow("%s array", path) << QString::fromLatin1(path) << QByteArray("[]")
                                            << QStringLiteral("Invalid JSON body: expected a JSON object");
        }
        QTest::newRow("register empty")
            << "/register" << QByteArray("{}") << field("pid", "a positive integer");
        QTest::newRow("register pid string")
            << "/register" << QByteArray(R"({"pid":"one","cwd":"/"})") << field("pid", "a positive integer");
        QTest::newRow("register pid zero")
            << "/register" << QByteArray(R"({"pid":0,"cwd":"/"})") << field("pid", "a positive integer");
        QTest::newRow("register no cwd")
            << "/register" << QByteArray(R"({"pid":1})") << field("cwd", "a string");
        QTest::newRow("register tty number") << "/register" << QByteArray(R"({"pid":1,"cwd":"/","tty":5})")
                                             << field("tty", "a string or null");
        QTest::newRow("register git_root object")
            << "/register" << QByteArray(R"({"pid":1,"cwd":"/","git_root":{}})")
            << field("git_root", "a string or null");
        QTest::newRow("register name array")
            << "/register" << QByteArray(R"({"pid":1,"cwd":"/","session_name":[]})")
            << field("session_name", "a string or null");
        // Summary and session name are bounded (docs/divergences.md): 2048 UTF-8 bytes.
        const QByteArray tooLong(2049, 'x');
        const QByteArray tooLongUtf8 = QString(1100, QChar(0x00e9)).toUtf8(); // 1100 characters, 2200 bytes
        const QString bounded = QStringLiteral("a string of at most 2048 bytes (UTF-8)");
        QTest::newRow("register summary too long")
            << "/register" << QByteArray("{\"pid\":1,\"cwd\":\"/\",\"summary\":\"" + tooLong + "\"}")
            << field("summary", "") + bounded;
        QTest::newRow("register name too long")
            << "/register" << QByteArray("{\"pid\":1,\"cwd\":\"/\",\"session_name\":\"" + tooLong + "\"}")
            << field("session_name", "") + bounded;
        QTest::newRow("set-summary too long")
            << "/set-summary" << QByteArray("{\"id\":\"a\",\"summary\":\"" + tooLong + "\"}")
            << field("summary", "") + bounded;
        QTest::newRow("set-name too long (UTF-8 bytes)")
            << "/set-name" << QByteArray("{\"id\":\"a\",\"session_name\":\"" + tooLongUtf8 + "\"}")
            << field("session_name", "") + bounded;
        QTest::newRow("heartbeat no id") << "/heartbeat" << QByteArray("{}") << field("id", "a string");
        QTest::newRow("heartbeat id number")
            << "/heartbeat" << QByteArray(R"({"id":5})") << field("id", "a string");
        QTest::newRow("set-summary no summary")
            << "/set-summary" << QByteArray(R"({"id":"a"})") << field("summary", "a string");
        QTest::newRow("set-name number") << "/set-name" << QByteArray(R"({"id":"a","session_name":1})")
                                         << field("session_name", "a string");
        QTest::newRow("set-channel-push no status")
            << "/set-channel-push" << QByteArray(R"({"id":"a"})") << field("status", "a string");
        QTest::newRow("list-peers scope number")
            << "/list-peers" << QByteArray(R"({"scope":1})") << field("scope", "a string or null");
        QTest::newRow("list-peers exclude bool") << "/list-peers" << QByteArray(R"({"exclude_id":true})")
                                                 << field("exclude_id", "a string or null");
        QTest::newRow("send no from")
            << "/send-message" << QByteArray(R"({"to_id":"b","text":"x"})") << field("from_id", "a string");
        QTest::newRow("send no text")
            << "/send-message" << QByteArray(R"({"from_id":"a","to_id":"b"})") << field("text", "a string");
        QTest::newRow("send type number")
            << "/send-message" << QByteArray(R"({"from_id":"a","to_id":"b","text":"x","type":5})")
            << field("type", "a string or null");
        QTest::newRow("send reply_to string")
            << "/send-message" << QByteArray(R"({"from_id":"a","to_id":"b","text":"x","reply_to":"1st"})")
            << field("reply_to", "an integer");
        QTest::newRow("send reply_to fraction")
            << "/send-message" << QByteArray(R"({"from_id":"a","to_id":"b","text":"x","reply_to":1.5})")
            << field("reply_to", "an integer");
        QTest::newRow("broadcast no text")
            << "/broadcast" << QByteArray(R"({"from_id":"a"})") << field("text", "a string");
        QTest::newRow("broadcast cwd number")
            << "/broadcast" << QByteArray(R"({"from_id":"a","text":"x","cwd":1})")
            << field("cwd", "a string or null");
        QTest::newRow("poll no id") << "/poll-messages" << QByteArray("{}") << field("id", "a string");
        QTest::newRow("ack not array") << "/ack-messages" << QByteArray(R"({"id":"a","message_ids":"1"})")
                                       << field("message_ids", "an array of integers");
        QTest::newRow("ack strings") << "/ack-messages" << QByteArray(R"({"id":"a","message_ids":[1,"two"]})")
                                     << field("message_ids", "an array of integers");
        QTest::newRow("ack missing") << "/ack-messages" << QByteArray(R"({"id":"a"})")
                                     << field("message_ids", "an array of integers");
        QTest::newRow("status no id")
            << "/message-status" << QByteArray("{}") << field("message_id", "an integer");
        QTest::newRow("status string")
            << "/message-status" << QByteArray(R"({"message_id":"4a"})") << field("message_id", "an integer");
        QTest::newRow("unregister no id") << "/unregister" << QByteArray("{}") << field("id", "a string");
        QTest::newRow("wait no id") << "/wait-messages" << QByteArray("{}") << field("id", "a string");
        QTest::newRow("wait bad ack") << "/wait-messages" << QByteArray(R"({"id":"a","ack":[true]})")
                                      << field("ack", "an array of integers");
        QTest::newRow("wait bad timeout") << "/wait-messages" << QByteArray(R"({"id":"a","timeout_ms":"5s"})")
                                          << field("timeout_ms", "an integer");
        QTest::newRow("messages bad limit")
            << "/messages" << QByteArray(R"({"limit":"five"})") << field("limit", "an integer");
        QTest::newRow("messages bad search")
            << "/messages" << QByteArray(R"({"search":3})") << field("search", "a string or null");
    }
    void rejectsBadBodies()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        const HttpResult r = m_shared->postRaw(path, body, m_shared->token());
        QCOMPARE(r.status, 400);
        const QString message = r.object().value(QStringLiteral("error")).toString();
        if (error.isEmpty())
            QVERIFY2(message.startsWith(QLatin1String("Invalid JSON body: ")), qPrintable(message));
        else
            QCOMPARE(message, error);
    }

    // The reference stored request fields in SQLite, whose type coercion turned "123" into 123;
    // clients that quote numbers keep working (docs/divergences.md).
    void numericStringsAreAcceptedLikeTheReference()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const qint64 pid = h.spawnSession();
        const HttpResult registered =
            h.postRaw(QStringLiteral("/register"),
                      "{\"pid\":\"" + QByteArray::number(pid) + "\",\"cwd\":\"/w\"}", h.token());
        QCOMPARE(registered.status, 200);
        const QString id = registered.object().value(QStringLiteral("id")).toString();
        QVERIFY(h.hasPeer(id));
        const qint64 message = h.send(QStringLiteral("cli"), id, QStringLiteral("hi"));
        QVERIFY(message > 0);
        const QByteArray quoted = '"' + QByteArray::number(message) + '"';
        const HttpResult status =
            h.postRaw(QStringLiteral("/message-status"), "{\"message_id\":" + quoted + "}", h.token());
        QCOMPARE(status.object().value(QStringLiteral("id")).toInteger(), message);
        const HttpResult acked =
            h.postRaw(QStringLiteral("/ack-messages"),
                      "{\"id\":\"" + id.toLatin1() + "\",\"message_ids\":[" + quoted + "]}", h.token());
        QCOMPARE(acked.status, 200);
        QVERIFY(h.poll(id).isEmpty());
    }

    void summaryAndNameOfTheBoundAreAccepted()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer peer = h.registerPeer();
        const QString atBound = QString(1024, QChar(0x00e9)); // 2048 bytes in UTF-8
        QCOMPARE(h.post(QStringLiteral("/set-summary"),
                        {{QStringLiteral("id"), peer.id}, {QStringLiteral("summary"), atBound}})
                     .status,
                 200);
        QCOMPARE(h.post(QStringLiteral("/set-name"),
                        {{QStringLiteral("id"), peer.id}, {QStringLiteral("session_name"), atBound}})
                     .status,
                 200);
        const QJsonObject listed = h.listPeers().at(0).toObject();
        QCOMPARE(listed.value(QStringLiteral("summary")).toString(), atBound);
        QCOMPARE(listed.value(QStringLiteral("session_name")).toString(), atBound);
    }

    void sessionCredentialActsOnlyAsItsPeer()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const QString forbidden =
            QStringLiteral("Forbidden: this session credential may only act as peer %1").arg(a.id);
        const auto as = [&](const QString &path, const QJsonObject &body) {
            return h.post(path, body, a.secret);
        };

        // acting as itself works
        HttpResult r = as(QStringLiteral("/send-message"),
                          {{QStringLiteral("from_id"), a.id},
                           {QStringLiteral("to_id"), b.id},
                           {QStringLiteral("text"), QStringLiteral("mine")}});
        QCOMPARE(r.object().value(QStringLiteral("ok")), QJsonValue(true));
        QCOMPARE(as(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), a.id}}).status, 200);
        QCOMPARE(
            as(QStringLiteral("/list-peers"), {{QStringLiteral("scope"), QStringLiteral("machine")}}).status,
            200);

        // spoofing another peer is refused
        struct Case
        {
            QString path;
            QJsonObject body;
        };
        const QList<Case> spoofs {
            {QStringLiteral("/send-message"),
             {{QStringLiteral("from_id"), b.id},
              {QStringLiteral("to_id"), a.id},
              {QStringLiteral("text"), QStringLiteral("x")}}},
            {QStringLiteral("/broadcast"),
             {{QStringLiteral("from_id"), b.id}, {QStringLiteral("text"), QStringLiteral("x")}}},
            {QStringLiteral("/heartbeat"), {{QStringLiteral("id"), b.id}}},
            {QStringLiteral("/set-name"),
             {{QStringLiteral("id"), b.id}, {QStringLiteral("session_name"), QStringLiteral("pwned")}}},
            {QStringLiteral("/set-summary"),
             {{QStringLiteral("id"), b.id}, {QStringLiteral("summary"), QStringLiteral("x")}}},
            {QStringLiteral("/set-channel-push"),
             {{QStringLiteral("id"), b.id}, {QStringLiteral("status"), QStringLiteral("working")}}},
            {QStringLiteral("/poll-messages"), {{QStringLiteral("id"), b.id}}},
            {QStringLiteral("/ack-messages"),
             {{QStringLiteral("id"), b.id}, {QStringLiteral("message_ids"), QJsonArray {1}}}},
            {QStringLiteral("/wait-messages"),
             {{QStringLiteral("id"), b.id}, {QStringLiteral("timeout_ms"), 0}}},
            {QStringLiteral("/unregister"), {{QStringLiteral("id"), b.id}}},
        };
        for (const Case &c : spoofs) {
            r = as(c.path, c.body);
            QVERIFY2(r.status == 403, qPrintable(c.path));
            QCOMPARE(r.object().value(QStringLiteral("error")).toString(), forbidden);
        }
        for (const QString &path :
             {QStringLiteral("/register"), QStringLiteral("/shutdown"), QStringLiteral("/reload"),
              QStringLiteral("/secrets"), QStringLiteral("/rotate-token"), QStringLiteral("/messages"),
              QStringLiteral("/federation/connect"), QStringLiteral("/federation/disconnect")}) {
            r = as(path, {{QStringLiteral("pid"), 1}, {QStringLiteral("cwd"), QStringLiteral("/")}});
            QCOMPARE(r.status, 403);
            QCOMPARE(r.object().value(QStringLiteral("error")).toString(),
                     QStringLiteral("Forbidden: %1 needs the main token").arg(path));
        }
        QVERIFY(h.hasPeer(b.id));
        QCOMPARE(h.poll(a.id).size(), 0);
        // the main token keeps full rights
        QVERIFY(h.send(b.id, a.id, QStringLiteral("as b")) > 0);
        QCOMPARE(h.post(QStringLiteral("/set-name"),
                        {{QStringLiteral("id"), b.id}, {QStringLiteral("session_name"), QStringLiteral("B")}})
                     .status,
                 200);
    }

    void reRegistrationVoidsTheOldSecret()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        const qint64 pid = h.spawnSession();
        const RegisteredPeer first =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/5"), {}, {}, pid);
        const RegisteredPeer second =
            h.registerPeer(QStringLiteral("/w"), QStringLiteral("pts/5"), {}, {}, pid);
        QCOMPARE(second.id, first.id);
        QVERIFY(second.secret != first.secret);
        QCOMPARE(
            h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), first.id}}, first.secret).status,
            401);
        QCOMPARE(
            h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), first.id}}, second.secret).status,
            200);
        h.post(QStringLiteral("/unregister"), {{QStringLiteral("id"), second.id}}, second.secret);
        QCOMPARE(
            h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), first.id}}, second.secret).status,
            401);
    }

    void rateLimitIsPerSendingPeer()
    {
        BrokerHarness h({}, /*manualClock*/ true);
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        const QJsonObject fromA {{QStringLiteral("from_id"), a.id},
                                 {QStringLiteral("to_id"), b.id},
                                 {QStringLiteral("text"), QStringLiteral("x")}};
        for (int i = 1; i <= 59; ++i)
            QCOMPARE(h.post(QStringLiteral("/send-message"), fromA).status, 200);
        // broadcast shares the sender's window: the 60th request passes, the 61st not
        QCOMPARE(h.post(QStringLiteral("/broadcast"),
                        {{QStringLiteral("from_id"), a.id}, {QStringLiteral("text"), QStringLiteral("x")}})
                     .status,
                 200);
        HttpResult r = h.post(QStringLiteral("/send-message"), fromA);
        QCOMPARE(r.status, 429);
        QCOMPARE(r.body, QByteArray("{\"error\":\"Rate limited\"}"));
        // another sender is unaffected
        QCOMPARE(h.post(QStringLiteral("/send-message"),
                        {{QStringLiteral("from_id"), b.id},
                         {QStringLiteral("to_id"), a.id},
                         {QStringLiteral("text"), QStringLiteral("y")}})
                     .status,
                 200);
        // other endpoints are not limited
        QCOMPARE(h.post(QStringLiteral("/heartbeat"), {{QStringLiteral("id"), a.id}}).status, 200);
        h.clock().advance(60'000);
        QCOMPARE(h.post(QStringLiteral("/send-message"), fromA).status, 200);
    }

    void rateLimitZeroDisables()
    {
        BrokerHarness h([](Broker::Settings &s) { s.rateLimitPerMinute = 0; });
        QVERIFY(h.start());
        const RegisteredPeer a = h.registerPeer();
        const RegisteredPeer b = h.registerPeer();
        for (int i = 0; i < 70; ++i)
            QVERIFY(h.send(a.id, b.id, QStringLiteral("x")) > 0);
    }

    void oversizedBodyIs413()
    {
        BrokerHarness h;
        QVERIFY(h.start());
        // Only the headers are sent: the answer must come from Content-Length alone.
        const QByteArray answer =
            h.rawExchange("POST /send-message HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + h.token() +
                          "\r\nContent-Type: application/json\r\nContent-Length: 1048577\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.constData());
        QVERIFY(answer.endsWith("{\"error\":\"Request body too large (limit 1048576 bytes)\"}"));
        QCOMPARE(h.get(QStringLiteral("/health")).status, 200);
    }
};

QTEST_GUILESS_MAIN(tst_ApiSecurity)
#include "tst_apisecurity.moc"
