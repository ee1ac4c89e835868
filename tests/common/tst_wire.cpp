// The request and answer structs both sides share (wire.h): every struct survives toJson() →
// fromJson(), and fromJson() gives the broker's 400 texts (docs/spec/peers-api.md §3, docs/protocol.md).
#include "common/brokerapi.h"
#include "common/wire.h"

#include <QJsonDocument>
#include <QTest>

#include <functional>

using namespace Broker;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

// What a struct writes must read back to the same JSON.
template<typename T> void roundTrips(const T &value)
{
    const auto json = value.toJson();
    auto back = T::fromJson(json);
    QVERIFY2(back, qPrintable(back ? QString() : back.error().message));
    QCOMPARE(back->toJson(), json);
}

template<typename T> std::function<std::optional<Error>(const QJsonObject &)> reader()
{
    return [](const QJsonObject &o) -> std::optional<Error> {
        auto read = T::fromJson(o);
        if (read)
            return std::nullopt;
        return read.error();
    };
}

using Reader = std::function<std::optional<Error>(const QJsonObject &)>;

} // namespace

Q_DECLARE_METATYPE(Reader)

class tst_Wire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requestsRoundTrip()
    {
        RegisterRequest reg;
        reg.pid = 4242;
        reg.cwd = QStringLiteral("/home/u/proj");
        reg.tty = QStringLiteral("pts/4");
        reg.summary = QStringLiteral("working");
        reg.version = QStringLiteral("0.8.0");
        reg.sessionName = QStringLiteral("AUTH");
        reg.requestedId = QStringLiteral("build-bot");
        reg.client = QStringLiteral("opencode");
        roundTrips(reg);
        roundTrips(HeartbeatRequest {QStringLiteral("a1")});
        roundTrips(UnregisterRequest {QStringLiteral("a1")});
        roundTrips(SetSummaryRequest {QStringLiteral("a1"), QStringLiteral("s")});
        roundTrips(SetNameRequest {QStringLiteral("a1"), QStringLiteral("n")});
        roundTrips(SetChannelPushRequest {QStringLiteral("a1"), QStringLiteral("working"), {}});
        roundTrips(SetChannelPushRequest {QStringLiteral("a1"), QStringLiteral("unverified"),
                                          QStringLiteral("inbox")});
        roundTrips(ListPeersRequest {QStringLiteral("repo"), QStringLiteral("/x"), QStringLiteral("/x"),
                                     QStringLiteral("a1")});
        SendMessageRequest send;
        send.fromId = QStringLiteral("a1");
        send.toId = QStringLiteral("b2");
        send.text = QStringLiteral("hi \u00e9");
        send.type = QStringLiteral("query");
        send.metadata = QJsonObject {{QStringLiteral("k"), 1}};
        send.replyTo = 7;
        roundTrips(send);
        BroadcastRequest broadcast;
        broadcast.fromId = QStringLiteral("a1");
        broadcast.text = QStringLiteral("all");
        broadcast.scope = QStringLiteral("machine");
        broadcast.cwd = QStringLiteral("/");
        roundTrips(broadcast);
        roundTrips(PollMessagesRequest {QStringLiteral("a1")});
        roundTrips(AckMessagesRequest {QStringLiteral("a1"), {1, 2, 3}});
        roundTrips(WaitMessagesRequest {QStringLiteral("a1"), {4}, 14000, 3});
        roundTrips(MessageStatusRequest {12});
        HistoryRequest history;
        history.from = QStringLiteral("cli");
        history.search = QStringLiteral("x");
        history.limit = 5;
        roundTrips(history);
        roundTrips(FederationRemoteRequest {QStringLiteral("host"), 7900});
        SendToRemoteRequest remote;
        remote.toId = QStringLiteral("box:a1");
        remote.fromId = QStringLiteral("b2");
        remote.text = QStringLiteral("t");
        remote.metadata = QJsonObject {{QStringLiteral("k"), true}};
        roundTrips(remote);
    }

    void answersRoundTrip()
    {
        roundTrips(OkAnswer {});
        roundTrips(OkAnswer {false, QStringLiteral("no")});
        roundTrips(RegisterAnswer {QStringLiteral("a1"), QStringLiteral("AUTH"), QStringLiteral("s3cr3t"),
                                   QStringLiteral("db")});
        roundTrips(SendMessageAnswer {true, 41, {}});
        roundTrips(SendMessageAnswer {false, 0, QStringLiteral("Peer x not found")});
        roundTrips(BroadcastAnswer {true, 2, {5, -1}, {}});
        roundTrips(BroadcastAnswer {false, 0, {}, QStringLiteral("Invalid message type: x")});
        Message m;
        m.id = 9;
        m.fromId = QStringLiteral("a1");
        m.toId = QStringLiteral("b2");
        m.text = QStringLiteral("x");
        m.sentAt = QStringLiteral("2026-03-27T12:00:00.000Z");
        m.replyTo = 3;
        roundTrips(MessagesAnswer {{m}});
        HistoryAnswer history;
        history.messages = {m};
        roundTrips(history);
        QCOMPARE(history.toJson()[u"messages"][0][u"delivered"], QJsonValue(false)); // boolean here
        QCOMPARE(MessagesAnswer {{m}}.toJson()[u"messages"][0][u"delivered"], QJsonValue(0));
        roundTrips(MessageStatusAnswer {9, QStringLiteral("a1"), QStringLiteral("b2"), true, m.sentAt});
        HealthAnswer health;
        health.status = QStringLiteral("ok");
        health.peers = 3;
        health.pid = 77;
        health.uptimeMs = 1000;
        health.requestsLastMinute = 4;
        health.pendingMessages = 0;
        health.version = QStringLiteral("0.8.0");
        health.databaseId = QStringLiteral("db");
        health.capabilities = QStringList {QStringLiteral("wait-messages")};
        roundTrips(health);
        MetricsAnswer metrics;
        metrics.uptimeSeconds = 3600;
        metrics.peerCount = 3;
        metrics.messages = {120, 118, 2, 98.33};
        metrics.requestsPerMinute = 42;
        metrics.federation = {true, 1, 2};
        roundTrips(metrics);
        metrics.peers = QList<MetricsAnswer::PeerRow> {{QStringLiteral("a1"), QStringLiteral("AUTH"),
                                                        QStringLiteral("/x"), QStringLiteral("working"),
                                                        QStringLiteral("r"), QStringLiteral("s")}};
        roundTrips(metrics);
        roundTrips(ShutdownAnswer {true, 77});
        roundTrips(ReloadAnswer {true, 2});
        SecretsAnswer secrets;
        secrets.localToken = {QStringLiteral("keychain"), QStringLiteral("Secret Service"),
                              QStringLiteral("/t"), QStringLiteral("note")};
        roundTrips(secrets);
        secrets.ok = true;
        roundTrips(secrets);
        roundTrips(
            FederationAnswer {true, {}, QJsonObject {{QStringLiteral("hostname"), QStringLiteral("box")}}});
        roundTrips(FederationAnswer {false, QStringLiteral("Federation is disabled"), {}});
        Peer p;
        p.id = QStringLiteral("a1");
        p.pid = 5;
        p.cwd = QStringLiteral("/x");
        p.channelPush = QStringLiteral("working");
        const ListPeersAnswer peers {{p}};
        auto back = ListPeersAnswer::fromJson(peers.toJson());
        QVERIFY(back);
        QCOMPARE(back->peers, peers.peers);
    }

    // A 0.7 broker's /health has status and peers only: the rest stays absent on the way back.
    void referenceHealthStaysMinimal()
    {
        const QJsonObject reference =
            parse(R"({"status":"ok","peers":3,"uptime_ms":5,"requests_last_minute":1,"pending_messages":0})");
        auto health = HealthAnswer::fromJson(reference);
        QVERIFY(health);
        QVERIFY(!health->pid);
        QVERIFY(!health->capabilities);
        QVERIFY(!health->hasCapability(QStringLiteral("wait-messages")));
        QCOMPARE(health->toJson(), reference);
    }

    // The bytes the broker writes for a send equal what toJson() gives.
    void sendAnswerBytes()
    {
        for (const SendMessageAnswer &a : {SendMessageAnswer {true, 12345, {}},
                                           SendMessageAnswer {false, 0, QStringLiteral("no \"such\" peer")}})
            QCOMPARE(a.toCompactJson(), QJsonDocument(a.toJson()).toJson(QJsonDocument::Compact));
    }

    // What the client sends is what a helper sent before the structs (key for key).
    void clientBodies()
    {
        RegisterRequest reg;
        reg.pid = 10;
        reg.cwd = QStringLiteral("/w");
        reg.version = QStringLiteral("0.8.0");
        QCOMPARE(reg.toJson(),
                 parse(R"({"pid":10,"cwd":"/w","git_root":null,"tty":null,"summary":"","version":"0.8.0"})"));
        QCOMPARE((ListPeersRequest {QStringLiteral("machine"), QStringLiteral("/"), {}, {}}.toJson()),
                 parse(R"({"scope":"machine","cwd":"/","git_root":null})"));
        QCOMPARE((WaitMessagesRequest {QStringLiteral("a"), {}, 14000, 0}.toJson()),
                 parse(R"({"id":"a","ack":[],"timeout_ms":14000,"after_id":0})"));
        SendMessageRequest send;
        send.fromId = QStringLiteral("cli");
        send.toId = QStringLiteral("b");
        send.text = QStringLiteral("t");
        QCOMPARE(send.toJson(), parse(R"({"from_id":"cli","to_id":"b","text":"t"})"));
    }

    // The broker's validation: the reference's 400 texts, first bad field wins.
    void brokerValidation_data()
    {
        QTest::addColumn<Reader>("read");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message"); // empty = accepted
        QTest::addColumn<int>("status");

        const auto row = [](const char *name, Reader read, const char *body, const char *message,
                            int status = 400) {
            QTest::newRow(name) << read << QByteArray(body) << QString::fromUtf8(message) << status;
        };
        row("register: pid 0", reader<RegisterRequest>(), R"({"pid":0,"cwd":"/"})",
            "Field \"pid\" must be a positive integer");
        row("register: pid as digits", reader<RegisterRequest>(), R"({"pid":"12","cwd":"/"})", "");
        row("register: no cwd", reader<RegisterRequest>(), R"({"pid":1})", "Field \"cwd\" must be a string");
        row("register: git_root number", reader<RegisterRequest>(), R"({"pid":1,"cwd":"/","git_root":5})",
            "Field \"git_root\" must be a string or null");
        row("register: first bad field wins", reader<RegisterRequest>(), R"({"pid":-1,"cwd":3})",
            "Field \"pid\" must be a positive integer");
        row("heartbeat: no id", reader<HeartbeatRequest>(), "{}", "Field \"id\" must be a string");
        row("unregister: id number", reader<UnregisterRequest>(), R"({"id":5})",
            "Field \"id\" must be a string");
        row("set-summary: no summary", reader<SetSummaryRequest>(), R"({"id":"a"})",
            "Field \"summary\" must be a string");
        row("set-name: name null", reader<SetNameRequest>(), R"({"id":"a","session_name":null})",
            "Field \"session_name\" must be a string");
        row("set-channel-push: no status", reader<SetChannelPushRequest>(), R"({"id":"a"})",
            "Field \"status\" must be a string");
        row("set-channel-push: delivery number", reader<SetChannelPushRequest>(),
            R"({"id":"a","status":"working","delivery":1})", "Field \"delivery\" must be a string or null");
        row("list-peers: scope number", reader<ListPeersRequest>(), R"({"scope":1})",
            "Field \"scope\" must be a string or null");
        row("list-peers: empty", reader<ListPeersRequest>(), "{}", "");
        row("send: nothing", reader<SendMessageRequest>(), "{}", "Field \"from_id\" must be a string");
        row("send: type number", reader<SendMessageRequest>(),
            R"({"from_id":"a","to_id":"b","text":"t","type":1})", "Field \"type\" must be a string or null");
        row("send: reply_to as digits", reader<SendMessageRequest>(),
            R"({"from_id":"a","to_id":"b","text":"t","reply_to":" 7 "})", "");
        row("send: reply_to fraction", reader<SendMessageRequest>(),
            R"({"from_id":"a","to_id":"b","text":"t","reply_to":1.5})",
            "Field \"reply_to\" must be an integer");
        // type and metadata are the broker's rules after the fields, not 400s
        row("send: bad type name passes the fields", reader<SendMessageRequest>(),
            R"({"from_id":"a","to_id":"b","text":"t","type":"nope","metadata":4})", "");
        row("broadcast: no text", reader<BroadcastRequest>(), R"({"from_id":"a"})",
            "Field \"text\" must be a string");
        row("poll: no id", reader<PollMessagesRequest>(), "{}", "Field \"id\" must be a string");
        row("ack: ids not a list", reader<AckMessagesRequest>(), R"({"id":"a","message_ids":"1"})",
            "Field \"message_ids\" must be an array of integers");
        row("ack: ids as digits", reader<AckMessagesRequest>(), R"({"id":"a","message_ids":["1",2]})", "");
        row("wait: timeout text", reader<WaitMessagesRequest>(), R"({"id":"a","timeout_ms":"soon"})",
            "Field \"timeout_ms\" must be an integer");
        row("wait: ack null", reader<WaitMessagesRequest>(), R"({"id":"a","ack":null})", "");
        row("message-status: id text", reader<MessageStatusRequest>(), R"({"message_id":"x"})",
            "Field \"message_id\" must be an integer");
        row("messages: limit text", reader<HistoryRequest>(), R"({"limit":"many"})",
            "Field \"limit\" must be an integer");
        row("federation: port 0", reader<FederationRemoteRequest>(), R"({"host":"h","port":0})",
            "Field \"port\" must be a positive integer");
        row("send-to-remote: metadata not an object", reader<SendToRemoteRequest>(),
            R"({"to_id":"h:a","from_id":"b","text":"t","metadata":[1]})", "metadata must be a JSON object",
            0);
    }
    void brokerValidation()
    {
        QFETCH(Reader, read);
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QFETCH(int, status);
        const std::optional<Error> error = read(QJsonDocument::fromJson(body).object());
        if (message.isEmpty()) {
            QVERIFY2(!error, qPrintable(error ? error->message : QString()));
            return;
        }
        QVERIFY(error);
        QCOMPARE(error->message, message);
        QCOMPARE(error->httpStatus, status);
        QCOMPARE(error->kind, status == 400 ? ErrorKind::BadRequest : ErrorKind::Rejected);
    }

    void labelsAreCapped()
    {
        QJsonObject o {{QStringLiteral("id"), QStringLiteral("a")},
                       {QStringLiteral("summary"), QString(Wire::maxLabelBytes + 1, QLatin1Char('x'))}};
        auto read = SetSummaryRequest::fromJson(o);
        QVERIFY(!read);
        QCOMPARE(read.error().message,
                 QStringLiteral("Field \"summary\" must be a string of at most 2048 bytes (UTF-8)"));
        o.insert(QStringLiteral("summary"), QString(Wire::maxLabelBytes, QLatin1Char('x')));
        QVERIFY(SetSummaryRequest::fromJson(o));
        auto reg = RegisterRequest::fromJson(
            QJsonObject {{QStringLiteral("pid"), 1},
                         {QStringLiteral("cwd"), QStringLiteral("/")},
                         {QStringLiteral("client"), QString(100, QLatin1Char('c'))}});
        QVERIFY(reg);
        QCOMPARE(reg->client.size(), Wire::maxClientNameChars);
    }

    // The typed client's answer checks: a wrong shape is BadJson naming the route.
    void decodeNamesTheRoute()
    {
        auto peers =
            BrokerApi::decode<ListPeersAnswer>(QStringLiteral("/list-peers"), QJsonValue(QJsonObject {}));
        QVERIFY(!peers);
        QCOMPARE(peers.error().kind, ErrorKind::BadJson);
        QVERIFY(peers.error().message.contains(QLatin1String("/list-peers")));
        auto messages = BrokerApi::decode<MessagesAnswer>(QStringLiteral("/poll-messages"),
                                                          QJsonValue(parse(R"({"messages":[{"id":"x"}]})")));
        QVERIFY(!messages);
        QCOMPARE(messages.error().kind, ErrorKind::BadJson);
        auto failed = BrokerApi::decode<OkAnswer>(
            QStringLiteral("/heartbeat"), std::unexpected(Error {ErrorKind::Http, QStringLiteral("x"), 401}));
        QVERIFY(!failed);
        QCOMPARE(failed.error().kind, ErrorKind::Http); // the client's error passes through
        QCOMPARE(failed.error().httpStatus, 401);
    }

    void kindNames()
    {
        QCOMPARE(errorKindName(ErrorKind::Unreachable), QStringLiteral("unreachable"));
        QCOMPARE(errorKindName(ErrorKind::BadJson), QStringLiteral("bad_json"));
        QCOMPARE(errorKindName(ErrorKind::TooLarge), QStringLiteral("too_large"));
        QCOMPARE((Error {ErrorKind::PortInUse, {}, 0}.code()), QStringLiteral("port_in_use"));
    }
};

QTEST_GUILESS_MAIN(tst_Wire)
#include "tst_wire.moc"
