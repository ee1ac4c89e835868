#include "mcp_stdio/peertool.h"

#include "common/brokerapi.h"
#include "mcp_stdio/diagnostictools.h"
#include "mcp_stdio/discoverytools.h"
#include "mcp_stdio/messagingtools.h"
#include "mcp_stdio/session.h"
#include "mcp_stdio/toolregistry.h"

namespace Mcp {

namespace {

constexpr int DefaultRegistrationWaitMs = 10000;

} // namespace

int PeerToolDeps::defaultRegistrationWaitMs()
{
    bool ok = false;
    const int wait = qEnvironmentVariableIntValue("CLAUDE_PEERS_TOOL_WAIT_MS", &ok);
    return ok && wait >= 0 ? wait : DefaultRegistrationWaitMs;
}

void addPeerTools(ToolRegistry &registry, const PeerToolDeps &deps)
{
    std::unique_ptr<Tool> tools[] = {
        std::make_unique<ListPeersTool>(deps),     std::make_unique<SendMessageTool>(deps),
        std::make_unique<SetSummaryTool>(deps),    std::make_unique<SetNameTool>(deps),
        std::make_unique<CheckMessagesTool>(deps), std::make_unique<BroadcastMessageTool>(deps),
        std::make_unique<MessageStatusTool>(deps), std::make_unique<ChannelHealthTool>(deps),
        std::make_unique<WhoamiTool>(deps),
    };
    for (auto &tool : tools) {
        [[maybe_unused]] const auto added = registry.add(std::move(tool));
        Q_ASSERT(added);
    }
}

PeerTool::PeerTool(const ToolDefinitions::Definition &definition, Needs needs, const PeerToolDeps &deps)
    : m_definition(definition), m_needs(needs), m_deps(deps)
{
}

Broker::BrokerApi PeerTool::broker() const
{
    return Broker::BrokerApi(*m_deps.broker);
}

QString PeerTool::name() const
{
    return QLatin1String(m_definition.name);
}

QString PeerTool::description(ClientKind client) const
{
    return m_definition.description(client);
}

QJsonObject PeerTool::inputSchema() const
{
    return m_definition.inputSchema();
}

void PeerTool::call(const QJsonObject &arguments, const ToolContext &context, ToolReply reply)
{
    if (m_needs == Needs::Nothing) {
        run(arguments, context, reply);
        return;
    }
    session().whenRegistered(
        m_deps.registrationWaitMs, &m_lifetime, [this, arguments, context, reply](bool ok) {
            if (reply.isCancelled())
                return;
            if (!ok) {
                QString text =
                    QStringLiteral("Not registered with broker yet. Try /mcp reconnect, or check if broker "
                                   "is running: claude-peers status");
                if (!session().lastError().isEmpty())
                    text += QStringLiteral("\nLast error: ") + session().lastError();
                reply.error(text);
                return;
            }
            run(arguments, context, reply);
        });
}

} // namespace Mcp
