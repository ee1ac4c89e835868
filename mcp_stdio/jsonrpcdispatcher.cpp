#include "mcp_stdio/jsonrpcdispatcher.h"

#include "mcp_stdio/clientkind.h"
#include "mcp_stdio/clientlog.h"
#include "mcp_stdio/jsonrpc.h"
#include "mcp_stdio/mcplogging.h"
#include "mcp_stdio/serverinfo.h"
#include "mcp_stdio/toolregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QPointer>

namespace Mcp {

using namespace JsonRpc;

const JsonRpcDispatcher::MethodEntry JsonRpcDispatcher::s_methods[] = {
    {"initialize", &JsonRpcDispatcher::onInitialize, false},
    {"ping", &JsonRpcDispatcher::onPing, false},
    {"tools/list", &JsonRpcDispatcher::onToolsList, false},
    {"tools/call", &JsonRpcDispatcher::onToolsCall, false},
    {"logging/setLevel", &JsonRpcDispatcher::onSetLogLevel, false},
    {"notifications/initialized", &JsonRpcDispatcher::onInitialized, true},
    {"notifications/cancelled", &JsonRpcDispatcher::onCancelled, true},
};

struct JsonRpcDispatcher::Batch
{
    QJsonArray responses;
    int pending = 0;
    bool dispatched = false; // every element has been handed out
};

JsonRpcDispatcher::JsonRpcDispatcher(ToolRegistry *tools, QObject *parent) : QObject(parent), m_tools(tools)
{
}

JsonRpcDispatcher::~JsonRpcDispatcher() = default;

void JsonRpcDispatcher::handleLineTooLong(qsizetype limit)
{
    Q_EMIT response(
        error(QJsonValue::Null, InvalidRequest,
              QStringLiteral("Line too long (limit %1 bytes); the message was discarded").arg(limit)));
}

void JsonRpcDispatcher::handleLine(const QByteArray &line)
{
    // Wrapped in [ ] so that a bare scalar ("5", "\"x\"") parses and can be told apart from
    // broken JSON: the first is an Invalid Request, the second a Parse error.
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson('[' + line + ']', &parseError);
    if (parseError.error != QJsonParseError::NoError || doc.array().size() != 1) {
        const QString reason = parseError.error != QJsonParseError::NoError
            ? parseError.errorString()
            : QStringLiteral("more than one value");
        qCDebug(lcRpc) << "parse error:" << reason;
        Q_EMIT response(error(QJsonValue::Null, ParseError, QStringLiteral("Parse error: %1").arg(reason)));
        return;
    }
    const QJsonValue message = doc.array().at(0);
    if (message.isArray()) {
        handleBatch(message.toArray());
        return;
    }
    QPointer<JsonRpcDispatcher> self(this);
    handleMessage(message, [self](const QJsonObject &answer) {
        if (self && !answer.isEmpty())
            Q_EMIT self->response(answer);
    });
}

void JsonRpcDispatcher::handleBatch(const QJsonArray &array)
{
    if (!ServerInfo::allowsBatches(m_protocolVersion)) {
        Q_EMIT response(
            error(QJsonValue::Null, InvalidRequest,
                  QStringLiteral("Invalid Request: batches are only part of protocol version "
                                 "2025-03-26 (negotiated: %1)")
                      .arg(m_protocolVersion.isEmpty() ? QStringLiteral("none") : m_protocolVersion)));
        return;
    }
    if (array.isEmpty()) {
        Q_EMIT response(
            error(QJsonValue::Null, InvalidRequest, QStringLiteral("Invalid Request: empty batch")));
        return;
    }
    auto batch = std::make_shared<Batch>();
    QPointer<JsonRpcDispatcher> self(this);
    auto finishIfDone = [self, batch] {
        if (self && batch->dispatched && batch->pending == 0 && !batch->responses.isEmpty())
            Q_EMIT self->response(batch->responses);
    };
    for (const QJsonValue &element : array) {
        // handleMessage answers every element exactly once (an empty object for notifications
        // and cancelled requests), now or when its tool finishes.
        ++batch->pending;
        handleMessage(element, [batch, finishIfDone](const QJsonObject &answer) {
            if (!answer.isEmpty())
                batch->responses.append(answer);
            --batch->pending;
            finishIfDone();
        });
    }
    batch->dispatched = true;
    finishIfDone();
}

void JsonRpcDispatcher::handleMessage(const QJsonValue &message, const Reply &answer)
{
    if (!message.isObject()) {
        answer(error(QJsonValue::Null, InvalidRequest,
                     QStringLiteral("Invalid Request: a message must be a JSON object")));
        return;
    }
    const QJsonObject object = message.toObject();
    const bool hasId = object.contains(QLatin1String("id"));
    const QJsonValue rawId = object.value(QLatin1String("id"));
    const QJsonValue echoId = hasId && isValidId(rawId) ? rawId : QJsonValue(QJsonValue::Null);

    if (!object.contains(QLatin1String("method")) &&
        (object.contains(QLatin1String("result")) || object.contains(QLatin1String("error")))) {
        // A response (to our ping, the only request we send): nothing to answer.
        qCDebug(lcRpc) << "response from the client to" << rawId;
        Q_EMIT clientResponse(rawId);
        answer({});
        return;
    }
    if (object.value(QLatin1String("jsonrpc")) != QLatin1String("2.0")) {
        answer(error(echoId, InvalidRequest, QStringLiteral("Invalid Request: \"jsonrpc\" must be \"2.0\"")));
        return;
    }
    const QJsonValue methodValue = object.value(QLatin1String("method"));
    if (!methodValue.isString()) {
        answer(error(echoId, InvalidRequest, QStringLiteral("Invalid Request: \"method\" must be a string")));
        return;
    }
    if (hasId && !isValidId(rawId)) {
        answer(error(QJsonValue::Null, InvalidRequest,
                     QStringLiteral("Invalid Request: \"id\" must be a string or an integer")));
        return;
    }

    Request request;
    request.id = hasId ? rawId : QJsonValue(QJsonValue::Undefined);
    request.method = methodValue.toString();
    const QJsonValue params = object.value(QLatin1String("params"));
    if (!params.isUndefined() && !params.isObject()) {
        if (request.isNotification())
            answer({});
        else
            answer(error(request.id, InvalidParams,
                         QStringLiteral("Invalid params: \"params\" must be an object")));
        return;
    }
    request.params = params.toObject();

    const MethodEntry *entry = nullptr;
    for (const MethodEntry &m : s_methods) {
        if (request.method == QLatin1String(m.name)) {
            entry = &m;
            break;
        }
    }
    if (!entry) {
        qCDebug(lcRpc) << "unknown method" << request.method;
        if (request.isNotification())
            answer({});
        else
            answer(error(request.id, MethodNotFound,
                         QStringLiteral("Method not found: %1").arg(request.method)));
        return;
    }
    if (entry->notification) {
        if (!request.isNotification()) {
            answer(error(
                request.id, InvalidRequest,
                QStringLiteral("Invalid Request: %1 is a notification and takes no id").arg(request.method)));
            return;
        }
        (this->*entry->handler)(request, answer);
        answer({});
        return;
    }
    if (request.isNotification()) {
        // A request method without an id: there is nobody to answer.
        answer({});
        return;
    }

    Q_EMIT requestReceived(request.method);
    request.serial = ++m_lastRequest;
    m_inFlight.insert(request.serial, InFlight {idKey(request.id), answer, 0});
    QPointer<JsonRpcDispatcher> self(this);
    (this->*entry->handler)(request, [self, serial = request.serial, answer](const QJsonObject &reply) {
        if (!self) {
            answer(reply);
            return;
        }
        // Not in flight any more: cancelled, and already answered with nothing.
        if (self->m_inFlight.remove(serial))
            answer(reply);
    });
}

void JsonRpcDispatcher::onInitialize(const Request &request, const Reply &reply)
{
    const QJsonValue requested = request.params.value(QLatin1String("protocolVersion"));
    if (!requested.isUndefined() && !requested.isString()) {
        reply(error(request.id, InvalidParams,
                    QStringLiteral("Invalid params: \"protocolVersion\" must be a string")));
        return;
    }
    m_protocolVersion = ServerInfo::negotiateProtocolVersion(requested.toString());
    m_clientName =
        request.params.value(QLatin1String("clientInfo")).toObject().value(QLatin1String("name")).toString();
    m_initializeParams = request.params;

    QJsonObject serverInfo {{QStringLiteral("name"), ServerInfo::name()},
                            {QStringLiteral("version"), ServerInfo::version()}};
    if (m_protocolVersion >= QLatin1String("2025-06-18"))
        serverInfo.insert(QStringLiteral("title"), QStringLiteral("claude-peers"));
    const QJsonObject capabilities {
        {QStringLiteral("tools"), QJsonObject()},
        {QStringLiteral("logging"), QJsonObject()}, // notifications/message for broker trouble
        {QStringLiteral("experimental"), QJsonObject {{QStringLiteral("claude/channel"), QJsonObject()}}}};
    reply(result(request.id,
                 QJsonObject {{QStringLiteral("protocolVersion"), m_protocolVersion},
                              {QStringLiteral("capabilities"), capabilities},
                              {QStringLiteral("serverInfo"), serverInfo},
                              {QStringLiteral("instructions"),
                               ServerInfo::instructions(clientKindFromName(m_clientName))}}));
    qCInfo(lcRpc) << "initialize answered: protocol" << m_protocolVersion << "client" << m_clientName;
    Q_EMIT initializeAnswered(m_protocolVersion, m_clientName);
}

void JsonRpcDispatcher::onPing(const Request &request, const Reply &reply)
{
    reply(result(request.id, QJsonObject()));
}

void JsonRpcDispatcher::onToolsList(const Request &request, const Reply &reply)
{
    const QJsonValue cursor = request.params.value(QLatin1String("cursor"));
    if (!cursor.isUndefined() && !cursor.isNull()) {
        // We never hand out a cursor: every tool is on the first page.
        reply(error(request.id, InvalidParams, QStringLiteral("Invalid params: unknown cursor")));
        return;
    }
    reply(result(request.id, QJsonObject {{QStringLiteral("tools"), m_tools->toolList()}}));
}

void JsonRpcDispatcher::onToolsCall(const Request &request, const Reply &reply)
{
    const QJsonValue name = request.params.value(QLatin1String("name"));
    if (!name.isString()) {
        reply(error(request.id, InvalidParams, QStringLiteral("Invalid params: \"name\" must be a string")));
        return;
    }
    const QJsonValue arguments = request.params.value(QLatin1String("arguments"));
    if (!arguments.isUndefined() && !arguments.isNull() && !arguments.isObject()) {
        reply(error(request.id, InvalidParams,
                    QStringLiteral("Invalid params: \"arguments\" must be an object")));
        return;
    }
    if (!m_tools->hasTool(name.toString())) {
        reply(error(request.id, InvalidParams, QStringLiteral("Unknown tool: %1").arg(name.toString())));
        return;
    }
    Q_EMIT toolCalled(name.toString());
    const QJsonValue id = request.id;
    const quint64 call =
        m_tools->call(name.toString(), arguments.toObject(),
                      [reply, id](const QJsonObject &callResult) { reply(result(id, callResult)); });
    if (const auto it = m_inFlight.find(request.serial); it != m_inFlight.end())
        it->toolCall = call;
}

void JsonRpcDispatcher::onInitialized(const Request &, const Reply &)
{
    if (m_initialized)
        return;
    m_initialized = true;
    qCInfo(lcRpc) << "client initialized";
    Q_EMIT initialized();
}

void JsonRpcDispatcher::onSetLogLevel(const Request &request, const Reply &reply)
{
    const QString level = request.params.value(QLatin1String("level")).toString();
    if (!ClientLog::levelFromName(level)) {
        reply(error(request.id, InvalidParams,
                    QStringLiteral("Invalid params: \"level\" must be one of debug, info, notice, warning, "
                                   "error, critical, alert, emergency")));
        return;
    }
    reply(result(request.id, QJsonObject()));
    Q_EMIT logLevelSet(level);
}

void JsonRpcDispatcher::onCancelled(const Request &request, const Reply &)
{
    const QJsonValue id = request.params.value(QLatin1String("requestId"));
    if (!isValidId(id))
        return;
    const QString key = idKey(id);
    QList<InFlight> cancelled;
    for (auto it = m_inFlight.begin(); it != m_inFlight.end();) {
        if (it->idKey == key) {
            cancelled.append(std::move(it.value()));
            it = m_inFlight.erase(it);
        } else {
            ++it;
        }
    }
    for (const InFlight &request : std::as_const(cancelled)) {
        qCInfo(lcRpc) << "request cancelled by the client:" << key;
        request.answer({}); // no answer (MCP), but a batch must know this element is done
        if (request.toolCall != 0)
            m_tools->cancel(request.toolCall);
    }
}

} // namespace Mcp
