#include "tooldefinitions.h"

#include <QJsonArray>

namespace Mcp::ToolDefinitions {

namespace {

QJsonObject tool(const char *name, const QString &description, const QJsonObject &properties,
                 const QStringList &required)
{
    QJsonObject schema {{QStringLiteral("type"), QStringLiteral("object")},
                        {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        schema.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    if (properties.isEmpty())
        schema.insert(QStringLiteral("additionalProperties"), false);
    return QJsonObject {{QStringLiteral("name"), QLatin1String(name)},
                        {QStringLiteral("description"), description},
                        {QStringLiteral("inputSchema"), schema}};
}

QJsonObject stringProperty(const QString &description, const QStringList &values = {})
{
    QJsonObject p {{QStringLiteral("type"), QStringLiteral("string")},
                   {QStringLiteral("description"), description}};
    if (!values.isEmpty())
        p.insert(QStringLiteral("enum"), QJsonArray::fromStringList(values));
    return p;
}

const QStringList &scopes()
{
    static const QStringList s {QStringLiteral("machine"), QStringLiteral("directory"),
                                QStringLiteral("repo"), QStringLiteral("lan")};
    return s;
}

QString scopeDescription()
{
    return QStringLiteral(
        "Which peers: \"machine\" = every session on this computer; \"directory\" = sessions in the same "
        "working directory; \"repo\" = sessions in the same git checkout (its root or any subdirectory; "
        "separate worktrees count as different checkouts); \"lan\" = this machine plus peers on connected "
        "LAN machines (needs federation).");
}

// What a peer is called: the reference's "Claude Code instance" for Claude Code.
QString instance(ClientKind client)
{
    return client == ClientKind::ClaudeCode ? QStringLiteral("Claude Code instance")
                                            : QStringLiteral("AI coding session (peer)");
}

} // namespace

QJsonObject listPeers(ClientKind client)
{
    return tool(
        "list_peers",
        (client == ClientKind::ClaudeCode
             ? QStringLiteral("List other Claude Code instances (AI coding sessions) you can message: ")
             : QStringLiteral("List other AI coding sessions (Claude Code, OpenCode and others) you can "
                              "message: ")) +
            QStringLiteral(
                "their ID, name, client, working directory, git repo and what they are working on. "
                "Scope \"lan\" also finds peers on other machines of the LAN (needs federation)."),
        QJsonObject {{QStringLiteral("scope"), stringProperty(scopeDescription(), scopes())}},
        {QStringLiteral("scope")});
}

QJsonObject sendMessage(ClientKind client)
{
    return tool(
        "send_message",
        QStringLiteral("Send a message to another ") + instance(client) +
            QStringLiteral(
                " by peer ID. It is pushed into their session at once where their client shows "
                "pushed messages, and stored until their session has received it. IDs with a colon "
                "(hostname:peer_id) reach peers on other LAN machines through federation."),
        QJsonObject {
            {QStringLiteral("to_id"),
             stringProperty(
                 QStringLiteral("Peer ID of the recipient (from list_peers, or from_id of a message you "
                                "received). For a LAN peer: hostname:peer_id."))},
            {QStringLiteral("message"), stringProperty(QStringLiteral("The message text."))},
            {QStringLiteral("type"),
             stringProperty(
                 QStringLiteral("Message type (default text): query = a question that expects an answer, "
                                "response = your answer to a message (set reply_to), handoff = you hand "
                                "a task over, broadcast = an announcement."),
                 {QStringLiteral("text"), QStringLiteral("query"), QStringLiteral("response"),
                  QStringLiteral("handoff"), QStringLiteral("broadcast")})},
            {QStringLiteral("metadata"),
             QJsonObject {
                 {QStringLiteral("type"), QStringLiteral("object")},
                 {QStringLiteral("description"),
                  QStringLiteral("Optional structured data. Conventions: handoff {task, files?, context?}; "
                                 "query or response {topic?}.")}}},
            {QStringLiteral("reply_to"),
             QJsonObject {
                 {QStringLiteral("type"), QStringLiteral("number")},
                 {QStringLiteral("description"),
                  QStringLiteral("ID of the message you answer (message_id of the received message); the "
                                 "referenced message must exist.")}}}},
        {QStringLiteral("to_id"), QStringLiteral("message")});
}

QJsonObject setSummary(ClientKind)
{
    return tool(
        "set_summary",
        QStringLiteral("Set a 1-2 sentence summary of what you are working on, shown to other peers in "
                       "list_peers. Use \"[SessionName] concrete task\" and update it when your focus "
                       "changes."),
        QJsonObject {
            {QStringLiteral("summary"),
             stringProperty(QStringLiteral("e.g. \"[AUTH_WORKER] implementing JWT refresh in auth.ts\""))}},
        {QStringLiteral("summary")});
}

QJsonObject setName(ClientKind client)
{
    return tool(
        "set_name",
        client == ClientKind::ClaudeCode
            ? QStringLiteral(
                  "Set your session name (the one from /rename), shown to other peers in list_peers. "
                  "Call it at the start of a session and after every /rename.")
            : QStringLiteral("Set a short name for this session, shown to other peers in list_peers. Call it "
                             "at the start of a session."),
        QJsonObject {{QStringLiteral("name"), stringProperty(QStringLiteral("The session name."))}},
        {QStringLiteral("name")});
}

QJsonObject checkMessages(ClientKind client)
{
    return tool(
        "check_messages",
        mayShowChannels(client)
            ? QStringLiteral(
                  "Show messages from peers that you may not have seen yet: stored ones not pushed "
                  "to you and pushed ones not yet repeated in a tool result. Call it when you wait "
                  "for a reply, or when channel messages do not appear in your session.")
            : QStringLiteral("Show messages from peers that you have not seen yet. Call it when you wait for "
                             "a reply, and every few minutes."),
        QJsonObject(), {});
}

QJsonObject broadcastMessage(ClientKind client)
{
    return tool("broadcast_message",
                QStringLiteral("Send one message to every other ") + instance(client) +
                    QStringLiteral(" in a scope (each gets its own copy)."),
                QJsonObject {{QStringLiteral("message"), stringProperty(QStringLiteral("The message text."))},
                             {QStringLiteral("scope"), stringProperty(scopeDescription(), scopes())}},
                {QStringLiteral("message"), QStringLiteral("scope")});
}

QJsonObject messageStatus(ClientKind)
{
    return tool(
        "message_status",
        QStringLiteral("Check whether a message you sent was delivered: \"confirmed\" means the recipient's "
                       "session received it (written into the session), not that it was read."),
        QJsonObject {{QStringLiteral("message_id"),
                      QJsonObject {{QStringLiteral("type"), QStringLiteral("number")},
                                   {QStringLiteral("description"),
                                    QStringLiteral("The msg# that send_message reported.")}}}},
        {QStringLiteral("message_id")});
}

QJsonObject channelHealth(ClientKind)
{
    return tool(
        "channel_health",
        QStringLiteral("Diagnose message delivery: broker status, messages pending at the broker, the push "
                       "stream and this session's local queues."),
        QJsonObject(), {});
}

QJsonObject whoami(ClientKind)
{
    return tool(
        "whoami",
        QStringLiteral("Your own identity on the peer network: peer ID (what others send to), name, working "
                       "directory, git root, summary, the broker URL and how messages reach you."),
        QJsonObject(), {});
}

} // namespace Mcp::ToolDefinitions
