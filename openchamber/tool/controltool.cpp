#include "openchamber/tool/controltool.h"

#include "common/brokerapi.h"
#include "mcp_stdio/mcpserver.h"
#include "mcp_stdio/peertool.h"
#include "mcp_stdio/session.h"
#include "mcp_stdio/toolregistry.h"
#include "mcp_stdio/toolresult.h"
#include "openchamber/tool/controltoolschema.h"

#include <QJsonDocument>
#include <QLoggingCategory>

#include <algorithm>

namespace OpenChamber {

namespace {

Q_LOGGING_CATEGORY(lcControlTool, "peers.openchamber.tool", QtInfoMsg)

constexpr int DefaultHttpTimeoutMs = 30000;
constexpr int DefaultWaitSeconds = 600;
constexpr int WaitMarginMs = 30000;
constexpr int WorktreeMarginMs = 120000;

QString envelopeText(const Broker::AgentToolEnvelope &envelope)
{
    return QString::fromUtf8(QJsonDocument(envelope.toJson()).toJson(QJsonDocument::Compact));
}

void answer(const Mcp::ToolReply &reply, const Broker::AgentToolEnvelope &envelope)
{
    if (envelope.ok)
        reply.text(envelopeText(envelope));
    else
        reply.error(envelopeText(envelope));
}

Broker::AgentToolEnvelope runtimeFailure(const QString &action, const QString &message)
{
    Broker::AgentToolEnvelope envelope = Broker::AgentToolEnvelope::failure(action, 500, message);
    return envelope;
}

// The plugin's input (docs/spec/control-service.md §10.1 at HEAD): the call's other top-level keys,
// then parameters, then the action, so that a client that flattens the parameters is understood too.
QJsonObject actionInput(const QJsonObject &arguments)
{
    QJsonObject input;
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (it.key() != QLatin1String("parameters") && it.key() != QLatin1String("action"))
            input.insert(it.key(), it.value());
    }
    const QJsonObject parameters = arguments.value(QLatin1String("parameters")).toObject();
    for (auto it = parameters.begin(); it != parameters.end(); ++it)
        input.insert(it.key(), it.value());
    input.insert(QStringLiteral("action"), arguments.value(QLatin1String("action")).toString().trimmed());
    return input;
}

int httpTimeoutMs(const QJsonObject &input)
{
    int ms = DefaultHttpTimeoutMs;
    if (input.value(QLatin1String("wait")).toBool()) {
        const qint64 seconds = input.value(QLatin1String("timeout")).toInteger(DefaultWaitSeconds);
        ms = int(std::clamp<qint64>(seconds, 1, 86400)) * 1000 + WaitMarginMs;
    }
    // A worktree adds 120 s to a wait, or is 120 s alone (its bootstrap may take 60 s), as the CLI.
    if (input.contains(QLatin1String("worktree")))
        ms = input.value(QLatin1String("wait")).toBool() ? ms + WorktreeMarginMs : WorktreeMarginMs;
    return ms;
}

} // namespace

ControlTool::ControlTool(Broker::BrokerClient &client, Mcp::Session &session, int registrationWaitMs)
    : m_client(client), m_session(session), m_registrationWaitMs(registrationWaitMs)
{
}

QString ControlTool::description(Mcp::ClientKind client) const
{
    return ControlToolSchema::description(client);
}

QJsonObject ControlTool::inputSchema() const
{
    return ControlToolSchema::inputSchema();
}

void ControlTool::call(const QJsonObject &arguments, const Mcp::ToolContext &, Mcp::ToolReply reply)
{
    const QJsonValue action = arguments.value(QLatin1String("action"));
    const QJsonValue parameters = arguments.value(QLatin1String("parameters"));
    if (!action.isString() || action.toString().trimmed().isEmpty()) {
        answer(
            reply,
            Broker::AgentToolEnvelope::failure(
                QString(), 400, QStringLiteral("Missing required parameter: action (e.g. session.create)")));
        return;
    }
    if (!parameters.isUndefined() && !parameters.isNull() && !parameters.isObject()) {
        answer(reply,
               Broker::AgentToolEnvelope::failure(action.toString(), 400,
                                                  QStringLiteral("parameters must be an object")));
        return;
    }
    const QJsonObject input = actionInput(arguments);
    const QString name = input.value(QLatin1String("action")).toString();
    m_session.whenRegistered(m_registrationWaitMs, &m_lifetime, [this, input, name, reply](bool registered) {
        if (reply.isCancelled())
            return;
        if (!registered) {
            answer(reply,
                   runtimeFailure(name,
                                  QStringLiteral("Not registered with the claude-peers broker yet: "
                                                 "check that it is running (claude-peers status)")));
            return;
        }
        send(input, name, reply);
    });
}

void ControlTool::send(const QJsonObject &input, const QString &action, const Mcp::ToolReply &reply)
{
    const Broker::AgentToolRequest request {input, m_session.cwd(), QStringLiteral("openchamber")};
    const quint64 id = Broker::BrokerApi(m_client).callAlone(
        request,
        [reply, action](Broker::Result<Broker::AgentToolEnvelope> envelope) {
            if (envelope) {
                answer(reply, *envelope);
                return;
            }
            const Broker::Error &error = envelope.error();
            QString message = error.message;
            if (error.kind == Broker::ErrorKind::Http && error.httpStatus == 404)
                message =
                    QStringLiteral("This claude-peers broker has no OpenChamber control (POST /agent-tool "
                                   "answered 404): update and restart it");
            else if (error.kind == Broker::ErrorKind::BadJson || error.kind == Broker::ErrorKind::Http)
                message = QStringLiteral("OpenChamber returned an invalid response: ") + error.message;
            answer(reply, runtimeFailure(action, message));
        },
        httpTimeoutMs(input));
    reply.onCancelled(&m_lifetime, [this, id, action] {
        qCInfo(lcControlTool).noquote() << "Call cancelled by the client: closing" << action;
        m_client.abort(id);
    });
}

void addControlTool(Mcp::McpServer &server)
{
    auto tool = std::make_unique<ControlTool>(server.brokerClient(), server.session(),
                                              Mcp::PeerToolDeps::defaultRegistrationWaitMs());
    if (auto added = server.tools().add(std::move(tool)); !added)
        qCWarning(lcControlTool).noquote() << "The openchamber tool was not added:" << added.error();
}

} // namespace OpenChamber
