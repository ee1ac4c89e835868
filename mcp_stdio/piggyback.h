#pragma once

#include <QJsonObject>
#include <QString>

namespace Mcp {

// Layer 2 on a tool result (docs/spec/peers-api.md §7.5): the due banner goes in front of the first content
// item when it is text and, while the broker is in trouble, the reason is appended (OpenCode
// shows no stderr and says "connected" regardless). Other results pass unchanged.
QJsonObject withPiggyback(QJsonObject callToolResult, const QString &banner, const QString &trouble);

} // namespace Mcp
