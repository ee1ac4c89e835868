#pragma once

#include "mcp_stdio/clientkind.h"

#include <QString>
#include <QStringList>

// What the helper says about itself in the initialize answer.
namespace Mcp::ServerInfo {

QString name(); // "claude-peers": the reference's server name
QString version(); // the project version
// Protocol revisions of the initialize-handshake era, oldest first.
const QStringList &supportedProtocolVersions();
QString latestProtocolVersion();
// Echo the client's version when supported, else our newest (never an error).
QString negotiateProtocolVersion(const QString &requested);
// Batches (a JSON array on one line) exist only in 2025-03-26.
bool allowsBatches(const QString &protocolVersion);
// The system-prompt text for the model, at most 2048 characters (Claude Code cuts there).
// Claude Code's speaks of <channel> blocks and /rename; the neutral one of neither.
QString instructions(ClientKind client = ClientKind::ClaudeCode);

} // namespace Mcp::ServerInfo
