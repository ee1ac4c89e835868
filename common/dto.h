#pragma once

#include "common/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Broker {

// What a session asks of its human, as its Claude Code hooks report it (`claude-peers hook`):
// waiting for them (a permission prompt, a question, idle at the prompt), working on a turn, or
// done with it. Unknown until a hook said something. Ordered from most to least urgent.
enum class Attention { NeedsYou, Busy, Idle, Unknown };

QString attentionName(Attention attention); // "needs-you", "busy", "idle", "unknown"
std::optional<Attention> attentionFromName(const QString &name);
QStringList attentionNames(); // in the enum's order

// A peer row as the wire carries it (docs/spec/peers-api.md §2 / §3.11). Remote peers have pid 0 and an
// id of the form "<hostname>:<peer>".
struct Peer
{
    QString id;
    qint64 pid = 0;
    QString cwd;
    QString gitRoot; // empty = null on the wire
    QString tty; // empty = null on the wire
    QString summary;
    QString registeredAt; // ISO-8601 UTC with milliseconds
    QString lastSeen;
    QString sessionName;
    QString channelPush; // unknown / unverified / working; empty for remote peers
    QString version;
    QString client; // MCP client name from initialize ("claude-code", "opencode"); empty = not said
    // Ours, from /set-attention: absent on the wire while Unknown.
    Attention attention = Attention::Unknown;
    QString attentionSince; // ISO-8601 UTC with milliseconds: when the peer entered its state
    QString attentionMessage; // what the session said it needs (a Notification's text)
    // Ours, from /set-channel-push: how messages reach the session's model, "channel" (a push
    // it shows), "inbox" (Claude Code's session inbox) or "banner" (the next tool result);
    // absent on the wire when the helper did not say (older helpers, 0.7's).
    QString delivery;

    QString displayName() const { return sessionName.isEmpty() ? id : sessionName; }
    bool isRemote() const { return id.contains(QLatin1Char(':')); }
    bool operator==(const Peer &) const = default;

    QJsonObject toJson() const;
    static Result<Peer> fromJson(const QJsonObject &object);
};

enum class MessageType { Text, Query, Response, Handoff, Broadcast };

QString messageTypeName(MessageType type);
std::optional<MessageType> messageTypeFromName(const QString &name);
// "text, query, response, handoff, broadcast" as the reference's error text lists them.
QString messageTypeList();

// A stored message as /poll-messages and /wait-messages carry it (docs/spec/peers-api.md §3.14).
struct Message
{
    qint64 id = 0;
    QString fromId;
    QString toId;
    QString text;
    QString type = QStringLiteral("text");
    std::optional<QJsonObject> metadata;
    std::optional<qint64> replyTo;
    QString sentAt;
    bool delivered = false;

    QJsonObject toJson() const; // delivered as the integer 0/1, like the reference's poll
    static Result<Message> fromJson(const QJsonObject &object);
};

// What kind of client a peer runs in, for people: "Claude Code", "OpenCode", the client's own
// name for others, "" when the peer did not say (an older helper, the reference's).
QString clientLabel(const QString &clientName);

// The id a broker gives a peer with a terminal (docs/spec/peers-api.md §7.9): the first 8 lower-case hex
// characters of SHA-256 over the tty's UTF-8 bytes ("pts/44" → "d92a5e28"). Shared by the
// broker, which assigns it, and the helper, which knows its id before registering.
QString peerIdForTty(const QString &tty);
// The id a session without a terminal asks for (`opencode serve`, IDE launchers): the same
// hash over the client's name ("mcp-client" when empty) and the working folder, so it keeps its
// id across restarts. The helper registers with it; `claude-peers hook` finds the peer by it.
QString peerIdWithoutTty(const QString &clientName, const QString &cwd);

Result<QList<Peer>> peersFromJson(const QJsonArray &array);
Result<QList<Message>> messagesFromJson(const QJsonArray &array);

} // namespace Broker
