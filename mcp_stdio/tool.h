#pragma once

#include "mcp_stdio/clientkind.h"
#include "mcp_stdio/toolreply.h"

#include <QJsonObject>
#include <QString>

namespace Mcp {

// What the helper tells a tool about the call it makes.
struct ToolContext
{
    ClientKind client = ClientKind::ClaudeCode; // word the answer for it (clientkind.h)
    QString clientName; // initialize's clientInfo.name; empty when the client did not say
};

// One MCP tool of the helper. The built-in peers tools (peertool.h) and other modules' tools
// (the openchamber tool) implement it and join the helper's ToolRegistry, which owns them;
// a composition root adds them through McpServer::tools() before start().
//
// call() runs on the helper's event loop: it must not block and must not throw. It answers
// through reply exactly once, at once or later; the registry drops what comes after the first
// answer or after the call was cancelled (ToolReply::onCancelled). Faults the model can act
// on are isError results in plain words (ToolResult::error), never protocol errors.
class Tool
{
public:
    virtual ~Tool() = default;

    // Unique in the registry; [A-Za-z0-9_-]: Claude Code refuses a whole session whose
    // mcp__<server>__<tool> name has anything else or exceeds 64 characters.
    virtual QString name() const = 0;
    // What the model reads in tools/list, worded for the client.
    virtual QString description(ClientKind client) const = 0;
    // JSON Schema of the arguments, {"type":"object",...} (toolschema.h). A contract: the same
    // for every client.
    virtual QJsonObject inputSchema() const = 0;

    virtual void call(const QJsonObject &arguments, const ToolContext &context, ToolReply reply) = 0;
};

} // namespace Mcp
