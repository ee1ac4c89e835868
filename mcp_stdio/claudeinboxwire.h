#pragma once

#include "common/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// The lines of Claude Code's cross-session inbox (2.1.3xx; docs/mcp-helper.md, "Claude Code's
// session inbox"), as the helper writes and reads them. Undocumented by Claude Code and
// versioned there as peer protocol 1: what we rely on is written down in docs/spec/mcp-clients.md.
//
// Into the session's socket ($CLAUDE_CODE_MESSAGING_SOCKET), newline-delimited JSON:
//   {"type":"auth","token":"…"}                      first line only
//   {"type":"user","message":{"role":"user","content":"…"},"from":"uds:<path>","msg_id":"…"}
// Nothing comes back on that connection. Claude Code reports what it did not deliver at once by
// connecting to the sender's own socket (the uds: path of "from") with one control line:
//   {"type":"control","action":"peer_message_status","status":"held|denied|expired|delivered|
//    dropped","status_detail":"refused"?,"reason":"…","orig_msg_id":"…","dropped_msg_ids":[…]?}
namespace Mcp::ClaudeInboxWire {

// Claude Code destroys a connection whose unsplit buffer passes 1,048,576 characters.
inline constexpr qsizetype MaxLineBytes = 1024 * 1024;
// A receipt is a few hundred bytes; anything much larger is not one.
inline constexpr qsizetype MaxReceiptBytes = 64 * 1024;

QByteArray authLine(const QString &token);
// content: what the model reads; from: "uds:<our receipt socket>"; msgId: matches receipts.
QByteArray userLine(const QString &content, const QString &from, const QString &msgId);

struct Receipt
{
    enum class Status {
        Held, // waits for the user's approval; a later receipt says how it ended
        Denied, // the user declined it
        Expired, // held and never approved (or the session ended)
        Refused, // the session takes no cross-session messages (policy or switch)
        Delivered, // a held message was approved and reached the model
        Dropped, // rate limit, duplicate, full queue: not delivered and never will be
    };
    Status status = Status::Held;
    QString origMsgId;
    QStringList droppedMsgIds; // a batched drop receipt names more than one
    QString reason; // Claude Code's words
    QString dropReason; // rate-limited, duplicate, queue-full, …

    bool delivered() const { return status == Status::Delivered; }
    bool final() const { return status != Status::Held; }
};

QString statusName(Receipt::Status status);

// One line from our receipt socket. A control line of another action (an idle notice, a rename)
// is ErrorKind::Rejected; anything that is not a receipt at all is BadJson / BadField / TooLarge.
Broker::Result<Receipt> parseReceipt(const QByteArray &line);

} // namespace Mcp::ClaudeInboxWire
