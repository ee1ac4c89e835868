#pragma once

#include "mcp_stdio/tool.h"

#include <QObject>

namespace Broker {
class BrokerClient;
}

namespace Mcp {
class McpServer;
class Session;
} // namespace Mcp

namespace OpenChamber {

// The helper's openchamber tool (docs/spec/control-service.md §10.1): one action of the
// broker's control service per call, POSTed to /agent-tool with this session's credential and
// its working directory as the context directory. The answer is the route's versioned envelope
// as JSON text ({schemaVersion:1, ok, action, data|error}); a failure is an isError result with
// the same envelope. A cancelled call (notifications/cancelled) closes its request's own
// connection, so the broker cancels the action (a session wait).
class ControlTool final : public Mcp::Tool
{
public:
    ControlTool(Broker::BrokerClient &client, Mcp::Session &session, int registrationWaitMs);

    QString name() const override { return QStringLiteral("openchamber"); }
    QString description(Mcp::ClientKind client) const override;
    QJsonObject inputSchema() const override;
    void call(const QJsonObject &arguments, const Mcp::ToolContext &context, Mcp::ToolReply reply) override;

private:
    void send(const QJsonObject &input, const QString &action, const Mcp::ToolReply &reply);

    Broker::BrokerClient &m_client;
    Mcp::Session &m_session;
    int m_registrationWaitMs;
    QObject m_lifetime; // context of the waits and cancellation handlers: none outlives the tool
};

// Adds the tool to a helper (app/mcp's composition), after the built-in tools.
void addControlTool(Mcp::McpServer &server);

} // namespace OpenChamber
