#pragma once

#include <QJsonObject>

// Names, descriptions and input schemas of the tools (reference §7.2, plus whoami). Kept apart
// from the handlers: this is what the model reads in tools/list.
namespace Mcp::ToolDefinitions {

QJsonObject listPeers();
QJsonObject sendMessage();
QJsonObject setSummary();
QJsonObject setName();
QJsonObject checkMessages();
QJsonObject broadcastMessage();
QJsonObject messageStatus();
QJsonObject channelHealth();
QJsonObject whoami();

} // namespace Mcp::ToolDefinitions
