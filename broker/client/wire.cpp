#include "wire.h"

#include "jsonfields.h"

#include <QJsonDocument>

namespace Broker {

namespace {

QJsonValue nullable(const QString &value)
{
    return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

void insertIfSet(QJsonObject &o, const char *key, const QString &value)
{
    if (!value.isEmpty())
        o.insert(QLatin1String(key), value);
}

void insertIfSet(QJsonObject &o, const char *key, const std::optional<qint64> &value)
{
    if (value)
        o.insert(QLatin1String(key), *value);
}

QJsonArray idsToJson(const QList<qint64> &ids)
{
    QJsonArray array;
    for (qint64 id : ids)
        array.append(id);
    return array;
}

// Answers are read leniently (a field that is missing reads as its default), so only a
// non-object or a list that is not a list fails.
std::optional<qint64> optionalNumber(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return std::nullopt;
    return v.toInteger();
}

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

} // namespace

// ---- OkAnswer ----

QJsonObject OkAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("ok"), ok}};
    if (!ok)
        o.insert(QStringLiteral("error"), error);
    return o;
}

Result<OkAnswer> OkAnswer::fromJson(const QJsonObject &o)
{
    return OkAnswer {o.value(QLatin1String("ok")).toBool(), o.value(QLatin1String("error")).toString()};
}

// ---- Peers ----

QJsonObject RegisterAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("id"), id},
                   {QStringLiteral("session_secret"), sessionSecret},
                   {QStringLiteral("database_id"), databaseId}};
    insertIfSet(o, "session_name", sessionName);
    return o;
}

Result<RegisterAnswer> RegisterAnswer::fromJson(const QJsonObject &o)
{
    RegisterAnswer a;
    a.id = o.value(QLatin1String("id")).toString();
    a.sessionName = o.value(QLatin1String("session_name")).toString();
    a.sessionSecret = o.value(QLatin1String("session_secret")).toString();
    a.databaseId = o.value(QLatin1String("database_id")).toString();
    return a;
}

QJsonObject RegisterRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("pid"), pid},
                   {QStringLiteral("cwd"), cwd},
                   {QStringLiteral("git_root"), nullable(gitRoot)},
                   {QStringLiteral("tty"), nullable(tty)},
                   {QStringLiteral("summary"), summary},
                   {QStringLiteral("version"), version}};
    insertIfSet(o, "session_name", sessionName);
    // Fields of ours (docs/protocol.md); a 0.7 broker ignores them.
    insertIfSet(o, "requested_id", requestedId);
    insertIfSet(o, "client", client);
    return o;
}

Result<RegisterRequest> RegisterRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    RegisterRequest r;
    r.pid = fields.integer("pid", 1);
    r.cwd = fields.string("cwd");
    r.gitRoot = fields.optionalString("git_root");
    r.tty = fields.optionalString("tty");
    r.sessionName = fields.optionalString("session_name");
    r.summary = fields.optionalString("summary");
    r.version = fields.optionalString("version");
    r.requestedId = fields.optionalString("requested_id");
    r.client = fields.optionalString("client").left(Wire::maxClientNameChars);
    fields.checkLength("session_name", r.sessionName, Wire::maxLabelBytes);
    fields.checkLength("summary", r.summary, Wire::maxLabelBytes);
    return checked(fields, std::move(r));
}

QJsonObject PeerIdBody::toJson() const
{
    return {{QStringLiteral("id"), id}};
}

Result<PeerIdBody> PeerIdBody::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    PeerIdBody r {fields.string("id")};
    return checked(fields, std::move(r));
}

QJsonObject SetSummaryRequest::toJson() const
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("summary"), summary}};
}

Result<SetSummaryRequest> SetSummaryRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SetSummaryRequest r;
    r.id = fields.string("id");
    r.summary = fields.string("summary");
    fields.checkLength("summary", r.summary, Wire::maxLabelBytes);
    return checked(fields, std::move(r));
}

QJsonObject SetNameRequest::toJson() const
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("session_name"), sessionName}};
}

Result<SetNameRequest> SetNameRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SetNameRequest r;
    r.id = fields.string("id");
    r.sessionName = fields.string("session_name");
    fields.checkLength("session_name", r.sessionName, Wire::maxLabelBytes);
    return checked(fields, std::move(r));
}

QJsonObject SetChannelPushRequest::toJson() const
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("status"), status}};
}

Result<SetChannelPushRequest> SetChannelPushRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SetChannelPushRequest r;
    r.id = fields.string("id");
    r.status = fields.string("status");
    return checked(fields, std::move(r));
}

QJsonObject SetAttentionRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("id"), id}, {QStringLiteral("state"), attentionName(state)}};
    insertIfSet(o, "message", message);
    return o;
}

Result<SetAttentionRequest> SetAttentionRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SetAttentionRequest r;
    r.id = fields.string("id");
    const QString state = fields.string("state");
    if (!fields.error())
        fields.checkOneOf("state", state, attentionNames());
    r.state = attentionFromName(state).value_or(Attention::Unknown);
    r.message = fields.optionalString("message");
    fields.checkLength("message", r.message, Wire::maxLabelBytes);
    return checked(fields, std::move(r));
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

QJsonObject ListPeersRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("scope"), scope},
                   {QStringLiteral("cwd"), cwd},
                   {QStringLiteral("git_root"), nullable(gitRoot)}};
    insertIfSet(o, "exclude_id", excludeId);
    return o;
}

Result<ListPeersRequest> ListPeersRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    ListPeersRequest r;
    r.scope = fields.optionalString("scope");
    r.cwd = fields.optionalString("cwd");
    r.gitRoot = fields.optionalString("git_root");
    r.excludeId = fields.optionalString("exclude_id");
    return checked(fields, std::move(r));
}

// ---- Messages ----

QJsonObject SendMessageAnswer::toJson() const
{
    if (!ok)
        return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
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
    a.error = o.value(QLatin1String("error")).toString();
    return a;
}

namespace {

// type and metadata of a send or broadcast: as given (the broker checks them after the fields).
void insertContent(QJsonObject &o, const std::optional<QString> &type, const QJsonValue &metadata)
{
    if (type)
        o.insert(QStringLiteral("type"), *type);
    if (!metadata.isNull() && !metadata.isUndefined())
        o.insert(QStringLiteral("metadata"), metadata);
}

std::optional<QString> typeField(JsonFields &fields)
{
    fields.optionalString("type"); // a string or null, checked with the other fields
    const QJsonValue type = fields.value("type");
    return type.isString() ? std::optional<QString>(type.toString()) : std::nullopt;
}

} // namespace

QJsonObject SendMessageRequest::toJson() const
{
    QJsonObject o {
        {QStringLiteral("from_id"), fromId}, {QStringLiteral("to_id"), toId}, {QStringLiteral("text"), text}};
    insertContent(o, type, metadata);
    insertIfSet(o, "reply_to", replyTo);
    return o;
}

Result<SendMessageRequest> SendMessageRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SendMessageRequest r;
    r.fromId = fields.string("from_id");
    r.toId = fields.string("to_id");
    r.text = fields.string("text");
    r.type = typeField(fields);
    r.replyTo = fields.optionalInteger("reply_to");
    r.metadata = fields.value("metadata");
    return checked(fields, std::move(r));
}

QJsonObject BroadcastAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("ok"), ok},
                   {QStringLiteral("recipients"), recipients},
                   {QStringLiteral("message_ids"), idsToJson(messageIds)}};
    if (!ok)
        o.insert(QStringLiteral("error"), error);
    return o;
}

Result<BroadcastAnswer> BroadcastAnswer::fromJson(const QJsonObject &o)
{
    BroadcastAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.recipients = o.value(QLatin1String("recipients")).toInteger();
    for (const QJsonValue &id : o.value(QLatin1String("message_ids")).toArray())
        a.messageIds.append(id.toInteger());
    a.error = o.value(QLatin1String("error")).toString();
    return a;
}

QJsonObject BroadcastRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("from_id"), fromId},
                   {QStringLiteral("text"), text},
                   {QStringLiteral("scope"), scope},
                   {QStringLiteral("cwd"), cwd},
                   {QStringLiteral("git_root"), nullable(gitRoot)}};
    insertContent(o, type, metadata);
    return o;
}

Result<BroadcastRequest> BroadcastRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    BroadcastRequest r;
    r.fromId = fields.string("from_id");
    r.text = fields.string("text");
    r.type = typeField(fields);
    r.scope = fields.optionalString("scope");
    r.cwd = fields.optionalString("cwd");
    r.gitRoot = fields.optionalString("git_root");
    r.metadata = fields.value("metadata");
    return checked(fields, std::move(r));
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

QJsonObject AckMessagesRequest::toJson() const
{
    return {{QStringLiteral("id"), id}, {QStringLiteral("message_ids"), idsToJson(messageIds)}};
}

Result<AckMessagesRequest> AckMessagesRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    AckMessagesRequest r;
    r.id = fields.string("id");
    r.messageIds = fields.integerList("message_ids");
    return checked(fields, std::move(r));
}

QJsonObject WaitMessagesRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("id"), id}, {QStringLiteral("ack"), idsToJson(ack)}};
    insertIfSet(o, "timeout_ms", timeoutMs);
    insertIfSet(o, "after_id", afterId);
    return o;
}

Result<WaitMessagesRequest> WaitMessagesRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    WaitMessagesRequest r;
    r.id = fields.string("id");
    r.ack = fields.optionalIntegerList("ack");
    r.timeoutMs = fields.optionalInteger("timeout_ms");
    r.afterId = fields.optionalInteger("after_id");
    return checked(fields, std::move(r));
}

QJsonObject MessageStatusAnswer::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("from_id"), fromId},
            {QStringLiteral("to_id"), toId},
            {QStringLiteral("delivered"), delivered},
            {QStringLiteral("sent_at"), sentAt}};
}

Result<MessageStatusAnswer> MessageStatusAnswer::fromJson(const QJsonObject &o)
{
    MessageStatusAnswer a;
    a.id = o.value(QLatin1String("id")).toInteger();
    a.fromId = o.value(QLatin1String("from_id")).toString();
    a.toId = o.value(QLatin1String("to_id")).toString();
    const QJsonValue delivered = o.value(QLatin1String("delivered"));
    a.delivered = delivered.isBool() ? delivered.toBool() : delivered.toInt() != 0;
    a.sentAt = o.value(QLatin1String("sent_at")).toString();
    return a;
}

QJsonObject MessageStatusRequest::toJson() const
{
    return {{QStringLiteral("message_id"), messageId}};
}

Result<MessageStatusRequest> MessageStatusRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    MessageStatusRequest r {fields.integer("message_id")};
    return checked(fields, std::move(r));
}

QJsonObject HistoryRequest::toJson() const
{
    QJsonObject o;
    insertIfSet(o, "from", from);
    insertIfSet(o, "to", to);
    insertIfSet(o, "since", since);
    insertIfSet(o, "search", search);
    insertIfSet(o, "limit", limit);
    insertIfSet(o, "before_id", beforeId);
    insertIfSet(o, "after_id", afterId);
    if (ascending)
        o.insert(QStringLiteral("order"), QStringLiteral("asc"));
    insertIfSet(o, "peer", peer);
    insertIfSet(o, "with", with);
    if (!ids.isEmpty())
        o.insert(QStringLiteral("ids"), idsToJson(ids));
    return o;
}

Result<HistoryRequest> HistoryRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    HistoryRequest r;
    r.from = fields.optionalString("from");
    r.to = fields.optionalString("to");
    r.since = fields.optionalString("since");
    r.search = fields.optionalString("search");
    r.limit = fields.optionalInteger("limit");
    r.beforeId = fields.optionalInteger("before_id", 0);
    r.afterId = fields.optionalInteger("after_id", 0);
    const QString order = fields.optionalString("order", QStringLiteral("desc"));
    fields.checkOneOf("order", order, {QStringLiteral("desc"), QStringLiteral("asc")});
    r.ascending = order == QLatin1String("asc");
    r.peer = fields.optionalString("peer");
    r.with = fields.optionalString("with");
    fields.check(r.with.isEmpty() || !r.peer.isEmpty(), "with",
                 QStringLiteral("given together with \"peer\" (the thread between two peers)"));
    for (const auto &[name, value] :
         {std::pair {"from", &r.from}, std::pair {"to", &r.to}, std::pair {"search", &r.search},
          std::pair {"peer", &r.peer}, std::pair {"with", &r.with}})
        fields.checkLength(name, *value, maxFilterBytes);
    if (fields.present("ids")) {
        const QJsonValue ids = fields.value("ids");
        fields.check(!ids.isArray() || ids.toArray().size() <= maxIds, "ids",
                     QStringLiteral("a list of at most %1 integers").arg(maxIds));
        if (!fields.error())
            r.ids = fields.integerList("ids");
    }
    return checked(fields, std::move(r));
}

// ---- Broker ----

QJsonObject HealthAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("status"), status}, {QStringLiteral("peers"), peers}};
    insertIfSet(o, "uptime_ms", uptimeMs);
    insertIfSet(o, "requests_last_minute", requestsLastMinute);
    insertIfSet(o, "pending_messages", pendingMessages);
    insertIfSet(o, "pid", pid);
    insertIfSet(o, "version", version);
    insertIfSet(o, "database_id", databaseId);
    if (capabilities)
        o.insert(QStringLiteral("capabilities"), QJsonArray::fromStringList(*capabilities));
    return o;
}

Result<HealthAnswer> HealthAnswer::fromJson(const QJsonObject &o)
{
    HealthAnswer a;
    a.status = o.value(QLatin1String("status")).toString();
    a.peers = o.value(QLatin1String("peers")).toInteger();
    a.uptimeMs = optionalNumber(o, "uptime_ms");
    a.requestsLastMinute = optionalNumber(o, "requests_last_minute");
    a.pendingMessages = optionalNumber(o, "pending_messages");
    a.pid = optionalNumber(o, "pid");
    a.version = o.value(QLatin1String("version")).toString();
    a.databaseId = o.value(QLatin1String("database_id")).toString();
    if (const QJsonValue caps = o.value(QLatin1String("capabilities")); caps.isArray()) {
        QStringList names;
        for (const QJsonValue &name : caps.toArray())
            names.append(name.toString());
        a.capabilities = names;
    }
    return a;
}

QJsonObject MetricsAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("uptime_seconds"), uptimeSeconds},
                   {QStringLiteral("peer_count"), peerCount},
                   {QStringLiteral("messages"),
                    QJsonObject {{QStringLiteral("total"), messages.total},
                                 {QStringLiteral("delivered"), messages.delivered},
                                 {QStringLiteral("pending"), messages.pending},
                                 {QStringLiteral("delivery_rate_pct"), messages.deliveryRatePct}}},
                   {QStringLiteral("requests_per_minute"), requestsPerMinute},
                   {QStringLiteral("federation"),
                    QJsonObject {{QStringLiteral("enabled"), federation.enabled},
                                 {QStringLiteral("remote_count"), federation.remoteCount},
                                 {QStringLiteral("remote_peer_count"), federation.remotePeerCount}}}};
    if (peers) {
        QJsonArray list;
        for (const PeerRow &p : *peers)
            list.append(QJsonObject {{QStringLiteral("id"), p.id},
                                     {QStringLiteral("name"), p.name},
                                     {QStringLiteral("cwd"), p.cwd},
                                     {QStringLiteral("channel_push"), p.channelPush},
                                     {QStringLiteral("registered_at"), p.registeredAt},
                                     {QStringLiteral("last_seen"), p.lastSeen}});
        o.insert(QStringLiteral("peers"), list);
    }
    return o;
}

Result<MetricsAnswer> MetricsAnswer::fromJson(const QJsonObject &o)
{
    MetricsAnswer a;
    a.uptimeSeconds = o.value(QLatin1String("uptime_seconds")).toInteger();
    a.peerCount = o.value(QLatin1String("peer_count")).toInteger();
    const QJsonObject m = o.value(QLatin1String("messages")).toObject();
    a.messages.total = m.value(QLatin1String("total")).toInteger();
    a.messages.delivered = m.value(QLatin1String("delivered")).toInteger();
    a.messages.pending = m.value(QLatin1String("pending")).toInteger();
    a.messages.deliveryRatePct = m.value(QLatin1String("delivery_rate_pct")).toDouble(100.0);
    a.requestsPerMinute = o.value(QLatin1String("requests_per_minute")).toInteger();
    const QJsonObject f = o.value(QLatin1String("federation")).toObject();
    a.federation.enabled = f.value(QLatin1String("enabled")).toBool();
    a.federation.remoteCount = f.value(QLatin1String("remote_count")).toInteger();
    a.federation.remotePeerCount = f.value(QLatin1String("remote_peer_count")).toInteger();
    if (const QJsonValue peers = o.value(QLatin1String("peers")); peers.isArray()) {
        QList<PeerRow> rows;
        for (const QJsonValue &v : peers.toArray()) {
            const QJsonObject p = v.toObject();
            rows.append(PeerRow {
                p.value(QLatin1String("id")).toString(), p.value(QLatin1String("name")).toString(),
                p.value(QLatin1String("cwd")).toString(), p.value(QLatin1String("channel_push")).toString(),
                p.value(QLatin1String("registered_at")).toString(),
                p.value(QLatin1String("last_seen")).toString()});
        }
        a.peers = rows;
    }
    return a;
}

QJsonObject ShutdownAnswer::toJson() const
{
    return {{QStringLiteral("ok"), ok}, {QStringLiteral("pid"), pid}};
}

Result<ShutdownAnswer> ShutdownAnswer::fromJson(const QJsonObject &o)
{
    return ShutdownAnswer {o.value(QLatin1String("ok")).toBool(), o.value(QLatin1String("pid")).toInteger()};
}

QJsonObject ReloadAnswer::toJson() const
{
    QJsonObject o {{QStringLiteral("ok"), ok}};
    insertIfSet(o, "peers", peers);
    return o;
}

Result<ReloadAnswer> ReloadAnswer::fromJson(const QJsonObject &o)
{
    return ReloadAnswer {o.value(QLatin1String("ok")).toBool(), optionalNumber(o, "peers")};
}

QJsonObject SecretsAnswer::toJson() const
{
    QJsonObject token {{QStringLiteral("store"), localToken.store},
                       {QStringLiteral("where"), localToken.where},
                       {QStringLiteral("token_file"), localToken.tokenFile}};
    insertIfSet(token, "note", localToken.note);
    QJsonObject o {{QStringLiteral("local_token"), token}};
    if (ok)
        o.insert(QStringLiteral("ok"), *ok);
    return o;
}

Result<SecretsAnswer> SecretsAnswer::fromJson(const QJsonObject &o)
{
    const QJsonValue token = o.value(QLatin1String("local_token"));
    if (!token.isObject())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no \"local_token\" object")));
    const QJsonObject t = token.toObject();
    SecretsAnswer a;
    if (const QJsonValue ok = o.value(QLatin1String("ok")); ok.isBool())
        a.ok = ok.toBool();
    a.localToken.store = t.value(QLatin1String("store")).toString();
    a.localToken.where = t.value(QLatin1String("where")).toString();
    a.localToken.tokenFile = t.value(QLatin1String("token_file")).toString();
    a.localToken.note = t.value(QLatin1String("note")).toString();
    return a;
}

// ---- Federation ----

QJsonObject FederationAnswer::toJson() const
{
    if (!ok)
        return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
    QJsonObject o = details;
    o.insert(QStringLiteral("ok"), true);
    return o;
}

Result<FederationAnswer> FederationAnswer::fromJson(const QJsonObject &o)
{
    FederationAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.error = o.value(QLatin1String("error")).toString();
    a.details = o;
    a.details.remove(QLatin1String("ok"));
    a.details.remove(QLatin1String("error"));
    return a;
}

QJsonObject FederationRemoteRequest::toJson() const
{
    return {{QStringLiteral("host"), host}, {QStringLiteral("port"), port}};
}

Result<FederationRemoteRequest> FederationRemoteRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    FederationRemoteRequest r;
    r.host = fields.string("host");
    r.port = fields.integer("port", 1);
    return checked(fields, std::move(r));
}

QJsonObject SendToRemoteRequest::toJson() const
{
    QJsonObject o {{QStringLiteral("to_id"), toId},
                   {QStringLiteral("from_id"), fromId},
                   {QStringLiteral("text"), text},
                   {QStringLiteral("type"), type}};
    if (metadata)
        o.insert(QStringLiteral("metadata"), *metadata);
    insertIfSet(o, "reply_to", replyTo);
    return o;
}

Result<SendToRemoteRequest> SendToRemoteRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    SendToRemoteRequest r;
    r.toId = fields.string("to_id");
    r.fromId = fields.string("from_id");
    r.text = fields.string("text");
    r.type = fields.optionalString("type", QStringLiteral("text"));
    r.replyTo = fields.optionalInteger("reply_to");
    if (fields.error())
        return std::unexpected(*fields.error());
    const QJsonValue metadata = fields.value("metadata");
    if (metadata.isObject())
        r.metadata = metadata.toObject();
    else if (!metadata.isUndefined() && !metadata.isNull())
        return fail(ErrorKind::Rejected, QStringLiteral("metadata must be a JSON object"));
    return r;
}

namespace {

QString text(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &v : value.toArray()) {
        if (v.isString())
            list << v.toString();
    }
    return list;
}

qint64 number(const QJsonObject &o, const char *key, qint64 fallback = 0)
{
    return integerValue(o.value(QLatin1String(key))).value_or(fallback);
}

} // namespace

Result<FederationStatusAnswer> FederationStatusAnswer::fromJson(const QJsonObject &o)
{
    if (!o.value(QLatin1String("enabled")).isBool())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no boolean \"enabled\"")));
    FederationStatusAnswer a;
    a.raw = o;
    a.enabled = o.value(QLatin1String("enabled")).toBool();
    a.port = number(o, "port", 7900);
    a.subnet = text(o, "subnet");
    a.subnets = strings(o.value(QLatin1String("subnets")));
    if (a.subnets.isEmpty() && !a.subnet.isEmpty())
        a.subnets << a.subnet;
    for (const QJsonValue &v : o.value(QLatin1String("remotes")).toArray()) {
        const QJsonObject r = v.toObject();
        a.remotes.append({text(r, "host"), number(r, "port"), text(r, "hostname"), number(r, "peer_count"),
                          text(r, "connected_at"), text(r, "last_sync"), text(r, "state"),
                          text(r, "fingerprint"), r.value(QLatin1String("legacy")).toBool()});
    }
    a.totalRemotePeers = number(o, "total_remote_peers");
    a.hostname = text(o, "hostname");
    a.fingerprint = text(o, "fingerprint");
    a.pskSource = text(o, "psk_source");
    if (const QJsonValue legacy = o.value(QLatin1String("accept_legacy")); legacy.isBool())
        a.acceptLegacy = legacy.toBool();
    a.warnings = strings(o.value(QLatin1String("warnings")));
    a.pending = number(o, "pending");
    return a;
}

QJsonObject FederationTokenAnswer::toJson() const
{
    if (!ok)
        return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
    QJsonObject o {
        {QStringLiteral("ok"), true}, {QStringLiteral("url"), url}, {QStringLiteral("port"), port}};
    insertIfSet(o, "host", host);
    insertIfSet(o, "hostname", hostname);
    insertIfSet(o, "fingerprint", fingerprint);
    return o;
}

Result<FederationTokenAnswer> FederationTokenAnswer::fromJson(const QJsonObject &o)
{
    FederationTokenAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.error = text(o, "error");
    a.url = text(o, "url");
    a.host = text(o, "host");
    a.port = number(o, "port");
    a.hostname = text(o, "hostname");
    a.fingerprint = text(o, "fingerprint");
    if (a.ok && !a.url.startsWith(QLatin1String("cpt://")))
        return std::unexpected(badAnswer(QStringLiteral("the answer has no cpt:// \"url\"")));
    return a;
}

QJsonObject FederationTokenRequest::toJson() const
{
    QJsonObject o;
    insertIfSet(o, "host", host);
    if (legacy)
        o.insert(QStringLiteral("legacy"), true);
    return o;
}

Result<FederationTokenRequest> FederationTokenRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    FederationTokenRequest r;
    r.host = fields.optionalString("host");
    const QJsonValue legacy = fields.value("legacy");
    if (!legacy.isUndefined() && !legacy.isNull() && !legacy.isBool())
        return fail(ErrorKind::BadRequest, QStringLiteral("Field \"legacy\" must be a boolean"));
    r.legacy = legacy.toBool();
    return checked(fields, std::move(r));
}

QJsonObject FederationJoinRequest::toJson() const
{
    return {{QStringLiteral("url"), url}};
}

Result<FederationJoinRequest> FederationJoinRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    FederationJoinRequest r;
    r.url = fields.string("url");
    fields.checkLength("url", r.url, 4096);
    return checked(fields, std::move(r));
}

QJsonObject FederationInitRequest::toJson() const
{
    QJsonObject o;
    insertIfSet(o, "port", port);
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
        if (!subnets.isArray() || strings(subnets).size() != subnets.toArray().size())
            return fail(ErrorKind::BadRequest,
                        QStringLiteral("Field \"subnets\" must be an array of strings"));
        r.subnets = strings(subnets);
    }
    return checked(fields, std::move(r));
}

QJsonObject FederationPendingAnswer::toJson() const
{
    if (!ok)
        return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
    QJsonArray list;
    for (const Request &r : requests) {
        list.append(QJsonObject {{QStringLiteral("id"), r.id},
                                 {QStringLiteral("host"), r.host},
                                 {QStringLiteral("port"), r.port},
                                 {QStringLiteral("hostname"), r.hostname},
                                 {QStringLiteral("fingerprint"), r.fingerprint},
                                 {QStringLiteral("sas"), r.sas},
                                 {QStringLiteral("received_at"), r.receivedAt},
                                 {QStringLiteral("state"), r.state},
                                 {QStringLiteral("origin"), r.origin}});
    }
    return {{QStringLiteral("ok"), true}, {QStringLiteral("requests"), list}};
}

Result<FederationPendingAnswer> FederationPendingAnswer::fromJson(const QJsonObject &o)
{
    FederationPendingAnswer a;
    a.raw = o;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.error = text(o, "error");
    if (a.ok && !o.value(QLatin1String("requests")).isArray())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no \"requests\" array")));
    for (const QJsonValue &v : o.value(QLatin1String("requests")).toArray()) {
        const QJsonObject r = v.toObject();
        a.requests.append({text(r, "id"), text(r, "host"), number(r, "port"), text(r, "hostname"),
                           text(r, "fingerprint"), text(r, "sas"), text(r, "received_at"), text(r, "state"),
                           text(r, "origin")});
    }
    return a;
}

QJsonObject FederationPairingRequest::toJson() const
{
    return {{QStringLiteral("id"), id}};
}

Result<FederationPairingRequest> FederationPairingRequest::fromJson(const QJsonObject &o)
{
    JsonFields fields(o);
    FederationPairingRequest r;
    r.id = fields.string("id");
    fields.checkLength("id", r.id, 128);
    return checked(fields, std::move(r));
}

QJsonObject FederationDoctorAnswer::toJson() const
{
    if (!ok)
        return {{QStringLiteral("ok"), false}, {QStringLiteral("error"), error}};
    QJsonArray list;
    for (const Check &c : checks) {
        QJsonObject o {{QStringLiteral("name"), c.name},
                       {QStringLiteral("status"), c.status},
                       {QStringLiteral("detail"), c.detail}};
        insertIfSet(o, "fix", c.fix);
        list.append(o);
    }
    return {{QStringLiteral("ok"), true}, {QStringLiteral("checks"), list}};
}

Result<FederationDoctorAnswer> FederationDoctorAnswer::fromJson(const QJsonObject &o)
{
    FederationDoctorAnswer a;
    a.ok = o.value(QLatin1String("ok")).toBool();
    a.error = text(o, "error");
    if (a.ok && !o.value(QLatin1String("checks")).isArray())
        return std::unexpected(badAnswer(QStringLiteral("the answer has no \"checks\" array")));
    for (const QJsonValue &v : o.value(QLatin1String("checks")).toArray()) {
        const QJsonObject c = v.toObject();
        a.checks.append({text(c, "name"), text(c, "status"), text(c, "detail"), text(c, "fix")});
    }
    return a;
}

} // namespace Broker
