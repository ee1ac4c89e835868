// Api handlers for messages: send, broadcast, poll, ack, status, the /wait-messages push
// stream and the /messages history.
#include "api.h"
#include "deliveryhub.h"
#include "jsonbody.h"
#include "service.h"
#include "store.h"

#include <QJsonArray>

#include <algorithm>

namespace Broker {

namespace {

QJsonArray toJsonArray(const QList<Message> &messages)
{
    QJsonArray array;
    for (const Message &m : messages)
        array.append(m.toJson());
    return array;
}

QJsonArray idsToJson(const QList<qint64> &ids)
{
    QJsonArray array;
    for (qint64 id : ids)
        array.append(id);
    return array;
}

} // namespace

void Api::sendMessage(Call &call)
{
    JsonFields fields(call.body);
    const QString fromId = fields.string("from_id");
    const QString toId = fields.string("to_id");
    const QString text = fields.string("text");
    fields.optionalString("type");
    const std::optional<qint64> replyTo = fields.optionalInteger("reply_to");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    touchActor(fromId);
    auto content = Service::validateContent(fields.value("type"), fields.value("metadata"), text,
                                            QStringLiteral("text"), Service::TypeErrorStyle::Quoted);
    if (!content) {
        replyError(call.responder, content.error());
        return;
    }
    auto id = m_service.sendMessage(fromId, toId, text, *content, replyTo);
    if (!id) {
        replyError(call.responder, id.error());
        return;
    }
    replyObject(call.responder, {{QStringLiteral("ok"), true}, {QStringLiteral("message_id"), *id}});
}

void Api::broadcast(Call &call)
{
    JsonFields fields(call.body);
    const QString fromId = fields.string("from_id");
    const QString text = fields.string("text");
    fields.optionalString("type");
    const QString scope = fields.optionalString("scope");
    const QString cwd = fields.optionalString("cwd");
    const QString gitRoot = fields.optionalString("git_root");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    touchActor(fromId);
    auto content = Service::validateContent(fields.value("type"), fields.value("metadata"), text,
                                            QStringLiteral("broadcast"), Service::TypeErrorStyle::Bare);
    if (!content) {
        replyObject(call.responder,
                    {{QStringLiteral("ok"), false},
                     {QStringLiteral("recipients"), 0},
                     {QStringLiteral("message_ids"), QJsonArray()},
                     {QStringLiteral("error"), content.error().message}});
        return;
    }
    const Http::ResponderPtr responder = call.responder;
    m_service.broadcast(fromId, text, *content, scope, cwd, gitRoot,
                        [responder](Result<Service::BroadcastResult> result) {
                            if (!result) {
                                replyError(responder, result.error());
                                return;
                            }
                            replyObject(responder,
                                        {{QStringLiteral("ok"), true},
                                         {QStringLiteral("recipients"), result->recipients},
                                         {QStringLiteral("message_ids"), idsToJson(result->messageIds)}});
                        });
}

void Api::pollMessages(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    auto messages = m_service.undelivered(id);
    if (!messages) {
        replyError(call.responder, messages.error());
        return;
    }
    replyObject(call.responder, {{QStringLiteral("messages"), toJsonArray(*messages)}});
}

void Api::ackMessages(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    const QList<qint64> ids = fields.integerList("message_ids");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    if (auto acked = m_service.acknowledge(id, ids); !acked) {
        replyError(call.responder, acked.error());
        return;
    }
    replyOk(call.responder);
}

void Api::messageStatus(Call &call)
{
    JsonFields fields(call.body);
    const qint64 id = fields.integer("message_id");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    auto message = m_service.store().message(id);
    if (!message) {
        replyError(call.responder, message.error());
        return;
    }
    if (!message->has_value()) {
        reply(call.responder, 404, QByteArrayLiteral("{\"error\":\"not found\"}"));
        return;
    }
    const Message &m = **message;
    replyObject(call.responder,
                {{QStringLiteral("id"), m.id},
                 {QStringLiteral("from_id"), m.fromId},
                 {QStringLiteral("to_id"), m.toId},
                 {QStringLiteral("delivered"), m.delivered},
                 {QStringLiteral("sent_at"), m.sentAt}});
}

void Api::waitMessages(Call &call)
{
    JsonFields fields(call.body);
    const QString id = fields.string("id");
    const QList<qint64> ack = fields.optionalIntegerList("ack");
    const std::optional<qint64> timeout = fields.optionalInteger("timeout_ms");
    const qint64 afterId = fields.optionalInteger("after_id").value_or(0);
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
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
    if (auto acked = m_service.acknowledge(id, ack); !acked) {
        replyError(call.responder, acked.error());
        return;
    }
    const int timeoutMs = int(
        std::clamp<qint64>(timeout.value_or(DeliveryHub::defaultTimeoutMs), 0, DeliveryHub::maxTimeoutMs));
    m_hub.wait(id, timeoutMs, call.responder, afterId);
}

void Api::history(Call &call)
{
    JsonFields fields(call.body);
    HistoryFilter filter;
    filter.from = fields.optionalString("from");
    filter.to = fields.optionalString("to");
    filter.since = fields.optionalString("since");
    filter.search = fields.optionalString("search");
    const std::optional<qint64> limit = fields.optionalInteger("limit");
    if (fields.error()) {
        replyError(call.responder, *fields.error());
        return;
    }
    filter.limit = int(std::clamp<qint64>(limit.value_or(20), 1, 1000));
    auto messages = m_service.store().history(filter);
    if (!messages) {
        replyError(call.responder, messages.error());
        return;
    }
    QJsonArray array;
    for (const Message &m : std::as_const(*messages)) {
        QJsonObject o = m.toJson();
        o.insert(QStringLiteral("delivered"), m.delivered); // a boolean here (docs/protocol.md)
        array.append(o);
    }
    replyObject(call.responder, {{QStringLiteral("messages"), array}});
}

} // namespace Broker
