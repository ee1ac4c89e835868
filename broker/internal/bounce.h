#pragma once

#include "broker/internal/privateheader.h"

#include <QString>

namespace Broker::Bounce {

// docs/spec/peers-api.md §11.8/§11.9: "⚠ Message #<id> to <target> could not be delivered — peer has
// disconnected.\n> <first 100 chars of the text>" plus "..." when the text was longer.
QString text(qint64 messageId, const QString &target, const QString &originalText);

// Senders that never get a bounce: the CLI, the system itself and remote peers (host:peer).
bool senderMayReceiveBounce(const QString &fromId);

} // namespace Broker::Bounce
