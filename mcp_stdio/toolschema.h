#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

// Pieces of the JSON Schemas tools declare as inputSchema (MCP: JSON Schema, type "object").
namespace Mcp::ToolSchema {

// {"type":"object","properties":…,"required":[…]}; a tool without arguments gets
// "additionalProperties":false, MCP 2025-11-25's form for "no arguments".
QJsonObject object(const QJsonObject &properties = {}, const QStringList &required = {});
QJsonObject string(const QString &description, const QStringList &allowedValues = {});
QJsonObject number(const QString &description);
// A free-form JSON object argument.
QJsonObject anyObject(const QString &description);

} // namespace Mcp::ToolSchema
