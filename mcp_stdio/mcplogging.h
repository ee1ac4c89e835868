#pragma once

#include <QLoggingCategory>

// Categories of the helper, filtered with QT_LOGGING_RULES="peers.mcp.*=true". They live in
// namespace Mcp because the broker module declares categories with the same short names.
namespace Mcp {

Q_DECLARE_LOGGING_CATEGORY(lcStdio) // peers.mcp.stdio: stdin framing, stdout writes
Q_DECLARE_LOGGING_CATEGORY(lcRpc) // peers.mcp.rpc: JSON-RPC dispatch
Q_DECLARE_LOGGING_CATEGORY(lcTools) // peers.mcp.tools: tool calls
Q_DECLARE_LOGGING_CATEGORY(lcDelivery) // peers.mcp.delivery: push stream, banner, safety net
Q_DECLARE_LOGGING_CATEGORY(lcSession) // peers.mcp.session: broker discovery, registration

// Routes every Qt message to stderr (never stdout, which carries only protocol lines),
// one line each, prefixed with the category. Call first thing in main().
void installStderrMessageHandler();

} // namespace Mcp
