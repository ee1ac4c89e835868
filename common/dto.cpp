#include "common/dto.h"

#include <QCryptographicHash>

namespace Broker {

namespace {

QJsonValue nullable(const QString &value)
{
    return value.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(value);
}

Error badField(const char *name, const char *expected)
{
    return Error {
        ErrorKind::BadField,
        QStringLiteral("Field \"%1\" must be %2").arg(QLatin1String(name), QLatin1String(expected))};
}

} // namespace

QJsonObject Peer::toJson() const
{
    QJsonObject o {{QStringLiteral("id"), id},
                   {QStringLiteral("pid"), pid},
                   {QStringLiteral("cwd"), cwd},
                   {QStringLiteral("git_root"), nullable(gitRoot)},
                   {QStringLiteral("tty"), nullable(tty)},
                   {QStringLiteral("summary"), summary},
                   {QStringLiteral("registered_at"), registeredAt},
                   {QStringLiteral("last_seen"), lastSeen},
                   {QStringLiteral("session_name"), sessionName}};
    if (!isRemote()) {
        o.insert(QStringLiteral("channel_push"),
                 channelPush.isEmpty() ? QStringLiteral("unknown") : channelPush);
        o.insert(QStringLiteral("version"), version);
        if (!client.isEmpty()) // a field of ours: absent for peers that did not say
            o.insert(QStringLiteral("client"), client);
        if (attention != Attention::Unknown) { // ours too: absent until a hook reported
            o.insert(QStringLiteral("attention"), attentionName(attention));
            o.insert(QStringLiteral("attention_since"), attentionSince);
            if (!attentionMessage.isEmpty())
                o.insert(QStringLiteral("attention_message"), attentionMessage);
        }
        if (!delivery.isEmpty())
            o.insert(QStringLiteral("delivery"), delivery);
    }
    return o;
}

Result<Peer> Peer::fromJson(const QJsonObject &o)
{
    Peer p;
    const QJsonValue id = o.value(QStringLiteral("id"));
    if (!id.isString())
        return std::unexpected(badField("id", "a string"));
    p.id = id.toString();
    p.pid = o.value(QStringLiteral("pid")).toInteger();
    p.cwd = o.value(QStringLiteral("cwd")).toString();
    p.gitRoot = o.value(QStringLiteral("git_root")).toString();
    p.tty = o.value(QStringLiteral("tty")).toString();
    p.summary = o.value(QStringLiteral("summary")).toString();
    p.registeredAt = o.value(QStringLiteral("registered_at")).toString();
    p.lastSeen = o.value(QStringLiteral("last_seen")).toString();
    p.sessionName = o.value(QStringLiteral("session_name")).toString();
    p.channelPush = o.value(QStringLiteral("channel_push")).toString();
    p.version = o.value(QStringLiteral("version")).toString();
    p.client = o.value(QStringLiteral("client")).toString();
    // A state this version does not know (a newer broker's) reads as unknown.
    p.attention =
        attentionFromName(o.value(QStringLiteral("attention")).toString()).value_or(Attention::Unknown);
    if (p.attention != Attention::Unknown) {
        p.attentionSince = o.value(QStringLiteral("attention_since")).toString();
        p.attentionMessage = o.value(QStringLiteral("attention_message")).toString();
    }
    p.delivery = o.value(QStringLiteral("delivery")).toString();
    return p;
}

QString attentionName(Attention attention)
{
    switch (attention) {
    case Attention::NeedsYou:
        return QStringLiteral("needs-you");
    case Attention::Busy:
        return QStringLiteral("busy");
    case Attention::Idle:
        return QStringLiteral("idle");
    case Attention::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

std::optional<Attention> attentionFromName(const QString &name)
{
    for (Attention a : {Attention::NeedsYou, Attention::Busy, Attention::Idle, Attention::Unknown}) {
        if (name == attentionName(a))
            return a;
    }
    return std::nullopt;
}

QStringList attentionNames()
{
    return {attentionName(Attention::NeedsYou), attentionName(Attention::Busy),
            attentionName(Attention::Idle), attentionName(Attention::Unknown)};
}

QString clientLabel(const QString &clientName)
{
    const QString name = clientName.trimmed().toLower();
    if (name == QLatin1String("claude-code") || name == QLatin1String("claude code"))
        return QStringLiteral("Claude Code");
    if (name.startsWith(QLatin1String("opencode")))
        return QStringLiteral("OpenCode");
    return clientName.trimmed();
}

QString messageTypeName(MessageType type)
{
    switch (type) {
    case MessageType::Text:
        return QStringLiteral("text");
    case MessageType::Query:
        return QStringLiteral("query");
    case MessageType::Response:
        return QStringLiteral("response");
    case MessageType::Handoff:
        return QStringLiteral("handoff");
    case MessageType::Broadcast:
        return QStringLiteral("broadcast");
    }
    Q_UNREACHABLE();
}

std::optional<MessageType> messageTypeFromName(const QString &name)
{
    for (auto t : {MessageType::Text, MessageType::Query, MessageType::Response, MessageType::Handoff,
                   MessageType::Broadcast}) {
        if (messageTypeName(t) == name)
            return t;
    }
    return std::nullopt;
}

QString messageTypeList()
{
    return QStringLiteral("text, query, response, handoff, broadcast");
}

QJsonObject Message::toJson() const
{
    return QJsonObject {
        {QStringLiteral("id"), id},
        {QStringLiteral("from_id"), fromId},
        {QStringLiteral("to_id"), toId},
        {QStringLiteral("text"), text},
        {QStringLiteral("type"), type},
        {QStringLiteral("metadata"), metadata ? QJsonValue(*metadata) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("reply_to"), replyTo ? QJsonValue(*replyTo) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("sent_at"), sentAt},
        {QStringLiteral("delivered"), delivered ? 1 : 0}};
}

Result<Message> Message::fromJson(const QJsonObject &o)
{
    Message m;
    const QJsonValue id = o.value(QStringLiteral("id"));
    if (!id.isDouble())
        return std::unexpected(badField("id", "an integer"));
    m.id = id.toInteger();
    m.fromId = o.value(QStringLiteral("from_id")).toString();
    m.toId = o.value(QStringLiteral("to_id")).toString();
    m.text = o.value(QStringLiteral("text")).toString();
    m.type = o.value(QStringLiteral("type")).toString(QStringLiteral("text"));
    if (m.type.isEmpty())
        m.type = QStringLiteral("text");
    const QJsonValue meta = o.value(QStringLiteral("metadata"));
    if (meta.isObject())
        m.metadata = meta.toObject();
    const QJsonValue reply = o.value(QStringLiteral("reply_to"));
    if (reply.isDouble())
        m.replyTo = reply.toInteger();
    m.sentAt = o.value(QStringLiteral("sent_at")).toString();
    const QJsonValue delivered = o.value(QStringLiteral("delivered"));
    m.delivered = delivered.isBool() ? delivered.toBool() : delivered.toInt() != 0;
    return m;
}

QString peerIdForTty(const QString &tty)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(tty.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

QString peerIdWithoutTty(const QString &clientName, const QString &cwd)
{
    const QString client = clientName.isEmpty() ? QStringLiteral("mcp-client") : clientName;
    return peerIdForTty(QStringLiteral("client:%1:%2").arg(client, cwd));
}

namespace {

// Every element read with T::fromJson; the first that fails is the error.
template<typename T> Result<QList<T>> listFromJson(const QJsonArray &array)
{
    QList<T> list;
    list.reserve(array.size());
    for (const QJsonValue &v : array) {
        auto item = T::fromJson(v.toObject());
        if (!item)
            return std::unexpected(item.error());
        list.append(*item);
    }
    return list;
}

} // namespace

Result<QList<Peer>> peersFromJson(const QJsonArray &array)
{
    return listFromJson<Peer>(array);
}

Result<QList<Message>> messagesFromJson(const QJsonArray &array)
{
    return listFromJson<Message>(array);
}

} // namespace Broker
