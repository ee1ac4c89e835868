#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace OpenChamber {

// Reading GET /session/{id}/message answers ([{info, parts}], chronological) as the contract
// does (docs/spec/control-service.md §5.2, §6.5, §7).

enum class MessageRole { All, User, Assistant };

// docs/spec/control-service.md §7: text-only messages {id, role, createdAt, completedAt, model,
// text}, sorted by createdAt.
QJsonArray projectTextMessages(const QJsonArray &raw, MessageRole role);

// The id of the newest user message (max time.created, ties → later in the list); empty if none.
QString newestUserMessageId(const QJsonArray &raw);

// The id of the newest assistant message with a numeric time.completed; empty if none.
QString latestCompletedAssistantId(const QJsonArray &raw);

} // namespace OpenChamber
