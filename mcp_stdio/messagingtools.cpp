#include "mcp_stdio/messagingtools.h"

#include "common/brokerapi.h"
#include "mcp_stdio/delivery.h"
#include "mcp_stdio/format.h"
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/peerarguments.h"
#include "mcp_stdio/session.h"

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
    std::optional<QString> messageType;
    const QJsonValue type = args.value(QLatin1String("type"));
    if (!type.isUndefined() && !type.isNull()) {
        if (!type.isString()) {
            reply.error(QStringLiteral(
                "Invalid parameter: type must be one of text, query, response, handoff, broadcast"));
            return;
        }
        messageType = type.toString(); // the broker checks the value
    }
    const QJsonValue metadata = args.value(QLatin1String("metadata"));
    if (!metadata.isUndefined() && !metadata.isNull() && !metadata.isObject()) {
        reply.error(QStringLiteral("Failed to send: metadata must be a JSON object"));
        return;
    }
    std::optional<qint64> replyTo;
    const QJsonValue replyToValue = args.value(QLatin1String("reply_to"));
    if (!replyToValue.isUndefined() && !replyToValue.isNull()) {
        replyTo = messageId(replyToValue);
        if (!replyTo) {
            reply.error(QStringLiteral("Invalid parameter: reply_to must be a message id (an integer)"));
            return;
        }
    }
    // Whatever went wrong on the way: the broker being gone is also the session's trouble.
    const auto failed = [this, reply](const Broker::Error &error) {
        if (error.kind == Broker::ErrorKind::Unreachable)
            session().reportTrouble(Session::Trouble::Unreachable, error.message);
        reply.error(QStringLiteral("Error sending message: ") + error.message);
    };
    if (toId.contains(QLatin1Char(':'))) { // hostname:peer_id, through federation
        Broker::SendToRemoteRequest request;
        request.toId = toId;
        request.fromId = session().peerId();
        request.text = text;
        if (messageType)
            request.type = *messageType;
        if (metadata.isObject())
            request.metadata = metadata.toObject();
        request.replyTo = replyTo;
        broker().call(request, [reply, failed, toId, text](Broker::Result<Broker::FederationAnswer> r) {
            if (!r)
                failed(r.error());
            else if (!r->ok)
                reply.error(QStringLiteral("Failed to send: ") + r->error);
            else
                reply.text(Format::messageSent(toId, -1, text));
        });
        return;
    }
    const Broker::SendMessageRequest request {session().peerId(), toId, text, messageType, metadata, replyTo};
    broker().call(request, [reply, failed, toId, text](Broker::Result<Broker::SendMessageAnswer> r) {
        if (!r) {
            failed(r.error());
            return;
        }
        if (!r->ok) {
            reply.error(QStringLiteral("Failed to send: ") + r->error);
            return;
        }
        qCInfo(lcTools) << "sent message" << r->messageId << "to" << toId;
        reply.text(Format::messageSent(toId, r->messageId, text));
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
    Broker::BroadcastRequest request;
    request.fromId = session().peerId();
    request.text = message.toString();
    request.type = QStringLiteral("broadcast");
    request.scope = scopeName;
    request.cwd = session().cwd();
    request.gitRoot = session().gitRoot();
    broker().call(request, [reply, scopeName](Broker::Result<Broker::BroadcastAnswer> r) {
        if (!r) {
            reply.error(QStringLiteral("Error broadcasting: ") + r.error().message);
            return;
        }
        if (!r->ok) {
            reply.error(QStringLiteral("Broadcast failed: ") + r->error);
            return;
        }
        if (r->recipients == 0)
            reply.text(QStringLiteral("No peers found in scope '%1'. Broadcast not sent.").arg(scopeName));
        else
            reply.text(QStringLiteral("Broadcast sent to %1 peer(s) in scope '%2'")
                           .arg(r->recipients)
                           .arg(scopeName));
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
    broker().call(Broker::MessageStatusRequest {*id}, [reply](Broker::Result<Broker::MessageStatusAnswer> r) {
        if (!r)
            reply.error(QStringLiteral("Error checking status: ") + r.error().message);
        else
            reply.text(Format::messageStatus(*r));
    });
}

} // namespace Mcp
