#include "messagingtools.h"

#include "brokerclient.h"
#include "delivery.h"
#include "format.h"
#include "logging.h"
#include "peerarguments.h"
#include "session.h"

namespace Mcp {

using namespace PeerArguments;

SendMessageTool::SendMessageTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::sendMessage, Needs::Registration, deps)
{
}

void SendMessageTool::run(const QJsonObject &args, const ToolContext &, const ToolReply &reply)
{
    const QJsonValue to = args.value(QLatin1String("to_id"));
    const QJsonValue message = args.value(QLatin1String("message"));
    if (to.isUndefined() || to.isNull() || message.isUndefined() || message.isNull() ||
        (to.isString() && to.toString().isEmpty()) || (message.isString() && message.toString().isEmpty())) {
        reply.error(QStringLiteral("Missing required parameter: to_id and message are required"));
        return;
    }
    if (!to.isString() || !message.isString()) {
        reply.error(QStringLiteral("Invalid parameter: to_id and message must be strings"));
        return;
    }
    const QString toId = to.toString().trimmed();
    const QString text = message.toString();
    QJsonObject body {{QStringLiteral("from_id"), session().peerId()},
                      {QStringLiteral("to_id"), toId},
                      {QStringLiteral("text"), text}};
    const QJsonValue type = args.value(QLatin1String("type"));
    if (!type.isUndefined() && !type.isNull()) {
        if (!type.isString()) {
            reply.error(QStringLiteral(
                "Invalid parameter: type must be one of text, query, response, handoff, broadcast"));
            return;
        }
        body.insert(QStringLiteral("type"), type.toString()); // the broker checks the value
    }
    const QJsonValue metadata = args.value(QLatin1String("metadata"));
    if (!metadata.isUndefined() && !metadata.isNull()) {
        if (!metadata.isObject()) {
            reply.error(QStringLiteral("Failed to send: metadata must be a JSON object"));
            return;
        }
        body.insert(QStringLiteral("metadata"), metadata);
    }
    const QJsonValue replyTo = args.value(QLatin1String("reply_to"));
    if (!replyTo.isUndefined() && !replyTo.isNull()) {
        const auto id = messageId(replyTo);
        if (!id) {
            reply.error(QStringLiteral("Invalid parameter: reply_to must be a message id (an integer)"));
            return;
        }
        body.insert(QStringLiteral("reply_to"), *id);
    }
    const bool remote = toId.contains(QLatin1Char(':'));
    const QString path =
        remote ? QStringLiteral("/federation/send-to-remote") : QStringLiteral("/send-message");
    broker().post(path, body, [this, reply, toId, text, remote](Broker::Result<QJsonValue> r) {
        if (!r) {
            if (r.error().code == QLatin1String("unreachable"))
                session().reportTrouble(Session::Trouble::Unreachable, r.error().message);
            reply.error(QStringLiteral("Error sending message: ") + r.error().message);
            return;
        }
        const QJsonObject answer = r->toObject();
        if (!answer.value(QLatin1String("ok")).toBool()) {
            reply.error(QStringLiteral("Failed to send: ") + answer.value(QLatin1String("error")).toString());
            return;
        }
        const qint64 id = remote ? -1 : answer.value(QLatin1String("message_id")).toInteger();
        qCInfo(lcTools) << "sent message" << id << "to" << toId;
        reply.text(Format::messageSent(toId, id, text));
    });
}

BroadcastMessageTool::BroadcastMessageTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::broadcastMessage, Needs::Registration, deps)
{
}

void BroadcastMessageTool::run(const QJsonObject &args, const ToolContext &, const ToolReply &reply)
{
    const QJsonValue message = args.value(QLatin1String("message"));
    const QJsonValue scope = args.value(QLatin1String("scope"));
    if (!message.isString() || message.toString().isEmpty() || !scope.isString() ||
        scope.toString().isEmpty()) {
        reply.error(QStringLiteral("Missing required parameter: message and scope are required"));
        return;
    }
    const QString scopeName = scope.toString();
    if (!isScope(scopeName)) {
        reply.error(QStringLiteral("Broadcast failed: ") + scopeError(scopeName));
        return;
    }
    const QJsonObject body {{QStringLiteral("from_id"), session().peerId()},
                            {QStringLiteral("text"), message.toString()},
                            {QStringLiteral("type"), QStringLiteral("broadcast")},
                            {QStringLiteral("scope"), scopeName},
                            {QStringLiteral("cwd"), session().cwd()},
                            {QStringLiteral("git_root"), nullIfEmpty(session().gitRoot())}};
    broker().post(QStringLiteral("/broadcast"), body, [reply, scopeName](Broker::Result<QJsonValue> r) {
        if (!r) {
            reply.error(QStringLiteral("Error broadcasting: ") + r.error().message);
            return;
        }
        const QJsonObject answer = r->toObject();
        if (!answer.value(QLatin1String("ok")).toBool()) {
            reply.error(QStringLiteral("Broadcast failed: ") +
                        answer.value(QLatin1String("error")).toString());
            return;
        }
        const qint64 n = answer.value(QLatin1String("recipients")).toInteger();
        if (n == 0)
            reply.text(QStringLiteral("No peers found in scope '%1'. Broadcast not sent.").arg(scopeName));
        else
            reply.text(QStringLiteral("Broadcast sent to %1 peer(s) in scope '%2'").arg(n).arg(scopeName));
    });
}

CheckMessagesTool::CheckMessagesTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::checkMessages, Needs::Registration, deps)
{
}

void CheckMessagesTool::run(const QJsonObject &, const ToolContext &, const ToolReply &reply)
{
    delivery().checkMessages([reply](Broker::Result<QString> r) {
        if (!r)
            reply.error(QStringLiteral("Error checking messages: ") + r.error().message);
        else
            reply.text(*r);
    });
}

MessageStatusTool::MessageStatusTool(const PeerToolDeps &deps)
    : PeerTool(ToolDefinitions::messageStatus, Needs::Registration, deps)
{
}

void MessageStatusTool::run(const QJsonObject &args, const ToolContext &, const ToolReply &reply)
{
    const QJsonValue raw = args.value(QLatin1String("message_id"));
    if (raw.isUndefined() || raw.isNull()) {
        reply.error(QStringLiteral("Missing required parameter: message_id"));
        return;
    }
    const auto id = messageId(raw);
    if (!id) {
        reply.error(QStringLiteral("Invalid parameter: message_id must be a message id (an integer)"));
        return;
    }
    broker().post(QStringLiteral("/message-status"), QJsonObject {{QStringLiteral("message_id"), *id}},
                  [reply](Broker::Result<QJsonValue> r) {
                      if (!r)
                          reply.error(QStringLiteral("Error checking status: ") + r.error().message);
                      else
                          reply.text(Format::messageStatus(r->toObject()));
                  });
}

} // namespace Mcp
