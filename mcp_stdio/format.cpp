#include "mcp_stdio/format.h"

#include <QJsonDocument>
#include <QStringList>

namespace Mcp::Format {

QString age(qint64 ms)
{
    if (ms < 60 * 1000)
        return QStringLiteral("<1m");
    const qint64 minutes = ms / (60 * 1000);
    if (minutes < 60)
        return QStringLiteral("%1m").arg(minutes);
    const qint64 hours = minutes / 60;
    if (hours < 24) {
        const qint64 m = minutes % 60;
        return m == 0 ? QStringLiteral("%1h").arg(hours) : QStringLiteral("%1h %2m").arg(hours).arg(m);
    }
    return QStringLiteral("%1d %2h").arg(hours / 24).arg(hours % 24);
}

QString ageSince(const QString &iso, const QDateTime &now)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!t.isValid())
        return QStringLiteral("?");
    return age(qMax<qint64>(0, t.msecsTo(now)));
}

QString peerBlock(const Broker::Peer &p, const QDateTime &now)
{
    QStringList lines;
    lines << (p.sessionName.isEmpty() ? QStringLiteral("%1 (unnamed)").arg(p.id)
                                      : QStringLiteral("**%1** (%2)").arg(p.sessionName, p.id));
    lines << QStringLiteral("  PID: %1  |  CWD: %2  Active: %3")
                 .arg(p.pid)
                 .arg(p.cwd, ageSince(p.registeredAt, now));
    if (!p.gitRoot.isEmpty())
        lines << QStringLiteral("  Repo: ") + p.gitRoot;
    if (!p.version.isEmpty())
        lines << QStringLiteral("  Version: ") + p.version;
    if (!p.tty.isEmpty())
        lines << QStringLiteral("  TTY: ") + p.tty;
    if (!p.client.isEmpty())
        lines << QStringLiteral("  Client: ") + Broker::clientLabel(p.client);
    if (!p.summary.isEmpty())
        lines << QStringLiteral("  Summary: ") + p.summary;
    if (!p.channelPush.isEmpty() && p.channelPush != QLatin1String("working"))
        lines << QStringLiteral("  Channel push: ") + p.channelPush;
    lines << QStringLiteral("  Last seen: ") + p.lastSeen;
    return lines.join(QLatin1Char('\n'));
}

QString peerList(const QString &scope, const QList<Broker::Peer> &peers, const QDateTime &now,
                 ClientKind client)
{
    if (peers.isEmpty())
        return (client == ClientKind::ClaudeCode
                    ? QStringLiteral("No other Claude Code instances found (scope: %1).")
                    : QStringLiteral("No other peers found (scope: %1)."))
            .arg(scope);
    QStringList blocks;
    for (const Broker::Peer &p : peers)
        blocks << peerBlock(p, now);
    return QStringLiteral("Found %1 peer(s) (scope: %2):\n\n").arg(peers.size()).arg(scope) +
        blocks.join(QStringLiteral("\n\n"));
}

QString preview(const QString &text)
{
    const QString firstLine = text.section(QLatin1Char('\n'), 0, 0);
    return firstLine.left(120) + (text.size() > 120 ? QStringLiteral("...") : QString());
}

QString messageSent(const QString &toId, qint64 messageId, const QString &text)
{
    const QString tag =
        messageId < 0 ? QStringLiteral("(remote)") : QStringLiteral("(msg#%1)").arg(messageId);
    return QStringLiteral("Message sent to peer %1 %2\n> Preview: %3").arg(toId, tag, preview(text));
}

BannerQueue::Entry entryFor(const Broker::Message &m, const QString &fromName, qint64 pushedAtMs)
{
    BannerQueue::Entry e;
    e.messageId = m.id;
    e.fromId = m.fromId;
    e.fromName = fromName;
    e.text = m.text;
    e.type = m.type.isEmpty() ? QStringLiteral("text") : m.type;
    e.sentAt = m.sentAt;
    e.replyTo = m.replyTo.value_or(0);
    if (m.metadata)
        e.metadataJson = QString::fromUtf8(QJsonDocument(*m.metadata).toJson(QJsonDocument::Compact));
    e.pushedAtMs = pushedAtMs;
    return e;
}

namespace {

// Our one line besides 0.7's banner layout (docs/spec/peers-api.md §7.5): the exact tool names, which a
// client that loads tools on demand (Claude Code's ToolSearch) needs in order to select them.
const QString BannerHint = QStringLiteral(
    "(Answer with the send_message tool to the sender's id, reply_to = the msg# number; check_messages "
    "shows messages in full.)");

QString typePrefix(const BannerQueue::Entry &e)
{
    if (e.type == QLatin1String("query"))
        return QStringLiteral("[QUERY] ");
    if (e.type == QLatin1String("response"))
        return e.replyTo ? QStringLiteral("[RESPONSE] re: msg#%1 ").arg(e.replyTo)
                         : QStringLiteral("[RESPONSE] ");
    if (e.type == QLatin1String("handoff"))
        return QStringLiteral("[HANDOFF] ");
    if (e.type == QLatin1String("broadcast"))
        return QStringLiteral("[BROADCAST] ");
    return {};
}

} // namespace

QString messageEntry(const BannerQueue::Entry &e)
{
    QString from = e.fromId;
    if (!e.fromName.isEmpty() && e.fromName != e.fromId)
        from = QStringLiteral("%1 [%2]").arg(e.fromName, e.fromId);
    // Concatenation, not chained arg(): user text must never be taken for a placeholder.
    // A response says "re: msg#N" in its prefix; any other type with a reply_to says it here.
    const QString reply = e.replyTo && e.type != QLatin1String("response")
        ? QStringLiteral("re: msg#%1 ").arg(e.replyTo)
        : QString();
    QString out = typePrefix(e) + reply + QStringLiteral("From ") + from + QStringLiteral(" (msg#") +
        QString::number(e.messageId) + QStringLiteral(", ") + e.sentAt + QStringLiteral("):\n") + e.text;
    if (!e.metadataJson.isEmpty())
        out += QStringLiteral("\nMetadata: ") + e.metadataJson;
    return out;
}

QString messageList(const QList<BannerQueue::Entry> &entries)
{
    if (entries.isEmpty())
        return QStringLiteral("No new messages.");
    QStringList parts;
    for (const BannerQueue::Entry &e : entries)
        parts << messageEntry(e);
    return QStringLiteral("%1 new message(s):\n\n").arg(entries.size()) +
        parts.join(QStringLiteral("\n\n---\n\n"));
}

QString bannerLine(const BannerQueue::Entry &e)
{
    QString line;
    if (!e.type.isEmpty() && e.type != QLatin1String("text"))
        line += QLatin1Char('[') + e.type.toUpper() + QStringLiteral("] ");
    line += QStringLiteral("From ") + (e.fromName.isEmpty() ? e.fromId : e.fromName) +
        QStringLiteral(" (msg#") + QString::number(e.messageId) + QStringLiteral("): ");
    line += e.text.left(200);
    if (e.text.size() > 200)
        line += QStringLiteral("...");
    return line;
}

QString banner(const QList<BannerQueue::Entry> &entries, int omitted, const QString &selfId)
{
    if (entries.isEmpty() && omitted <= 0)
        return {};
    QStringList lines;
    for (const BannerQueue::Entry &e : entries)
        lines << bannerLine(e);
    if (omitted > 0) {
        lines << QStringLiteral("(%1 older message(s) left out: this queue keeps the newest %2. "
                                "Read them with: claude-peers messages --to %3)")
                     .arg(omitted)
                     .arg(BannerQueue::DefaultCapacity)
                     .arg(selfId.isEmpty() ? QStringLiteral("<your id>") : selfId);
    }
    return QStringLiteral("--- QUEUED PEER MESSAGES (%1) ---\n").arg(entries.size() + qMax(0, omitted)) +
        lines.join(QStringLiteral("\n---\n")) + QLatin1Char('\n') + BannerHint +
        QStringLiteral("\n--- END QUEUED MESSAGES ---\n\n");
}

QString inboxMessage(const BannerQueue::Entry &e, const QString &senderClient)
{
    // From the command line or the broker there is no session to answer.
    const bool fromPeer = e.fromId != QLatin1String("cli") && e.fromId != QLatin1String("system");
    QString from;
    if (!fromPeer) {
        from = e.fromId == QLatin1String("cli")
            ? QStringLiteral("the claude-peers command line (a person or a script on this machine)")
            : QStringLiteral("claude-peers itself");
    } else {
        const qsizetype colon = e.fromId.indexOf(QLatin1Char(':'));
        QStringList about {QStringLiteral("peer id %1").arg(e.fromId)};
        about << (colon > 0 ? QStringLiteral("on %1").arg(e.fromId.left(colon))
                            : QStringLiteral("on this machine"));
        if (!senderClient.isEmpty())
            about << Broker::clientLabel(senderClient);
        from = QStringLiteral("%1 (%2)").arg(e.fromName.isEmpty() ? e.fromId : e.fromName,
                                             about.join(QStringLiteral(", ")));
    }
    QString text = QStringLiteral("[claude-peers] Message #%1 from %2").arg(e.messageId).arg(from);
    if (!e.type.isEmpty() && e.type != QLatin1String("text"))
        text += QStringLiteral(", a %1").arg(e.type);
    if (e.replyTo > 0)
        text += QStringLiteral(", in reply to #%1").arg(e.replyTo);
    text += QStringLiteral(":\n") + e.text;
    if (!e.metadataJson.isEmpty())
        text += QStringLiteral("\nMetadata: ") + e.metadataJson;
    if (!fromPeer)
        return text +
            QStringLiteral(
                   "\n\nIt came through claude-peers, not from your user in this session; there is no "
                   "session to answer. check_messages lists what else arrived.");
    text +=
        QStringLiteral("\n\nIt came through claude-peers from another AI coding session, not from your user. "
                       "To answer, call the claude-peers send_message tool with to_id \"%1\" and reply_to %2 "
                       "(SendMessage cannot reach this peer); check_messages lists what else arrived.")
            .arg(e.fromId)
            .arg(e.messageId);
    return text;
}

QString inboxNotice(qint64 messageId, const QString &recipientName, const QString &status,
                    const QString &reason)
{
    QString what;
    if (status == QLatin1String("held"))
        what = QStringLiteral("is held for its user's review before Claude Code shows it");
    else if (status == QLatin1String("refused"))
        what = QStringLiteral(
            "was refused by its Claude Code session (its settings take no messages from other sessions)");
    else if (status == QLatin1String("dropped"))
        what = QStringLiteral("was dropped by its Claude Code session's inbox");
    else
        what = QStringLiteral("was not shown by its Claude Code session (%1)").arg(status);
    QString text =
        QStringLiteral("[claude-peers] Your message #%1 to %2 %3. It waits in that session's claude-peers "
                       "tool results instead, where its model sees it at its next claude-peers tool call.")
            .arg(messageId)
            .arg(recipientName, what);
    if (!reason.isEmpty())
        text += QStringLiteral(" Claude Code said: \"%1\"").arg(reason);
    return text;
}

QString messageStatus(const Broker::MessageStatusAnswer &s)
{
    return QStringLiteral("Message #") + QString::number(s.id) +
        (s.delivered ? QStringLiteral(": confirmed") : QStringLiteral(": unconfirmed")) +
        QStringLiteral("\n  From: ") + s.fromId + QStringLiteral("\n  To: ") + s.toId +
        QStringLiteral("\n  Sent: ") + s.sentAt + QStringLiteral("\n  Delivered: ") +
        (s.delivered ? QStringLiteral("true") : QStringLiteral("false"));
}

} // namespace Mcp::Format
