#pragma once

#include "common/dto.h"
#include "common/wire.h"
#include "mcp_stdio/bannerqueue.h"
#include "mcp_stdio/clientkind.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

// The texts the model reads in tool results (docs/spec/peers-api.md §7.2, §7.5). Pure functions.
namespace Mcp::Format {

// "<1m", "<m>m", "<h>h <m>m" or "<h>h", "<d>d <h>h".
QString age(qint64 ms);
// ISO-8601 → age relative to now; "?" when the timestamp does not parse.
QString ageSince(const QString &iso, const QDateTime &now);

QString peerBlock(const Broker::Peer &peer, const QDateTime &now);
// "No other Claude Code instances found" for Claude Code (reference), "No other peers found" else.
QString peerList(const QString &scope, const QList<Broker::Peer> &peers, const QDateTime &now,
                 ClientKind client = ClientKind::ClaudeCode);

// First line, at most 120 characters, "..." when the whole text is longer than 120.
QString preview(const QString &text);
// "Message sent to peer <to> (msg#<id>)\n> Preview: …"; messageId < 0 → "(remote)".
QString messageSent(const QString &toId, qint64 messageId, const QString &text);

BannerQueue::Entry entryFor(const Broker::Message &message, const QString &fromName, qint64 pushedAtMs);
// check_messages (docs/spec/peers-api.md §7.2.5):
// "<prefix>From <id> (msg#<n>, <sent_at>):\n<text>[\nMetadata: …]".
QString messageEntry(const BannerQueue::Entry &entry);
QString messageList(const QList<BannerQueue::Entry> &entries);

// One banner line (docs/spec/peers-api.md §7.5): "[QUERY] From <name> (msg#<id>): <first 200 chars>".
QString bannerLine(const BannerQueue::Entry &entry);
// The banner block plus a blank line, or empty when there is nothing to show. omitted > 0
// adds the overflow notice naming the history command for selfId.
QString banner(const QList<BannerQueue::Entry> &entries, int omitted, const QString &selfId);

// A message as Claude Code's session inbox hands it to the model (docs/mcp-helper.md): who sent
// it (name, id, machine, client), its kind, the text, and how to answer: our send_message, since
// Claude Code's own SendMessage cannot reach a claude-peers peer.
QString inboxMessage(const BannerQueue::Entry &entry, const QString &senderClient);
// What the sender of a message the inbox did not deliver is told (status: held, refused, …).
QString inboxNotice(qint64 messageId, const QString &recipientName, const QString &status,
                    const QString &reason);

// message_status (docs/spec/peers-api.md §7.2.7) from the broker's answer.
QString messageStatus(const Broker::MessageStatusAnswer &status);

} // namespace Mcp::Format
