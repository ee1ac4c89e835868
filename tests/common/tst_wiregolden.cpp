// Every request and answer struct of wire.h and controlwire.h against golden bytes captured
// from the hand-written mappings before they were built from field tables: what toJson()
// writes (compact JSON), what fromJson() reads back from those bytes, and what it makes of odd
// bodies (first bad field, strings for numbers, nulls, wrong types). A change of the wire —
// a key, an omitted field, a number turned string, another error text — fails here.
//
// PEERS_WRITE_WIRE_GOLDEN=1 rewrites the golden file instead of comparing (only for a
// deliberate wire change, with its entry in docs/protocol.md or docs/divergences.md).
#include "common/controlwire.h"
#include "common/wire.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace Broker;

namespace {

const QString goldenPath = QStringLiteral(PEERS_SOURCE_DIR "/tests/common/fixtures/wire-golden.txt");

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray compact(const QJsonArray &a)
{
    return QJsonDocument(a).toJson(QJsonDocument::Compact);
}

QByteArray describeError(const Error &e)
{
    return "error " + errorKindName(e.kind).toUtf8() + ' ' + QByteArray::number(e.httpStatus) + ' ' +
        e.message.toUtf8();
}

QJsonValue parseValue(const QByteArray &json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
}

// What fromJson() makes of a body, written out again with toJson() (or the error it gives).
template<typename T> QByteArray readBack(const QByteArray &body)
{
    const QJsonValue value = parseValue(body);
    auto read = [&] {
        if constexpr (std::is_same_v<T, ListPeersAnswer>)
            return T::fromJson(value.toArray());
        else
            return T::fromJson(value.toObject());
    }();
    if constexpr (requires { read.has_value(); }) {
        if (!read)
            return describeError(read.error());
        return compact(read->toJson());
    } else {
        return compact(read.toJson());
    }
}

// FederationStatusAnswer is read only (the broker writes it field by field): its fields as JSON.
QByteArray describe(const FederationStatusAnswer &a)
{
    QJsonArray remotes;
    for (const auto &r : a.remotes)
        remotes.append(QJsonObject {{QStringLiteral("host"), r.host},
                                    {QStringLiteral("port"), r.port},
                                    {QStringLiteral("hostname"), r.hostname},
                                    {QStringLiteral("peerCount"), r.peerCount},
                                    {QStringLiteral("connectedAt"), r.connectedAt},
                                    {QStringLiteral("lastSync"), r.lastSync},
                                    {QStringLiteral("state"), r.state},
                                    {QStringLiteral("fingerprint"), r.fingerprint},
                                    {QStringLiteral("legacy"), r.legacy}});
    QJsonObject o {{QStringLiteral("enabled"), a.enabled},
                   {QStringLiteral("port"), a.port},
                   {QStringLiteral("subnet"), a.subnet},
                   {QStringLiteral("subnets"), QJsonArray::fromStringList(a.subnets)},
                   {QStringLiteral("remotes"), remotes},
                   {QStringLiteral("totalRemotePeers"), a.totalRemotePeers},
                   {QStringLiteral("hostname"), a.hostname},
                   {QStringLiteral("fingerprint"), a.fingerprint},
                   {QStringLiteral("pskSource"), a.pskSource},
                   {QStringLiteral("warnings"), QJsonArray::fromStringList(a.warnings)},
                   {QStringLiteral("pending"), a.pending},
                   {QStringLiteral("raw"), a.raw}};
    if (a.acceptLegacy)
        o.insert(QStringLiteral("acceptLegacy"), *a.acceptLegacy);
    return compact(o);
}

QByteArray readStatus(const QByteArray &body)
{
    auto read = FederationStatusAnswer::fromJson(parseValue(body).toObject());
    return read ? describe(*read) : describeError(read.error());
}

Message sampleMessage(qint64 id)
{
    Message m;
    m.id = id;
    m.fromId = QStringLiteral("a1");
    m.toId = QStringLiteral("b2");
    m.text = QStringLiteral("hi \u00e9 \"quoted\"");
    m.type = QStringLiteral("query");
    m.metadata = QJsonObject {{QStringLiteral("k"), 1}};
    m.sentAt = QStringLiteral("2026-03-27T12:00:00.000Z");
    m.delivered = id % 2 == 0;
    m.replyTo = id - 1;
    return m;
}

Peer samplePeer()
{
    Peer p;
    p.id = QStringLiteral("a1");
    p.pid = 5;
    p.cwd = QStringLiteral("/x");
    p.gitRoot = QStringLiteral("/x");
    p.tty = QStringLiteral("pts/1");
    p.summary = QStringLiteral("s");
    p.channelPush = QStringLiteral("working");
    return p;
}

class Golden
{
public:
    // name → bytes, in the order the cases are added.
    QList<std::pair<QByteArray, QByteArray>> entries;

    void add(const QByteArray &name, const QByteArray &bytes) { entries.append({name, bytes}); }

    // toJson(), then fromJson() of those bytes written out again.
    template<typename T> void written(const QByteArray &name, const T &value)
    {
        const QByteArray bytes = compact(value.toJson());
        add(name, bytes);
        if constexpr (
            requires { T::fromJson(QJsonObject {}); } || requires { T::fromJson(QJsonArray {}); })
            add(name + " (read back)", readBack<T>(bytes));
    }

    template<typename T> void read(const QByteArray &name, const QByteArray &body)
    {
        add(name, readBack<T>(body));
    }
};

void requests(Golden &g)
{
    RegisterRequest reg;
    g.written("register: defaults", reg);
    reg.pid = 4242;
    reg.cwd = QStringLiteral("/home/u/proj");
    reg.gitRoot = QStringLiteral("/home/u/proj");
    reg.tty = QStringLiteral("pts/4");
    reg.summary = QStringLiteral("working");
    reg.version = QStringLiteral("0.8.0");
    reg.sessionName = QStringLiteral("AUTH");
    reg.requestedId = QStringLiteral("build-bot");
    reg.client = QStringLiteral("opencode");
    g.written("register: full", reg);
    g.read<RegisterRequest>("register: minimal", R"({"pid":"12","cwd":"/"})");
    g.read<RegisterRequest>("register: nulls",
                            R"({"pid":1,"cwd":"/","git_root":null,"tty":null,"summary":null,
        "version":null,"session_name":null,"requested_id":null,"client":null})");
    g.read<RegisterRequest>("register: pid 0", R"({"pid":0,"cwd":"/"})");
    g.read<RegisterRequest>("register: pid fraction", R"({"pid":1.5,"cwd":"/"})");
    g.read<RegisterRequest>("register: two bad", R"({"pid":-1,"cwd":3})");
    g.read<RegisterRequest>("register: tty number", R"({"pid":1,"cwd":"/","tty":4})");
    g.read<RegisterRequest>("register: long client cut",
                            "{\"pid\":1,\"cwd\":\"/\",\"client\":\"" + QByteArray(100, 'c') + "\"}");
    g.read<RegisterRequest>("register: long name and bad summary",
                            "{\"pid\":1,\"cwd\":\"/\",\"session_name\":\"" + QByteArray(2049, 'n') +
                                "\",\"summary\":5}");
    g.read<RegisterRequest>("register: long name and long summary",
                            "{\"pid\":1,\"cwd\":\"/\",\"session_name\":\"" + QByteArray(2049, 'n') +
                                "\",\"summary\":\"" + QByteArray(2049, 's') + "\"}");
    g.read<RegisterRequest>("register: long summary",
                            "{\"pid\":1,\"cwd\":\"/\",\"summary\":\"" + QByteArray(2049, 's') + "\"}");

    g.written("peer id body", PeerIdBody {QStringLiteral("a1")});
    g.written("heartbeat", HeartbeatRequest {QStringLiteral("a1")});
    g.written("unregister", UnregisterRequest {QStringLiteral("")});
    g.written("poll", PollMessagesRequest {QStringLiteral("a1")});
    g.read<PeerIdBody>("peer id body: number", R"({"id":5})");
    g.read<PeerIdBody>("peer id body: null", R"({"id":null})");

    g.written("set-summary", SetSummaryRequest {QStringLiteral("a1"), QStringLiteral("s")});
    g.written("set-summary: empty", SetSummaryRequest {});
    g.read<SetSummaryRequest>("set-summary: no summary", R"({"id":"a"})");
    g.read<SetSummaryRequest>("set-summary: both bad", R"({"id":1,"summary":2})");
    g.read<SetSummaryRequest>("set-summary: long",
                              "{\"id\":\"a\",\"summary\":\"" + QByteArray(2049, 'x') + "\"}");
    g.read<SetSummaryRequest>("set-summary: long multibyte",
                              "{\"id\":\"a\",\"summary\":\"" +
                                  QByteArray(1025, 'x').replace('x', "\xc3\xa9") + "\"}");
    g.written("set-name", SetNameRequest {QStringLiteral("a1"), QStringLiteral("n")});
    g.written("set-name: empty", SetNameRequest {});
    g.read<SetNameRequest>("set-name: null", R"({"id":"a","session_name":null})");
    g.read<SetNameRequest>("set-name: long",
                           "{\"id\":\"a\",\"session_name\":\"" + QByteArray(2049, 'x') + "\"}");
    g.written("set-channel-push",
              SetChannelPushRequest {QStringLiteral("a1"), QStringLiteral("working"), {}});
    g.read<SetChannelPushRequest>("set-channel-push: no status", R"({"id":"a"})");

    g.written("set-attention: default", SetAttentionRequest {});
    g.written("set-attention: needs-you",
              SetAttentionRequest {QStringLiteral("a1"), Attention::NeedsYou, QStringLiteral("approve?")});
    g.written("set-attention: busy", SetAttentionRequest {QStringLiteral("a1"), Attention::Busy, {}});
    g.written("set-attention: idle", SetAttentionRequest {QStringLiteral("a1"), Attention::Idle, {}});
    g.read<SetAttentionRequest>("set-attention: bad state", R"({"id":"a","state":"sleepy"})");
    g.read<SetAttentionRequest>("set-attention: no id, bad state", R"({"state":"sleepy"})");
    g.read<SetAttentionRequest>("set-attention: state number", R"({"id":"a","state":3,"message":4})");
    g.read<SetAttentionRequest>("set-attention: bad message", R"({"id":"a","state":"busy","message":4})");
    g.read<SetAttentionRequest>("set-attention: long message",
                                "{\"id\":\"a\",\"state\":\"idle\",\"message\":\"" + QByteArray(2049, 'm') +
                                    "\"}");

    g.written("list-peers: full",
              ListPeersRequest {QStringLiteral("repo"), QStringLiteral("/x"), QStringLiteral("/x"),
                                QStringLiteral("a1")});
    g.written("list-peers: empty", ListPeersRequest {});
    g.read<ListPeersRequest>("list-peers: scope number", R"({"scope":1})");
    g.read<ListPeersRequest>("list-peers: nulls",
                             R"({"scope":null,"cwd":null,"git_root":null,"exclude_id":null})");
    g.read<ListPeersRequest>("list-peers: bad exclude", R"({"scope":"lan","exclude_id":[1]})");

    SendMessageRequest send;
    g.written("send: defaults", send);
    send.fromId = QStringLiteral("a1");
    send.toId = QStringLiteral("b2");
    send.text = QStringLiteral("hi \u00e9");
    send.type = QStringLiteral("query");
    send.metadata = QJsonObject {{QStringLiteral("k"), 1}};
    send.replyTo = 7;
    g.written("send: full", send);
    send.type = QString();
    send.metadata = QJsonValue(QJsonValue::Undefined);
    send.replyTo = 0;
    g.written("send: empty type, undefined metadata, reply 0", send);
    send.metadata = QJsonValue(4);
    g.written("send: metadata number", send);
    g.read<SendMessageRequest>("send: nothing", "{}");
    g.read<SendMessageRequest>("send: type number", R"({"from_id":"a","to_id":"b","text":"t","type":1})");
    g.read<SendMessageRequest>("send: type null", R"({"from_id":"a","to_id":"b","text":"t","type":null})");
    g.read<SendMessageRequest>("send: reply digits",
                               R"({"from_id":"a","to_id":"b","text":"t","reply_to":" 7 "})");
    g.read<SendMessageRequest>("send: reply fraction",
                               R"({"from_id":"a","to_id":"b","text":"t","reply_to":1.5})");
    g.read<SendMessageRequest>("send: reply null",
                               R"({"from_id":"a","to_id":"b","text":"t","reply_to":null})");
    g.read<SendMessageRequest>("send: type and reply bad",
                               R"({"from_id":"a","to_id":"b","text":"t","type":2,"reply_to":"x"})");
    g.read<SendMessageRequest>("send: bad type name, metadata number",
                               R"({"from_id":"a","to_id":"b","text":"t","type":"nope","metadata":4})");
    g.read<SendMessageRequest>("send: metadata null",
                               R"({"from_id":"a","to_id":"b","text":"t","metadata":null})");
    g.read<SendMessageRequest>("send: metadata array",
                               R"({"from_id":"a","to_id":"b","text":"t","metadata":[1]})");

    BroadcastRequest broadcast;
    g.written("broadcast: defaults", broadcast);
    broadcast.fromId = QStringLiteral("a1");
    broadcast.text = QStringLiteral("all");
    broadcast.type = QStringLiteral("broadcast");
    broadcast.metadata = QJsonObject {{QStringLiteral("x"), QStringLiteral("y")}};
    broadcast.scope = QStringLiteral("machine");
    broadcast.cwd = QStringLiteral("/");
    broadcast.gitRoot = QStringLiteral("/g");
    g.written("broadcast: full", broadcast);
    g.read<BroadcastRequest>("broadcast: no text", R"({"from_id":"a"})");
    g.read<BroadcastRequest>("broadcast: bad scope and type",
                             R"({"from_id":"a","text":"t","type":1,"scope":2})");
    g.read<BroadcastRequest>(
        "broadcast: nulls",
        R"({"from_id":"a","text":"t","type":null,"scope":null,"cwd":null,"git_root":null,"metadata":null})");

    g.written("ack", AckMessagesRequest {QStringLiteral("a1"), {1, 2, 3}});
    g.written("ack: empty", AckMessagesRequest {});
    g.read<AckMessagesRequest>("ack: ids not a list", R"({"id":"a","message_ids":"1"})");
    g.read<AckMessagesRequest>("ack: ids as digits", R"({"id":"a","message_ids":["1",2]})");
    g.read<AckMessagesRequest>("ack: no ids", R"({"id":"a"})");
    g.read<AckMessagesRequest>("ack: bad item", R"({"id":"a","message_ids":[1,1.5]})");

    g.written("wait: full", WaitMessagesRequest {QStringLiteral("a1"), {4, 5}, 14000, 3});
    g.written("wait: empty", WaitMessagesRequest {});
    g.read<WaitMessagesRequest>("wait: timeout text", R"({"id":"a","timeout_ms":"soon"})");
    g.read<WaitMessagesRequest>("wait: ack null", R"({"id":"a","ack":null})");
    g.read<WaitMessagesRequest>("wait: ack bad, timeout bad", R"({"id":"a","ack":3,"timeout_ms":"x"})");
    g.read<WaitMessagesRequest>("wait: after negative", R"({"id":"a","after_id":-4})");

    g.written("message-status", MessageStatusRequest {12});
    g.read<MessageStatusRequest>("message-status: id text", R"({"message_id":"x"})");
    g.read<MessageStatusRequest>("message-status: digits", R"({"message_id":"44"})");

    HistoryRequest history;
    g.written("messages: defaults", history);
    history.from = QStringLiteral("cli");
    history.to = QStringLiteral("b");
    history.since = QStringLiteral("2026-01-01T00:00:00Z");
    history.search = QStringLiteral("x");
    history.limit = 5;
    history.beforeId = 100;
    history.afterId = 2;
    history.ascending = true;
    history.peer = QStringLiteral("p");
    history.with = QStringLiteral("w");
    history.ids = {1, 2};
    g.written("messages: full", history);
    g.read<HistoryRequest>("messages: limit text", R"({"limit":"many"})");
    g.read<HistoryRequest>("messages: order bad", R"({"order":"sideways"})");
    g.read<HistoryRequest>("messages: order desc", R"({"order":"desc","limit":"3"})");
    g.read<HistoryRequest>("messages: before negative", R"({"before_id":-1})");
    g.read<HistoryRequest>("messages: with without peer", R"({"with":"w"})");
    g.read<HistoryRequest>("messages: with without peer, long from",
                           "{\"with\":\"w\",\"from\":\"" + QByteArray(2049, 'f') + "\"}");
    g.read<HistoryRequest>("messages: long since is fine", "{\"since\":\"" + QByteArray(3000, 's') + "\"}");
    g.read<HistoryRequest>("messages: long search and peer",
                           "{\"search\":\"" + QByteArray(2049, 's') + "\",\"peer\":\"" +
                               QByteArray(2049, 'p') + "\"}");
    g.read<HistoryRequest>("messages: ids too many", "{\"ids\":[" + QByteArray("1,").repeated(500) + "1]}");
    g.read<HistoryRequest>("messages: ids bad", R"({"ids":["x"]})");
    g.read<HistoryRequest>("messages: ids not a list", R"({"ids":5})");
    g.read<HistoryRequest>("messages: ids null", R"({"ids":null})");
    g.read<HistoryRequest>("messages: long peer and bad ids",
                           "{\"peer\":\"" + QByteArray(2049, 'p') + "\",\"ids\":5}");
    g.read<HistoryRequest>("messages: bad from, bad ids", R"({"from":1,"ids":5})");

    g.written("shutdown", ShutdownRequest {});
    g.written("reload", ReloadRequest {});
    g.written("secrets request", SecretsRequest {});
    g.written("rotate-token", RotateTokenRequest {});

    g.written("federation remote", FederationRemoteRequest {QStringLiteral("host"), 7900});
    g.written("federation connect", FederationConnectRequest {{QStringLiteral("h"), 1}});
    g.written("federation disconnect", FederationDisconnectRequest {{QStringLiteral("h"), 2}});
    g.written("federation revoke", FederationRevokeRequest {{QStringLiteral("h"), 3}});
    g.read<FederationRemoteRequest>("federation remote: port 0", R"({"host":"h","port":0})");
    g.read<FederationRemoteRequest>("federation remote: port digits", R"({"host":"h","port":"7900"})");
    g.read<FederationRemoteRequest>("federation remote: both bad", R"({"host":1,"port":0})");
    g.written("federation attempts", FederationAttemptsRequest {});

    SendToRemoteRequest remote;
    g.written("send-to-remote: defaults", remote);
    remote.toId = QStringLiteral("box:a1");
    remote.fromId = QStringLiteral("b2");
    remote.text = QStringLiteral("t");
    remote.type = QStringLiteral("query");
    remote.metadata = QJsonObject {{QStringLiteral("k"), true}};
    remote.replyTo = 9;
    g.written("send-to-remote: full", remote);
    g.read<SendToRemoteRequest>("send-to-remote: metadata array",
                                R"({"to_id":"h:a","from_id":"b","text":"t","metadata":[1]})");
    g.read<SendToRemoteRequest>("send-to-remote: type null",
                                R"({"to_id":"h:a","from_id":"b","text":"t","type":null})");
    g.read<SendToRemoteRequest>("send-to-remote: bad text and metadata",
                                R"({"to_id":"h:a","from_id":"b","metadata":[1]})");

    g.written("federation token: defaults", FederationTokenRequest {});
    g.written("federation token: full", FederationTokenRequest {QStringLiteral("10.0.0.2"), true});
    g.read<FederationTokenRequest>("federation token: legacy number", R"({"legacy":1})");
    g.read<FederationTokenRequest>("federation token: legacy null", R"({"legacy":null,"host":"h"})");
    g.read<FederationTokenRequest>("federation token: both bad", R"({"legacy":1,"host":2})");
    g.read<FederationTokenRequest>("federation token: bad host", R"({"legacy":false,"host":2})");

    g.written("federation join", FederationJoinRequest {QStringLiteral("cpt://h:7900/t")});
    g.read<FederationJoinRequest>("federation join: long", "{\"url\":\"" + QByteArray(4097, 'u') + "\"}");
    g.read<FederationJoinRequest>("federation join: none", "{}");

    g.written("federation init: defaults", FederationInitRequest {});
    g.written("federation init: full",
              FederationInitRequest {7901, {QStringLiteral("10.0.0.0/8"), QStringLiteral("fd00::/8")}});
    g.read<FederationInitRequest>("federation init: port big", R"({"port":70000})");
    g.read<FederationInitRequest>("federation init: port 0", R"({"port":0})");
    g.read<FederationInitRequest>("federation init: subnets mixed", R"({"subnets":["a",1]})");
    g.read<FederationInitRequest>("federation init: subnets text", R"({"subnets":"a"})");
    g.read<FederationInitRequest>("federation init: port bad, subnets bad", R"({"port":"x","subnets":"a"})");
    g.written("federation rotate-psk", FederationRotatePskRequest {});
    g.written("federation pending", FederationPendingRequest {});
    g.written("federation pairing", FederationPairingRequest {QStringLiteral("r1")});
    g.written("federation accept", FederationAcceptRequest {{QStringLiteral("r2")}});
    g.written("federation reject", FederationRejectRequest {{QStringLiteral("r3")}});
    g.written("federation pair cancel", FederationPairCancelRequest {{QStringLiteral("r4")}});
    g.read<FederationPairingRequest>("federation pairing: long", "{\"id\":\"" + QByteArray(129, 'i') + "\"}");
    g.written("federation pair-code", FederationPairCodeRequest {});
    g.written("federation pair",
              FederationPairRequest {QStringLiteral("h"), 7900, QStringLiteral("123-456")});
    g.written("federation pair confirm", FederationPairConfirmRequest {QStringLiteral("r1"), 5000});
    g.written("federation pair confirm: default", FederationPairConfirmRequest {});
    g.written("federation doctor", FederationDoctorRequest {});
}

void answers(Golden &g)
{
    g.written("ok", OkAnswer {});
    g.written("ok: refused", OkAnswer {false, QStringLiteral("no")});
    g.written("ok: ok with error", OkAnswer {true, QStringLiteral("ignored")});
    g.read<OkAnswer>("ok: odd", R"({"ok":1,"error":2})");

    g.written("register answer",
              RegisterAnswer {QStringLiteral("a1"), QStringLiteral("AUTH"), QStringLiteral("s3cr3t"),
                              QStringLiteral("db")});
    g.written("register answer: empty", RegisterAnswer {});
    g.read<RegisterAnswer>("register answer: 0.7", R"({"id":"abc"})");
    g.read<RegisterAnswer>("register answer: odd", R"({"id":5,"session_name":null})");

    const ListPeersAnswer peers {{samplePeer()}};
    g.written("list-peers answer", peers);
    g.written("list-peers answer: empty", ListPeersAnswer {});
    g.read<ListPeersAnswer>("list-peers answer: bad", R"([{"id":5}])");

    g.written("send answer", SendMessageAnswer {true, 41, {}});
    g.written("send answer: refused", SendMessageAnswer {false, 7, QStringLiteral("Peer x not found")});
    g.add("send answer: compact", SendMessageAnswer {true, 12345, {}}.toCompactJson());
    g.add("send answer: compact refused",
          SendMessageAnswer {false, 0, QStringLiteral("no \"such\" peer")}.toCompactJson());
    g.read<SendMessageAnswer>("send answer: odd", R"({"ok":"yes","message_id":"5","error":1})");

    g.written("broadcast answer", BroadcastAnswer {true, 2, {5, -1}, {}});
    g.written("broadcast answer: refused",
              BroadcastAnswer {false, 0, {}, QStringLiteral("Invalid message type: x")});
    g.read<BroadcastAnswer>("broadcast answer: odd",
                            R"({"ok":true,"recipients":"2","message_ids":["3",4.5,6]})");

    g.written("messages answer", MessagesAnswer {{sampleMessage(9), sampleMessage(10)}});
    g.written("messages answer: empty", MessagesAnswer {});
    g.read<MessagesAnswer>("messages answer: no list", "{}");
    g.read<MessagesAnswer>("messages answer: bad message", R"({"messages":[{"id":"x"}]})");

    HistoryAnswer history;
    history.messages = {sampleMessage(9), sampleMessage(10)};
    history.handouts.insert(
        10, MessageHandout {QStringLiteral("2026-03-27T12:00:01.000Z"), QStringLiteral("stream")});
    history.handouts.insert(11, MessageHandout {QStringLiteral("x"), QStringLiteral("poll")});
    history.more = true;
    g.written("history answer", history);
    g.written("history answer: empty", HistoryAnswer {});

    g.written("message-status answer",
              MessageStatusAnswer {9, QStringLiteral("a1"), QStringLiteral("b2"), true, QStringLiteral("t")});
    g.written("message-status answer: empty", MessageStatusAnswer {});
    g.read<MessageStatusAnswer>("message-status answer: delivered 1", R"({"id":3,"delivered":1})");
    g.read<MessageStatusAnswer>("message-status answer: odd", R"({"id":"3","delivered":"1","sent_at":4})");

    HealthAnswer health;
    g.written("health: empty", health);
    health.status = QStringLiteral("ok");
    health.peers = 3;
    health.pid = 77;
    health.uptimeMs = 1000;
    health.requestsLastMinute = 4;
    health.pendingMessages = 0;
    health.version = QStringLiteral("0.8.0");
    health.databaseId = QStringLiteral("db");
    health.capabilities = QStringList {QStringLiteral("wait-messages"), QStringLiteral("attention")};
    g.written("health: full", health);
    health.capabilities = QStringList {};
    g.written("health: no capabilities", health);
    g.read<HealthAnswer>(
        "health: 0.7",
        R"({"status":"ok","peers":3,"uptime_ms":5,"requests_last_minute":1,"pending_messages":0})");
    g.read<HealthAnswer>("health: odd",
                         R"({"status":1,"peers":"3","pid":"4","uptime_ms":1.5,"capabilities":[1,"x"]})");

    MetricsAnswer metrics;
    g.written("metrics: defaults", metrics);
    metrics.uptimeSeconds = 3600;
    metrics.peerCount = 3;
    metrics.messages = {120, 118, 2, 98.33};
    metrics.requestsPerMinute = 42;
    metrics.federation = {true, 1, 2};
    g.written("metrics", metrics);
    metrics.peers =
        QList<MetricsAnswer::PeerRow> {{QStringLiteral("a1"), QStringLiteral("AUTH"), QStringLiteral("/x"),
                                        QStringLiteral("working"), QStringLiteral("r"), QStringLiteral("s")},
                                       {}};
    g.written("metrics: detailed", metrics);
    g.read<MetricsAnswer>("metrics: odd",
                          R"({"uptime_seconds":"1","messages":{"delivery_rate_pct":"x"},"peers":[5]})");

    g.written("shutdown answer", ShutdownAnswer {true, 77});
    g.written("shutdown answer: empty", ShutdownAnswer {false, 0});
    g.written("reload answer", ReloadAnswer {true, 2});
    g.written("reload answer: no peers", ReloadAnswer {true, std::nullopt});
    g.read<ReloadAnswer>("reload answer: odd", R"({"ok":true,"peers":"2"})");

    SecretsAnswer secrets;
    g.written("secrets: empty", secrets);
    secrets.localToken = {QStringLiteral("keychain"), QStringLiteral("Secret Service"), QStringLiteral("/t"),
                          QStringLiteral("note")};
    g.written("secrets", secrets);
    secrets.ok = false;
    g.written("secrets: rotate", secrets);
    g.read<SecretsAnswer>("secrets: no token", R"({"ok":true})");

    g.written("federation answer",
              FederationAnswer {true, QStringLiteral("kept?"),
                                QJsonObject {{QStringLiteral("hostname"), QStringLiteral("box")},
                                             {QStringLiteral("ok"), false}}});
    g.written("federation answer: refused",
              FederationAnswer {false, QStringLiteral("Federation is disabled"),
                                QJsonObject {{QStringLiteral("x"), 1}}});

    g.add("federation status: 0.7", readStatus(R"({"enabled":true,"port":7900,"subnet":"192.168.1.0/24",
        "remotes":[{"host":"10.0.0.2","port":7900,"hostname":"box","peer_count":2,"connected_at":"c",
        "last_sync":"l"}],"total_remote_peers":2})"));
    g.add("federation status: ours", readStatus(R"({"enabled":false,"port":"7901","subnet":"s",
        "subnets":["a","b",3],"remotes":[{"host":"h","port":"7","peer_count":1.5,"state":"evicted",
        "fingerprint":"f","legacy":true},5],"total_remote_peers":"x","hostname":"me","fingerprint":"fp",
        "psk_source":"local-token-copy","accept_legacy":false,"warnings":["w",1],"pending":3})"));
    g.add("federation status: no port", readStatus(R"({"enabled":true,"port":1.5})"));
    g.add("federation status: no enabled", readStatus(R"({"enabled":"yes"})"));

    g.written("federation token answer",
              FederationTokenAnswer {true,
                                     {},
                                     QStringLiteral("cpt://h:7900;fp=x/t"),
                                     QStringLiteral("h"),
                                     7900,
                                     QStringLiteral("box"),
                                     QStringLiteral("fp")});
    g.written("federation token answer: minimal",
              FederationTokenAnswer {true, {}, QStringLiteral("cpt://h:7900/t"), {}, 0, {}, {}});
    g.written("federation token answer: refused",
              FederationTokenAnswer {false, QStringLiteral("no PSK"), {}, {}, 1, {}, {}});
    g.read<FederationTokenAnswer>("federation token answer: no url", R"({"ok":true,"url":"http://x"})");
    g.read<FederationTokenAnswer>("federation token answer: digits",
                                  R"({"ok":true,"url":"cpt://x","port":"7900"})");

    FederationPendingAnswer pending;
    pending.requests = {{QStringLiteral("r1"), QStringLiteral("h"), 7900, QStringLiteral("box"),
                         QStringLiteral("fp"), QStringLiteral("123"), QStringLiteral("t"),
                         QStringLiteral("pending"), QStringLiteral("code")},
                        {}};
    g.written("federation pending answer", pending);
    g.written("federation pending answer: refused",
              FederationPendingAnswer {false, QStringLiteral("no"), {}, {}});
    g.read<FederationPendingAnswer>("federation pending answer: no list", R"({"ok":true})");
    g.read<FederationPendingAnswer>("federation pending answer: odd",
                                    R"({"ok":true,"requests":[{"id":1,"port":"7900"},3]})");

    FederationDoctorAnswer doctor;
    doctor.checks = {
        {QStringLiteral("port"), QStringLiteral("ok"), QStringLiteral("7900 open"), {}},
        {QStringLiteral("psk"), QStringLiteral("fail"), QStringLiteral("none"), QStringLiteral("init")}};
    g.written("federation doctor answer", doctor);
    g.written("federation doctor answer: refused", FederationDoctorAnswer {false, QStringLiteral("no"), {}});
    g.read<FederationDoctorAnswer>("federation doctor answer: no list", R"({"ok":true})");
}

void control(Golden &g)
{
    g.written("control answer", ControlAnswer {QJsonObject {{QStringLiteral("x"), 1}}});
    g.written("control request",
              ControlRequest {QStringLiteral("session.list"), QJsonObject {{QStringLiteral("limit"), 2}},
                              QStringLiteral("/w")});
    g.written("control request: minimal", ControlRequest {});
    g.read<ControlRequest>("control request: odd", R"({"action":5,"input":[1],"contextDirectory":" /d "})");
    g.read<ControlRequest>("control request: trimmed", R"({"action":" a ","input":{"k":1}})");

    ControlFailure failure;
    g.add("control failure: default", compact(failure.toJson()));
    failure.message = QStringLiteral("busy");
    failure.partial =
        QJsonObject {{QStringLiteral("partial"), true}, {QStringLiteral("sessionId"), QStringLiteral("s")}};
    g.add("control failure", compact(failure.toJson()));
    const auto readFailure = [](int status, const QByteArray &body, const QString &action) -> QByteArray {
        const ControlFailure f = ControlFailure::fromJson(status, parseValue(body).toObject(), action);
        return QByteArray::number(f.status) + ' ' + compact(f.toJson());
    };
    g.add("control failure: read",
          readFailure(409, R"({"error":" busy ","partial":true,"partialAction":"fork",
        "sessionId":"s","directory":"/d","other":1})",
                      QStringLiteral("fork")));
    g.add("control failure: no error", readFailure(500, R"({"partial":false,"sessionId":"s"})", QString()));
    g.add("control failure: no error, action", readFailure(404, "{}", QStringLiteral("x")));
    const ControlFailure fromError = ControlFailure::fromError(
        Error {ErrorKind::Unreachable, QStringLiteral("down"), 0}, QStringLiteral("a"));
    g.add("control failure: transport",
          QByteArray::number(fromError.status) + ' ' + compact(fromError.toJson()));

    g.written(
        "agent-tool envelope: success",
        AgentToolEnvelope::success(QStringLiteral("session.list"), QJsonObject {{QStringLiteral("n"), 2}}));
    g.written("agent-tool envelope: success empty", AgentToolEnvelope::success(QStringLiteral("a"), {}));
    g.written("agent-tool envelope: failure",
              AgentToolEnvelope::failure(QStringLiteral("a"), 409, QStringLiteral("busy")));
    g.written("agent-tool envelope: failure partial",
              AgentToolEnvelope::failure(QStringLiteral("a"), 500, QStringLiteral("boom"),
                                         QJsonObject {{QStringLiteral("partial"), true}}));
    g.written("agent-tool envelope: cancelled",
              AgentToolEnvelope::failure(QStringLiteral("a"), 499, QStringLiteral("c")));
    g.read<AgentToolEnvelope>("agent-tool envelope: version 2", R"({"schemaVersion":2,"ok":true})");
    g.read<AgentToolEnvelope>("agent-tool envelope: no ok", R"({"schemaVersion":1})");
    g.read<AgentToolEnvelope>("agent-tool envelope: failed without message",
                              R"({"schemaVersion":1,"ok":false})");

    g.written("agent-tool request",
              AgentToolRequest {QJsonObject {{QStringLiteral("action"), QStringLiteral("x")}},
                                QStringLiteral("/w"), QStringLiteral("openchamber")});
    g.written("agent-tool request: defaults", AgentToolRequest {});
    g.read<AgentToolRequest>("agent-tool request: odd", R"({"input":3,"tool":" t ","contextDirectory":4})");
}

Golden everything()
{
    Golden g;
    requests(g);
    answers(g);
    control(g);
    return g;
}

} // namespace

class tst_WireGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAreUnique()
    {
        QSet<QByteArray> names;
        const Golden g = everything();
        for (const auto &[name, bytes] : g.entries) {
            QVERIFY2(!names.contains(name), name.constData());
            names.insert(name);
        }
    }

    void matchesGolden()
    {
        const Golden g = everything();
        QFile file(goldenPath);
        if (qEnvironmentVariableIsSet("PEERS_WRITE_WIRE_GOLDEN")) {
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            for (const auto &[name, bytes] : g.entries)
                file.write(name + '\t' + bytes + '\n');
            QSKIP("golden file written, nothing compared");
        }
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(goldenPath));
        QList<std::pair<QByteArray, QByteArray>> golden;
        for (QByteArray line : file.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const qsizetype tab = line.indexOf('\t');
            QVERIFY2(tab > 0, line.constData());
            golden.append({line.left(tab), line.mid(tab + 1)});
        }
        QCOMPARE(g.entries.size(), golden.size());
        for (qsizetype i = 0; i < golden.size(); ++i) {
            const auto &[name, bytes] = g.entries[i];
            QCOMPARE(name, golden[i].first);
            QVERIFY2(bytes == golden[i].second,
                     QByteArray(name + "\n   now: " + bytes + "\nbefore: " + golden[i].second).constData());
        }
    }
};

QTEST_GUILESS_MAIN(tst_WireGolden)
#include "tst_wiregolden.moc"
