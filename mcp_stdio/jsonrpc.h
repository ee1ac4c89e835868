#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

// JSON-RPC 2.0 message shapes as MCP uses them (docs/spec/mcp-clients.md §3).
namespace Mcp::JsonRpc {

enum ErrorCode : int {
    ParseError = -32700,
    InvalidRequest = -32600,
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
};

// A request id is a string or an integer (never null, never fractional); 0 is valid.
bool isValidId(const QJsonValue &id);

QJsonObject result(const QJsonValue &id, const QJsonObject &result);
// id Null when it could not be read (parse error, not an object, invalid id).
QJsonObject error(const QJsonValue &id, int code, const QString &message,
                  const QJsonValue &data = QJsonValue(QJsonValue::Undefined));
QJsonObject notification(const QString &method, const QJsonObject &params);

// The id as a map key that keeps its JSON type apart ("s:7" vs "n:7").
QString idKey(const QJsonValue &id);

} // namespace Mcp::JsonRpc
