#pragma once

#include "common/dto.h"

#include <QJsonObject>
#include <QString>

// The notifications/claude/channel message (docs/spec/peers-api.md §7.3 with the §13.1 fix): Claude Code
// silently drops a notification whose meta holds a non-string value or a key that is not an
// identifier, so every value is a string and metadata travels as JSON text.
namespace Mcp::Channel {

inline constexpr char Method[] = "notifications/claude/channel";

struct Sender
{
    QString name;
    QString summary;
    QString cwd;
    QString client; // the MCP client it runs in ("claude-code", "opencode"), when it said
};

// Keys must match [A-Za-z0-9_]+: other characters become "_", an empty key becomes "_".
QString sanitizeMetaKey(const QString &key);

// params of the notification for one stored message.
QJsonObject params(const Broker::Message &message, const Sender &sender);
// The whole JSON-RPC notification.
QJsonObject notification(const Broker::Message &message, const Sender &sender);
// The optional hello sent once after notifications/initialized (docs/spec/peers-api.md §7.4).
QJsonObject helloNotification();

} // namespace Mcp::Channel
