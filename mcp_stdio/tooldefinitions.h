#pragma once

#include "clientkind.h"

#include <QJsonObject>

// Names, descriptions and input schemas of the tools (reference §7.2, plus whoami). Kept apart
// from the handlers: this is what the model reads in tools/list, worded for the client
// (Claude Code: the reference's words; others: no client named, no /rename).
namespace Mcp::ToolDefinitions {

QJsonObject listPeers(ClientKind client);
QJsonObject sendMessage(ClientKind client);
QJsonObject setSummary(ClientKind client);
QJsonObject setName(ClientKind client);
QJsonObject checkMessages(ClientKind client);
QJsonObject broadcastMessage(ClientKind client);
QJsonObject messageStatus(ClientKind client);
QJsonObject channelHealth(ClientKind client);
QJsonObject whoami(ClientKind client);

} // namespace Mcp::ToolDefinitions
