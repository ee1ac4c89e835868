// Api handlers for messages: send, broadcast, poll, ack, status, the /wait-messages push
// stream and the /messages history.
#include "broker/internal/api.h"
#include "broker/internal/deliveryhub.h"
#include "broker/internal/messagejson.h"
#include "broker/internal/service.h"
#include "broker/internal/store.h"
#include "common/wire.h"

#include <algorithm>

namespace Broker {

void Api::sendMessage(Call &call)
{
    auto request = parsed<SendMessageRequest>(call);
    if (!request)
        return;
    touchActor(request->fromId);
    auto content =
        Service::validateContent(request->type ? QJsonValue(*request->type) : QJsonValue(), request->metadata,
                                 request->text, QStringLiteral("text"), Service::TypeErrorStyle::Quoted);
    if (!content) {
        replyError(call.responder, content.error());
        return;
    }
    auto id =
        m_service.sendMessage(request->fromId, request->toId, request->text, *content, request->replyTo);
    if (!id) {
        replyError(call.responder, id.error());
        return;
    }
    reply(call.responder, 200, SendMessageAnswer {true, *id, {}}.toCompactJson());
}

void Api::broadcast(Call &call)
{
    auto request = parsed<BroadcastRequest>(call);
    if (!request)
        return;
    touchActor(request->fromId);
    auto content =
        Service::validateContent(request->type ? QJsonValue(*request->type) : QJsonValue(), request->metadata,
                                 request->text, QStringLiteral("broadcast"), Service::TypeErrorStyle::Bare);
    if (!content) {
        replyObject(call.responder, BroadcastAnswer {false, 0, {}, content.error().message}.toJson());
        return;
    }
    const Http::ResponderPtr responder = call.responder;
    m_service.broadcast(request->fromId, request->text, *content, request->scope, request->cwd,
                        request->gitRoot, [responder](Result<Service::BroadcastResult> result) {
                            if (!result) {
                                replyError(responder, result.error());
                                return;
                            }
                            replyObject(
                                responder,
                                BroadcastAnswer {true, result->recipients, result->messageIds, {}}.toJson());
                        });
}

void Api::pollMessages(Call &call)
{
    auto request = parsed<PollMessagesRequest>(call);
    if (!request)
        return;
    auto messages = m_service.undelivered(request->id);
    if (!messages) {
        replyError(call.responder, messages.error());
        return;
    }
    reply(call.responder, 200, messagesAnswer(*messages));
    m_hub.recordPolled(*messages);
}

void Api::ackMessages(Call &call)
{
    auto request = parsed<AckMessagesRequest>(call);
    if (!request)
        return;
    if (auto acked = m_service.acknowledge(request->id, request->messageIds); !acked) {
        replyError(call.responder, acked.error());
        return;
    }
    replyOk(call.responder);
}

void Api::messageStatus(Call &call)
{
    auto request = parsed<MessageStatusRequest>(call);
    if (!request)
        return;
    auto message = m_service.store().message(request->messageId);
    if (!message) {
        replyError(call.responder, message.error());
        return;
    }
    if (!message->has_value()) {
        reply(call.responder, 404, QByteArrayLiteral("{\"error\":\"not found\"}"));
        return;
    }
    const Message &m = **message;
    replyObject(call.responder, MessageStatusAnswer {m.id, m.fromId, m.toId, m.delivered, m.sentAt}.toJson());
}

void Api::waitMessages(Call &call)
{
    auto request = parsed<WaitMessagesRequest>(call);
    if (!request)
        return;
    const QString &id = request->id;
    // The wait counts as a heartbeat; an unknown id tells the helper to register again.
    auto known = touchWaiter(id);
    if (!known) {
        replyError(call.responder, known.error());
        return;
    }
    if (!*known) {
        replyObject(call.responder,
                    {{QStringLiteral("error"), QStringLiteral("Peer %1 is not registered").arg(id)}}, 404);
        return;
    }
    if (auto acked = m_service.acknowledge(id, request->ack); !acked) {
        replyError(call.responder, acked.error());
        return;
    }
    const int timeoutMs = int(std::clamp<qint64>(request->timeoutMs.value_or(DeliveryHub::defaultTimeoutMs),
                                                 0, DeliveryHub::maxTimeoutMs));
    m_hub.wait(id, timeoutMs, call.responder, request->ack, request->afterId.value_or(0));
}

void Api::history(Call &call)
{
    auto request = parsed<HistoryRequest>(call);
    if (!request)
        return;
    HistoryFilter filter;
    filter.from = request->from;
    filter.to = request->to;
    filter.since = request->since;
    filter.search = request->search;
    filter.limit = int(std::clamp<qint64>(request->limit.value_or(20), 1, 1000));
    filter.maxBytes = Store::maxListBytes;
    filter.beforeId = request->beforeId.value_or(0);
    filter.afterId = request->afterId.value_or(0);
    filter.ascending = request->ascending;
    filter.peer = request->peer;
    filter.with = request->with;
    filter.ids = request->ids;
    auto page = m_service.store().historyPage(filter);
    if (!page) {
        Error error = page.error();
        if (error.kind == ErrorKind::Invalid) // a "since" that is no ISO-8601 time: the client's
            error.httpStatus = 400;
        replyError(call.responder, error);
        return;
    }
    HistoryAnswer answer;
    answer.messages = std::move(page->messages);
    answer.more = page->more;
    for (const Message &m : std::as_const(answer.messages)) {
        if (MessageHandout handout = m_hub.ledger().handout(m.id); handout.isKnown())
            answer.handouts.insert(m.id, std::move(handout));
    }
    // delivered is a boolean here (docs/protocol.md)
    reply(call.responder, 200, compact(answer.toJson()));
}

} // namespace Broker
