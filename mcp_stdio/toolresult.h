#pragma once

#include <QJsonObject>
#include <QString>

// CallToolResult objects as tools answer them: one text item, isError:true for a fault the
// model can act on (MCP: tool faults are results, not protocol errors).
namespace Mcp::ToolResult {

QJsonObject text(const QString &text);
QJsonObject error(const QString &message);

} // namespace Mcp::ToolResult
