#pragma once

#include "mcp_stdio/tool.h"
#include "mcp_stdio/tooldefinitions.h"

#include <QObject>

namespace Broker {
class BrokerApi;
class BrokerClient;
} // namespace Broker

namespace Mcp {

class Delivery;
class Session;
class ToolRegistry;

// What the built-in peers tools work with: the helper's broker client, its session and its
// delivery layers (all outlive the tools: McpServer owns them).
struct PeerToolDeps
{
    Broker::BrokerClient *broker = nullptr;
    Session *session = nullptr;
    Delivery *delivery = nullptr;
    // How long a call waits for the registration before it reports (default 10 s, env
    // CLAUDE_PEERS_TOOL_WAIT_MS).
    int registrationWaitMs = defaultRegistrationWaitMs();

    static int defaultRegistrationWaitMs();
};

// Adds the nine built-in tools in tools/list order (docs/spec/peers-api.md §7.2's eight, then whoami).
void addPeerTools(ToolRegistry &registry, const PeerToolDeps &deps);

// A built-in tool: its wording from ToolDefinitions and, for the tools that act as this peer,
// the wait for the broker registration (an isError result in plain words when it does not
// come in time).
class PeerTool : public Tool
{
public:
    enum class Needs { Nothing, Registration };

    PeerTool(const ToolDefinitions::Definition &definition, Needs needs, const PeerToolDeps &deps);

    QString name() const final;
    QString description(ClientKind client) const final;
    QJsonObject inputSchema() const final;
    void call(const QJsonObject &arguments, const ToolContext &context, ToolReply reply) final;

protected:
    virtual void run(const QJsonObject &arguments, const ToolContext &context, const ToolReply &reply) = 0;

    // Typed calls to the broker (common/brokerapi.h).
    Broker::BrokerApi broker() const;
    Session &session() const { return *m_deps.session; }
    Delivery &delivery() const { return *m_deps.delivery; }

private:
    const ToolDefinitions::Definition &m_definition;
    const Needs m_needs;
    const PeerToolDeps m_deps;
    QObject m_lifetime; // context of the registration waits: none outlives the tool
};

} // namespace Mcp
