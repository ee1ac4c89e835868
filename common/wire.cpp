#include "common/wire.h"

#include "common/jsonfields.h"
#include "common/wirefields.h"

#include <QJsonDocument>

namespace Broker {

// Each struct's fields are listed once, in a table below (wirefields.h says how a table is
// read and written); requests are read in table order, so the first bad field is the first in
// the table. Answers are read leniently (a field that is missing reads as its default), so only
// a non-object or a list that is not a list fails. QJsonObject keeps its keys sorted, so a
// table's order does not change the bytes on the wire (tst_wiregolden holds them).
using namespace WireTable;

namespace {

template<typename T> Result<T> checked(const JsonFields &fields, T value)
{
    if (fields.error())
        return std::unexpected(*fields.error());
    return value;
}

Error badAnswer(const QString &what)
{
    return Error {ErrorKind::BadJson, what};
}

QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

// {"ok":false,"error"}: an answer that refuses carries nothing else.
QJsonObject refusal(const QString &error)
{
    return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
}

} // namespace

// ---- OkAnswer ----

QJsonObject OkAnswer::toJson() const
{
    return ok ? QJsonObject {{QStringLiteral("ok"), true}} : refusal(error);
}

Result<OkAnswer> OkAnswer::fromJson(const QJsonObject &o)
{
    return OkAnswer {o.value(QLatin1String("ok")).toBool(), text(o, "error")};
}

// ---- Peers ----

namespace {

constexpr auto registerAnswerFields = std::tuple {
    required("id", &RegisterAnswer::id),
    optional("session_name", &RegisterAnswer::sessionName).omitEmpty(),
    required("session_secret", &RegisterAnswer::sessionSecret),
    required("database_id", &RegisterAnswer::databaseId),
};

constexpr auto registerRequestFields = std::tuple {
    required("pid", &RegisterRequest::pid).atLeast(1),
    required("cwd", &RegisterRequest::cwd),
    optional("git_root", &RegisterRequest::gitRoot).nullWhenEmpty(),
    optional("tty", &RegisterRequest::tty).nullWhenEmpty(),
    optional("session_name", &RegisterRequest::sessionName).omitEmpty().atMostBytes(Wire::maxLabelBytes),
    optional("summary", &RegisterRequest::summary).atMostBytes(Wire::maxLabelBytes),
    optional("version", &RegisterRequest::version),
    // Fields of ours (docs/protocol.md); a 0.7 broker ignores them.
    optional("requested_id", &RegisterRequest::requestedId).omitEmpty(),
    optional("client", &RegisterRequest::client).omitEmpty(),
    Rule<RegisterRequest> {.readStep =
                               [](JsonFields &, RegisterRequest &r) {
                                   r.client = r.client.left(
                                       Wire::maxClientNameChars); // a longer name is cut, not refused
                               }},
};

constexpr auto peerIdFields = std::tuple {required("id", &PeerIdBody::id)};

constexpr auto setSummaryFields = std::tuple {
    required("id", &SetSummaryRequest::id),
    required("summary", &SetSummaryRequest::summary).atMostBytes(Wire::maxLabelBytes),
};

constexpr auto setNameFields = std::tuple {
    required("id", &SetNameRequest::id),
    required("session_name", &SetNameRequest::sessionName).atMostBytes(Wire::maxLabelBytes),
};

constexpr auto setChannelPushFields = std::tuple {
    required("id", &SetChannelPushRequest::id),
    required("status", &SetChannelPushRequest::status),
    optional("delivery", &SetChannelPushRequest::delivery).omitEmpty().atMostBytes(Wire::maxLabelBytes),
};

constexpr auto setAttentionFields = std::tuple {
    required("id", &SetAttentionRequest::id),
    required("state", &SetAttentionRequest::state),
    optional("message", &SetAttentionRequest::message).omitEmpty().atMostBytes(Wire::maxLabelBytes),
};

} // namespace

QJsonObject RegisterAnswer::toJson() const
{
    return writeFields(*this, registerAnswerFields);
}

Result<RegisterAnswer> RegisterAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<RegisterAnswer>(o, registerAnswerFields);
}

QJsonObject RegisterRequest::toJson() const
{
    return writeFields(*this, registerRequestFields);
}

Result<RegisterRequest> RegisterRequest::fromJson(const QJsonObject &o)
{
    return readRequest<RegisterRequest>(o, registerRequestFields);
}

QJsonObject PeerIdBody::toJson() const
{
    return writeFields(*this, peerIdFields);
}

Result<PeerIdBody> PeerIdBody::fromJson(const QJsonObject &o)
{
    return readRequest<PeerIdBody>(o, peerIdFields);
}

QJsonObject SetSummaryRequest::toJson() const
{
    return writeFields(*this, setSummaryFields);
}

Result<SetSummaryRequest> SetSummaryRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SetSummaryRequest>(o, setSummaryFields);
}

QJsonObject SetNameRequest::toJson() const
{
    return writeFields(*this, setNameFields);
}

Result<SetNameRequest> SetNameRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SetNameRequest>(o, setNameFields);
}

QJsonObject SetChannelPushRequest::toJson() const
{
    return writeFields(*this, setChannelPushFields);
}

Result<SetChannelPushRequest> SetChannelPushRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SetChannelPushRequest>(o, setChannelPushFields);
}

QJsonObject SetAttentionRequest::toJson() const
{
    return writeFields(*this, setAttentionFields);
}

Result<SetAttentionRequest> SetAttentionRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SetAttentionRequest>(o, setAttentionFields);
}

QJsonArray ListPeersAnswer::toJson() const
{
    QJsonArray array;
    for (const Peer &peer : peers)
        array.append(peer.toJson());
    return array;
}

Result<ListPeersAnswer> ListPeersAnswer::fromJson(const QJsonArray &array)
{
    auto peers = peersFromJson(array);
    if (!peers)
        return std::unexpected(badAnswer(peers.error().message));
    return ListPeersAnswer {std::move(*peers)};
}

namespace {

constexpr auto listPeersFields = std::tuple {
    optional("scope", &ListPeersRequest::scope),
    optional("cwd", &ListPeersRequest::cwd),
    optional("git_root", &ListPeersRequest::gitRoot).nullWhenEmpty(),
    optional("exclude_id", &ListPeersRequest::excludeId).omitEmpty(),
};

} // namespace

QJsonObject ListPeersRequest::toJson() const
{
    return writeFields(*this, listPeersFields);
}

Result<ListPeersRequest> ListPeersRequest::fromJson(const QJsonObject &o)
{
    return readRequest<ListPeersRequest>(o, listPeersFields);
}

// ---- Messages ----

QJsonObject SendMessageAnswer::toJson() const
{
    if (!ok)
        return refusal(error);
    return {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), messageId}};
}

QByteArray SendMessageAnswer::toCompactJson() const
{
    if (!ok)
        return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
    return "{\"message_id\":" + QByteArray::number(messageId) + ",\"ok\":true}";
}

Result<SendMessageAnswer> SendMessageAnswer::fromJson(const QJsonObject &o)
{
    SendMessageAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.messageId = o.value(QLatin1String("message_id")).toInteger();
    a.error = text(o, "error");
    return a;
}

namespace {

// type and metadata of a send or broadcast travel as given (a string or null; any value): the
// broker checks them after the fields.
constexpr auto sendMessageFields = std::tuple {
    required("from_id", &SendMessageRequest::fromId),   required("to_id", &SendMessageRequest::toId),
    required("text", &SendMessageRequest::text),        optional("type", &SendMessageRequest::type),
    optional("reply_to", &SendMessageRequest::replyTo), optional("metadata", &SendMessageRequest::metadata),
};

constexpr auto broadcastAnswerFields = std::tuple {
    required("ok", &BroadcastAnswer::ok),
    required("recipients", &BroadcastAnswer::recipients),
    required("message_ids", &BroadcastAnswer::messageIds),
    Rule<BroadcastAnswer> {
        .writeStep =
            [](QJsonObject &o, const BroadcastAnswer &a) {
                if (!a.ok)
                    o.insert(QStringLiteral("error"), a.error);
            },
        .answerStep = [](const QJsonObject &o, BroadcastAnswer &a) { a.error = text(o, "error"); },
    },
};

constexpr auto broadcastFields = std::tuple {
    required("from_id", &BroadcastRequest::fromId),
    required("text", &BroadcastRequest::text),
    optional("type", &BroadcastRequest::type),
    optional("scope", &BroadcastRequest::scope),
    optional("cwd", &BroadcastRequest::cwd),
    optional("git_root", &BroadcastRequest::gitRoot).nullWhenEmpty(),
    optional("metadata", &BroadcastRequest::metadata),
};

} // namespace

QJsonObject SendMessageRequest::toJson() const
{
    return writeFields(*this, sendMessageFields);
}

Result<SendMessageRequest> SendMessageRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SendMessageRequest>(o, sendMessageFields);
}

QJsonObject BroadcastAnswer::toJson() const
{
    return writeFields(*this, broadcastAnswerFields);
}

Result<BroadcastAnswer> BroadcastAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<BroadcastAnswer>(o, broadcastAnswerFields);
}

QJsonObject BroadcastRequest::toJson() const
{
    return writeFields(*this, broadcastFields);
}

Result<BroadcastRequest> BroadcastRequest::fromJson(const QJsonObject &o)
{
    return readRequest<BroadcastRequest>(o, broadcastFields);
}

QJsonObject MessagesAnswer::toJson() const
{
    QJsonArray array;
    for (const Message &m : messages)
        array.append(m.toJson());
    return {{QStringLiteral("messages"), array}};
}

Result<MessagesAnswer> MessagesAnswer::fromJson(const QJsonObject &o)
{
    const QJsonValue list = o.value(QLatin1String("messages"));
    if (!list.isArray())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no \"messages\" list")));
    auto messages = messagesFromJson(list.toArray());
    if (!messages)
        return std::unexpected(badAnswer(messages.error().message));
    return MessagesAnswer {std::move(*messages)};
}

QJsonObject HistoryAnswer::toJson() const
{
    QJsonArray array;
    for (const Message &m : messages) {
        QJsonObject o = m.toJson();
        o.insert(QStringLiteral("delivered"), m.delivered);
        if (const auto handout = handouts.constFind(m.id); handout != handouts.cend() && handout->isKnown()) {
            o.insert(QStringLiteral("pushed_at"), handout->at);
            o.insert(QStringLiteral("pushed_by"), handout->by);
        }
        array.append(o);
    }
    QJsonObject answer {{QStringLiteral("messages"), array}};
    if (more)
        answer.insert(QStringLiteral("more"), true);
    return answer;
}

Result<HistoryAnswer> HistoryAnswer::fromJson(const QJsonObject &o)
{
    auto read = MessagesAnswer::fromJson(o);
    if (!read)
        return std::unexpected(read.error());
    HistoryAnswer a;
    a.messages = std::move(read->messages);
    const QJsonArray list = o.value(QLatin1String("messages")).toArray();
    for (const QJsonValue &value : list) {
        const QJsonObject element = value.toObject();
        const QString at = element.value(QLatin1String("pushed_at")).toString();
        if (!at.isEmpty())
            a.handouts.insert(element.value(QLatin1String("id")).toInteger(),
                              MessageHandout {at, element.value(QLatin1String("pushed_by")).toString()});
    }
    a.more = o.value(QLatin1String("more")).toBool();
    return a;
}

namespace {

constexpr auto ackMessagesFields = std::tuple {
    required("id", &AckMessagesRequest::id),
    required("message_ids", &AckMessagesRequest::messageIds),
};

constexpr auto waitMessagesFields = std::tuple {
    required("id", &WaitMessagesRequest::id),
    optional("ack", &WaitMessagesRequest::ack),
    optional("timeout_ms", &WaitMessagesRequest::timeoutMs),
    optional("after_id", &WaitMessagesRequest::afterId),
};

constexpr auto messageStatusAnswerFields = std::tuple {
    required("id", &MessageStatusAnswer::id),
    required("from_id", &MessageStatusAnswer::fromId),
    required("to_id", &MessageStatusAnswer::toId),
    required("delivered", &MessageStatusAnswer::delivered).numberAsBool(), // 0/1 from a 0.7 broker
    required("sent_at", &MessageStatusAnswer::sentAt),
};

constexpr auto messageStatusFields = std::tuple {required("message_id", &MessageStatusRequest::messageId)};

constexpr qsizetype maxFilter = HistoryRequest::maxFilterBytes;

constexpr auto historyFields = std::tuple {
    optional("from", &HistoryRequest::from).omitEmpty().atMostBytes(maxFilter),
    optional("to", &HistoryRequest::to).omitEmpty().atMostBytes(maxFilter),
    optional("since", &HistoryRequest::since).omitEmpty(),
    optional("search", &HistoryRequest::search).omitEmpty().atMostBytes(maxFilter),
    optional("limit", &HistoryRequest::limit),
    optional("before_id", &HistoryRequest::beforeId).atLeast(0),
    optional("after_id", &HistoryRequest::afterId).atLeast(0),
    // "order": "desc" (the default, newest first) or "asc"
    Rule<HistoryRequest> {
        .readStep =
            [](JsonFields &fields, HistoryRequest &r) {
                const QString order = fields.optionalString("order", QStringLiteral("desc"));
                fields.checkOneOf("order", order, {QStringLiteral("desc"), QStringLiteral("asc")});
                r.ascending = order == QLatin1String("asc");
            },
        .writeStep =
            [](QJsonObject &o, const HistoryRequest &r) {
                if (r.ascending)
                    o.insert(QStringLiteral("order"), QStringLiteral("asc"));
            },
    },
    optional("peer", &HistoryRequest::peer).omitEmpty().atMostBytes(maxFilter),
    optional("with", &HistoryRequest::with).omitEmpty().atMostBytes(maxFilter),
    Rule<HistoryRequest> {
        .readStep =
            [](JsonFields &fields, HistoryRequest &r) {
                fields.check(r.with.isEmpty() || !r.peer.isEmpty(), "with",
                             QStringLiteral("given together with \"peer\" (the thread between two peers)"));
            }},
    // "ids": at most maxIds, read after the caps of the filters
    Rule<HistoryRequest> {
        .checkStep =
            [](JsonFields &fields, HistoryRequest &r) {
                if (!fields.present("ids"))
                    return;
                const QJsonValue ids = fields.value("ids");
                fields.check(!ids.isArray() || ids.toArray().size() <= HistoryRequest::maxIds, "ids",
                             QStringLiteral("a list of at most %1 integers").arg(HistoryRequest::maxIds));
                if (!fields.error())
                    r.ids = fields.integerList("ids");
            },
        .writeStep =
            [](QJsonObject &o, const HistoryRequest &r) {
                if (!r.ids.isEmpty())
                    o.insert(QStringLiteral("ids"), integersToJson(r.ids));
            },
    },
};

} // namespace

QJsonObject AckMessagesRequest::toJson() const
{
    return writeFields(*this, ackMessagesFields);
}

Result<AckMessagesRequest> AckMessagesRequest::fromJson(const QJsonObject &o)
{
    return readRequest<AckMessagesRequest>(o, ackMessagesFields);
}

QJsonObject WaitMessagesRequest::toJson() const
{
    return writeFields(*this, waitMessagesFields);
}

Result<WaitMessagesRequest> WaitMessagesRequest::fromJson(const QJsonObject &o)
{
    return readRequest<WaitMessagesRequest>(o, waitMessagesFields);
}

QJsonObject MessageStatusAnswer::toJson() const
{
    return writeFields(*this, messageStatusAnswerFields);
}

Result<MessageStatusAnswer> MessageStatusAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<MessageStatusAnswer>(o, messageStatusAnswerFields);
}

QJsonObject MessageStatusRequest::toJson() const
{
    return writeFields(*this, messageStatusFields);
}

Result<MessageStatusRequest> MessageStatusRequest::fromJson(const QJsonObject &o)
{
    return readRequest<MessageStatusRequest>(o, messageStatusFields);
}

QJsonObject HistoryRequest::toJson() const
{
    return writeFields(*this, historyFields);
}

Result<HistoryRequest> HistoryRequest::fromJson(const QJsonObject &o)
{
    return readRequest<HistoryRequest>(o, historyFields);
}

// ---- Broker ----

namespace {

constexpr auto healthFields = std::tuple {
    required("status", &HealthAnswer::status),
    required("peers", &HealthAnswer::peers),
    optional("uptime_ms", &HealthAnswer::uptimeMs),
    optional("requests_last_minute", &HealthAnswer::requestsLastMinute),
    optional("pending_messages", &HealthAnswer::pendingMessages),
    optional("pid", &HealthAnswer::pid),
    optional("version", &HealthAnswer::version).omitEmpty(),
    optional("database_id", &HealthAnswer::databaseId).omitEmpty(),
    optional("capabilities", &HealthAnswer::capabilities),
};

constexpr auto metricsMessagesFields = std::tuple {
    required("total", &MetricsAnswer::Messages::total),
    required("delivered", &MetricsAnswer::Messages::delivered),
    required("pending", &MetricsAnswer::Messages::pending),
    required("delivery_rate_pct", &MetricsAnswer::Messages::deliveryRatePct),
};

constexpr auto metricsFederationFields = std::tuple {
    required("enabled", &MetricsAnswer::Federation::enabled),
    required("remote_count", &MetricsAnswer::Federation::remoteCount),
    required("remote_peer_count", &MetricsAnswer::Federation::remotePeerCount),
};

constexpr auto metricsPeerFields = std::tuple {
    required("id", &MetricsAnswer::PeerRow::id),
    required("name", &MetricsAnswer::PeerRow::name),
    required("cwd", &MetricsAnswer::PeerRow::cwd),
    required("channel_push", &MetricsAnswer::PeerRow::channelPush),
    required("registered_at", &MetricsAnswer::PeerRow::registeredAt),
    required("last_seen", &MetricsAnswer::PeerRow::lastSeen),
};

constexpr auto metricsFields = std::tuple {
    required("uptime_seconds", &MetricsAnswer::uptimeSeconds),
    required("peer_count", &MetricsAnswer::peerCount),
    nested("messages", &MetricsAnswer::messages, metricsMessagesFields),
    required("requests_per_minute", &MetricsAnswer::requestsPerMinute),
    nested("federation", &MetricsAnswer::federation, metricsFederationFields),
    nested("peers", &MetricsAnswer::peers, metricsPeerFields), // with ?detailed=true
};

constexpr auto shutdownAnswerFields = std::tuple {
    required("ok", &ShutdownAnswer::ok),
    required("pid", &ShutdownAnswer::pid),
};

constexpr auto reloadAnswerFields = std::tuple {
    required("ok", &ReloadAnswer::ok),
    optional("peers", &ReloadAnswer::peers),
};

} // namespace

QJsonObject HealthAnswer::toJson() const
{
    return writeFields(*this, healthFields);
}

Result<HealthAnswer> HealthAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<HealthAnswer>(o, healthFields);
}

QJsonObject MetricsAnswer::toJson() const
{
    return writeFields(*this, metricsFields);
}

Result<MetricsAnswer> MetricsAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<MetricsAnswer>(o, metricsFields);
}

QJsonObject ShutdownAnswer::toJson() const
{
    return writeFields(*this, shutdownAnswerFields);
}

Result<ShutdownAnswer> ShutdownAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<ShutdownAnswer>(o, shutdownAnswerFields);
}

QJsonObject ReloadAnswer::toJson() const
{
    return writeFields(*this, reloadAnswerFields);
}

Result<ReloadAnswer> ReloadAnswer::fromJson(const QJsonObject &o)
{
    return readAnswer<ReloadAnswer>(o, reloadAnswerFields);
}

namespace {

constexpr auto localTokenFields = std::tuple {
    required("store", &SecretsAnswer::LocalToken::store),
    required("where", &SecretsAnswer::LocalToken::where),
    required("token_file", &SecretsAnswer::LocalToken::tokenFile),
    optional("note", &SecretsAnswer::LocalToken::note).omitEmpty(),
};

constexpr auto secretsFields = std::tuple {
    optional("ok", &SecretsAnswer::ok), // set by /rotate-token
    nested("local_token", &SecretsAnswer::localToken, localTokenFields),
};

} // namespace

QJsonObject SecretsAnswer::toJson() const
{
    return writeFields(*this, secretsFields);
}

Result<SecretsAnswer> SecretsAnswer::fromJson(const QJsonObject &o)
{
    if (!o.value(QLatin1String("local_token")).isObject())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no \"local_token\" object")));
    return readAnswer<SecretsAnswer>(o, secretsFields);
}

// ---- Federation ----

QJsonObject FederationAnswer::toJson() const
{
    if (!ok)
        return refusal(error);
    QJsonObject o = details;
    o.insert(QStringLiteral("ok"), true);
    return o;
}

Result<FederationAnswer> FederationAnswer::fromJson(const QJsonObject &o)
{
    FederationAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.error = text(o, "error");
    a.details = o;
    a.details.remove(QLatin1String("ok"));
    a.details.remove(QLatin1String("error"));
    return a;
}

namespace {

constexpr auto federationRemoteFields = std::tuple {
    required("host", &FederationRemoteRequest::host),
    required("port", &FederationRemoteRequest::port).atLeast(1),
};

constexpr auto sendToRemoteFields = std::tuple {
    required("to_id", &SendToRemoteRequest::toId),
    required("from_id", &SendToRemoteRequest::fromId),
    required("text", &SendToRemoteRequest::text),
    optional("type", &SendToRemoteRequest::type), // absent or null: "text"
    optional("reply_to", &SendToRemoteRequest::replyTo),
    // An object, or absent or null; anything else is a rule's refusal (as the reference's),
    // once the fields are good.
    Rule<SendToRemoteRequest> {
        .checkStep =
            [](JsonFields &fields, SendToRemoteRequest &r) {
                const QJsonValue metadata = fields.value("metadata");
                if (metadata.isObject())
                    r.metadata = metadata.toObject();
                else if (!metadata.isUndefined() && !metadata.isNull())
                    fields.reject(
                        Error {ErrorKind::Rejected, QStringLiteral("metadata must be a JSON object")});
            },
        .writeStep =
            [](QJsonObject &o, const SendToRemoteRequest &r) {
                if (r.metadata)
                    o.insert(QStringLiteral("metadata"), *r.metadata);
            },
    },
};

} // namespace

QJsonObject FederationRemoteRequest::toJson() const
{
    return writeFields(*this, federationRemoteFields);
}

Result<FederationRemoteRequest> FederationRemoteRequest::fromJson(const QJsonObject &o)
{
    return readRequest<FederationRemoteRequest>(o, federationRemoteFields);
}

QJsonObject SendToRemoteRequest::toJson() const
{
    return writeFields(*this, sendToRemoteFields);
}

Result<SendToRemoteRequest> SendToRemoteRequest::fromJson(const QJsonObject &o)
{
    return readRequest<SendToRemoteRequest>(o, sendToRemoteFields);
}

namespace {

// Answers of ours that 0.7 did not have: an integer may come as digits.
constexpr auto federationRemoteStatusFields = std::tuple {
    required("host", &FederationStatusAnswer::Remote::host),
    required("port", &FederationStatusAnswer::Remote::port).digitsToo(),
    required("hostname", &FederationStatusAnswer::Remote::hostname),
    required("peer_count", &FederationStatusAnswer::Remote::peerCount).digitsToo(),
    required("connected_at", &FederationStatusAnswer::Remote::connectedAt),
    required("last_sync", &FederationStatusAnswer::Remote::lastSync),
    optional("state", &FederationStatusAnswer::Remote::state),
    optional("fingerprint", &FederationStatusAnswer::Remote::fingerprint),
    optional("legacy", &FederationStatusAnswer::Remote::legacy),
};

constexpr auto federationStatusFields = std::tuple {
    required("enabled", &FederationStatusAnswer::enabled),
    required("port", &FederationStatusAnswer::port).digitsToo(),
    required("subnet", &FederationStatusAnswer::subnet),
    optional("subnets", &FederationStatusAnswer::subnets),
    Rule<FederationStatusAnswer> {.answerStep =
                                      [](const QJsonObject &, FederationStatusAnswer &a) {
                                          if (a.subnets.isEmpty() && !a.subnet.isEmpty())
                                              a.subnets << a.subnet; // 0.7 has one subnet
                                      }},
    nested("remotes", &FederationStatusAnswer::remotes, federationRemoteStatusFields),
    required("total_remote_peers", &FederationStatusAnswer::totalRemotePeers).digitsToo(),
    optional("hostname", &FederationStatusAnswer::hostname),
    optional("fingerprint", &FederationStatusAnswer::fingerprint),
    optional("psk_source", &FederationStatusAnswer::pskSource),
    optional("accept_legacy", &FederationStatusAnswer::acceptLegacy),
    optional("warnings", &FederationStatusAnswer::warnings),
    optional("pending", &FederationStatusAnswer::pending).digitsToo(),
};

constexpr auto federationTokenAnswerFields = std::tuple {
    required("ok", &FederationTokenAnswer::ok),
    required("url", &FederationTokenAnswer::url),
    optional("host", &FederationTokenAnswer::host).omitEmpty(),
    required("port", &FederationTokenAnswer::port).digitsToo(),
    optional("hostname", &FederationTokenAnswer::hostname).omitEmpty(),
    optional("fingerprint", &FederationTokenAnswer::fingerprint).omitEmpty(),
};

constexpr auto federationTokenFields = std::tuple {
    // Read first: a bad "legacy" is the error even when "host" is bad too.
    Rule<FederationTokenRequest> {
        .readStep =
            [](JsonFields &fields, FederationTokenRequest &r) {
                const QJsonValue legacy = fields.value("legacy");
                if (!legacy.isUndefined() && !legacy.isNull() && !legacy.isBool())
                    fields.reject(
                        Error {ErrorKind::BadRequest, QStringLiteral("Field \"legacy\" must be a boolean")});
                r.legacy = legacy.toBool();
            },
        .writeStep =
            [](QJsonObject &o, const FederationTokenRequest &r) {
                if (r.legacy)
                    o.insert(QStringLiteral("legacy"), true);
            },
    },
    optional("host", &FederationTokenRequest::host).omitEmpty(),
};

constexpr auto federationJoinFields =
    std::tuple {required("url", &FederationJoinRequest::url).atMostBytes(4096)};

} // namespace

Result<FederationStatusAnswer> FederationStatusAnswer::fromJson(const QJsonObject &o)
{
    if (!o.value(QLatin1String("enabled")).isBool())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no boolean \"enabled\"")));
    FederationStatusAnswer a = readAnswer<FederationStatusAnswer>(o, federationStatusFields);
    a.raw = o;
    return a;
}

QJsonObject FederationTokenAnswer::toJson() const
{
    return ok ? writeFields(*this, federationTokenAnswerFields) : refusal(error);
}

Result<FederationTokenAnswer> FederationTokenAnswer::fromJson(const QJsonObject &o)
{
    FederationTokenAnswer a = readAnswer<FederationTokenAnswer>(o, federationTokenAnswerFields);
    a.error = text(o, "error");
    if (a.ok && !a.url.startsWith(QLatin1String("cpt://")))
        return std::unexpected(badAnswer(QStringLiteral("the answer has no cpt:// \"url\"")));
    return a;
}

QJsonObject FederationTokenRequest::toJson() const
{
    return writeFields(*this, federationTokenFields);
}

Result<FederationTokenRequest> FederationTokenRequest::fromJson(const QJsonObject &o)
{
    return readRequest<FederationTokenRequest>(o, federationTokenFields);
}

QJsonObject FederationJoinRequest::toJson() const
{
    return writeFields(*this, federationJoinFields);
}

Result<FederationJoinRequest> FederationJoinRequest::fromJson(const QJsonObject &o)
{
    return readRequest<FederationJoinRequest>(o, federationJoinFields);
}

// Written by hand: its errors are returned at once (a bad "subnets" wins over a bad "port",
// a port above 65535 over a bad "subnets"), an order a table does not say.
QJsonObject FederationInitRequest::toJson() const
{
    QJsonObject o;
    if (port)
        o.insert(QStringLiteral("port"), *port);
    if (!subnets.isEmpty())
        o.insert(QStringLiteral("subnets"), QJsonArray::fromStringList(subnets));
    return o;
}

Result<FederationInitRequest> FederationInitRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    FederationInitRequest r;
    r.port = fields.optionalInteger("port", 1);
    if (r.port && *r.port > 65535)
        return fail(ErrorKind::BadRequest, QStringLiteral("Field \"port\" must be 1-65535"));
    const QJsonValue subnets = fields.value("subnets");
    if (!subnets.isUndefined() && !subnets.isNull()) {
        r.subnets = onlyStrings(subnets);
        if (!subnets.isArray() || r.subnets.size() != subnets.toArray().size())
            return fail(ErrorKind::BadRequest,
                        QStringLiteral("Field \"subnets\" must be an array of strings"));
    }
    return checked(fields, std::move(r));
}

namespace {

constexpr auto pairingRequestFields = std::tuple {
    required("id", &FederationPendingAnswer::Request::id),
    required("host", &FederationPendingAnswer::Request::host),
    required("port", &FederationPendingAnswer::Request::port).digitsToo(),
    required("hostname", &FederationPendingAnswer::Request::hostname),
    required("fingerprint", &FederationPendingAnswer::Request::fingerprint),
    required("sas", &FederationPendingAnswer::Request::sas),
    required("received_at", &FederationPendingAnswer::Request::receivedAt),
    required("state", &FederationPendingAnswer::Request::state),
    required("origin", &FederationPendingAnswer::Request::origin),
};

constexpr auto pendingFields = std::tuple {
    required("ok", &FederationPendingAnswer::ok),
    nested("requests", &FederationPendingAnswer::requests, pairingRequestFields),
};

constexpr auto federationPairingFields =
    std::tuple {required("id", &FederationPairingRequest::id).atMostBytes(128)};

constexpr auto doctorCheckFields = std::tuple {
    required("name", &FederationDoctorAnswer::Check::name),
    required("status", &FederationDoctorAnswer::Check::status),
    required("detail", &FederationDoctorAnswer::Check::detail),
    optional("fix", &FederationDoctorAnswer::Check::fix).omitEmpty(),
};

constexpr auto doctorFields = std::tuple {
    required("ok", &FederationDoctorAnswer::ok),
    nested("checks", &FederationDoctorAnswer::checks, doctorCheckFields),
};

// {"ok":true, "<list>":[…]} or a refusal; read: a list is required unless the answer refuses.
template<typename Answer, typename Table>
Result<Answer> readListAnswer(const QJsonObject &o, const char *list, const Table &table)
{
    if (o.value(QLatin1String("ok")).toBool() && !o.value(QLatin1String(list)).isArray())
        return std::unexpected(
            badAnswer(QStringLiteral("the answer has no \"%1\" array").arg(QLatin1String(list))));
    Answer a = readAnswer<Answer>(o, table);
    a.error = text(o, "error");
    return a;
}

} // namespace

QJsonObject FederationPendingAnswer::toJson() const
{
    return ok ? writeFields(*this, pendingFields) : refusal(error);
}

Result<FederationPendingAnswer> FederationPendingAnswer::fromJson(const QJsonObject &o)
{
    auto a = readListAnswer<FederationPendingAnswer>(o, "requests", pendingFields);
    if (a)
        a->raw = o;
    return a;
}

QJsonObject FederationPairingRequest::toJson() const
{
    return writeFields(*this, federationPairingFields);
}

Result<FederationPairingRequest> FederationPairingRequest::fromJson(const QJsonObject &o)
{
    return readRequest<FederationPairingRequest>(o, federationPairingFields);
}

QJsonObject FederationDoctorAnswer::toJson() const
{
    return ok ? writeFields(*this, doctorFields) : refusal(error);
}

Result<FederationDoctorAnswer> FederationDoctorAnswer::fromJson(const QJsonObject &o)
{
    return readListAnswer<FederationDoctorAnswer>(o, "checks", doctorFields);
}

} // namespace Broker
