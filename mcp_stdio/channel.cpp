#include "mcp_stdio/channel.h"

#include "mcp_stdio/jsonrpc.h"

#include <QJsonDocument>

namespace Mcp::Channel {

QString sanitizeMetaKey(const QString &key)
{
    if (key.isEmpty())
        return QStringLiteral("_");
    QString out = key;
    for (QChar &c : out) {
        const char16_t u = c.unicode();
        const bool ok =
            (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '_';
        if (!ok)
            c = QLatin1Char('_');
    }
    return out;
}

namespace {

void put(QJsonObject &meta, const char *key, const QString &value)
{
    meta.insert(sanitizeMetaKey(QLatin1String(key)), value);
}

} // namespace

QJsonObject params(const Broker::Message &message, const Sender &sender)
{
    QJsonObject meta;
    put(meta, "from_id", message.fromId);
    put(meta, "from_name", sender.name);
    put(meta, "from_summary", sender.summary);
    put(meta, "from_cwd", sender.cwd);
    put(meta, "type", message.type.isEmpty() ? QStringLiteral("text") : message.type);
    put(meta, "message_id", QString::number(message.id));
    if (!message.sentAt.isEmpty())
        put(meta, "sent_at", message.sentAt);
    if (message.replyTo && *message.replyTo != 0)
        put(meta, "reply_to", QString::number(*message.replyTo));
    if (message.metadata)
        put(meta, "metadata_json",
            QString::fromUtf8(QJsonDocument(*message.metadata).toJson(QJsonDocument::Compact)));
    return QJsonObject {{QStringLiteral("content"), message.text}, {QStringLiteral("meta"), meta}};
}

QJsonObject notification(const Broker::Message &message, const Sender &sender)
{
    return JsonRpc::notification(QLatin1String(Method), params(message, sender));
}

QJsonObject helloNotification()
{
    const QJsonObject meta {{QStringLiteral("from_id"), QStringLiteral("system")},
                            {QStringLiteral("from_name"), QStringLiteral("claude-peers")},
                            {QStringLiteral("from_summary"), QString()},
                            {QStringLiteral("from_cwd"), QString()},
                            {QStringLiteral("type"), QStringLiteral("text")},
                            {QStringLiteral("message_id"), QStringLiteral("startup-hello")}};
    return JsonRpc::notification(
        QLatin1String(Method),
        QJsonObject {{QStringLiteral("content"),
                      QStringLiteral("claude-peers MCP server connected. Channel push active.")},
                     {QStringLiteral("meta"), meta}});
}

} // namespace Mcp::Channel
