#pragma once

#include <QString>

namespace Mcp {

// The MCP client the helper serves, from initialize's clientInfo.name. Texts are worded per
// kind: Claude Code keeps the reference's (0.7's tests pin them), the others get neutral ones
// that name no client and promise no channel push.
enum class ClientKind {
    ClaudeCode, // "claude-code"
    OpenCode, // "opencode…"
    Other,
};

ClientKind clientKindFromName(const QString &clientName);

// Only Claude Code shows notifications/claude/channel to its model (and only with its
// development-channels flag); other clients drop them.
inline bool mayShowChannels(ClientKind kind)
{
    return kind == ClientKind::ClaudeCode;
}

} // namespace Mcp
