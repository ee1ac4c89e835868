#pragma once

#include <QJsonValue>
#include <QString>

#include <optional>

// Reading the peers tools' arguments as models and clients send them.
namespace Mcp::PeerArguments {

// A message id: an integral number, or a string of digits (some clients, such as the MCP
// Inspector CLI, send every argument as a string).
std::optional<qint64> messageId(const QJsonValue &value);

// machine, directory, repo or lan.
bool isScope(const QString &scope);
// "Invalid scope "<s>": use machine, directory, repo or lan".
QString scopeError(const QString &scope);

} // namespace Mcp::PeerArguments
