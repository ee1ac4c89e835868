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
        "Which peers: \"machine\" = every instance on this computer; \"directory\" = instances in the same "
        "working directory; \"repo\" = instances in the same git checkout (its root or any subdirectory; "
        "separate worktrees count as different checkouts); \"lan\" = this machine plus peers on connected "
        "LAN machines (needs federation).");
}

} // namespace

QJsonObject listPeers()
{
    return tool(
        "list_peers",
        QStringLiteral("List other Claude Code instances (AI coding sessions) you can message: their ID, "
                       "name, working directory, git repo and what they are working on. Scope \"lan\" also "
                       "finds peers on other machines of the LAN (needs federation)."),
        QJsonObject {{QStringLiteral("scope"), stringProperty(scopeDescription(), scopes())}},
        {QStringLiteral("scope")});
}

QJsonObject sendMessage()
{
    return tool(
        "send_message",
        QStringLiteral("Send a message to another Claude Code instance by peer ID. It is pushed into their "
                       "session at once (channel) and stored until their session has received it. IDs with "
                       "a colon (hostname:peer_id) reach peers on other LAN machines through federation."),
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

QJsonObject setSummary()
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

QJsonObject setName()
{
    return tool(
        "set_name",
        QStringLiteral("Set your session name (the one from /rename), shown to other peers in list_peers. "
                       "Call it at the start of a session and after every /rename."),
        QJsonObject {{QStringLiteral("name"), stringProperty(QStringLiteral("The session name."))}},
        {QStringLiteral("name")});
}

QJsonObject checkMessages()
{
    return tool(
        "check_messages",
        QStringLiteral("Show messages from peers that you may not have seen yet: stored ones not pushed to "
                       "you and pushed ones not yet repeated in a tool result. Call it when you wait for a "
                       "reply, or when channel messages do not appear in your session."),
        QJsonObject(), {});
}

QJsonObject broadcastMessage()
{
    return tool(
        "broadcast_message",
        QStringLiteral("Send one message to every other Claude Code instance in a scope (each gets its own "
                       "copy)."),
        QJsonObject {{QStringLiteral("message"), stringProperty(QStringLiteral("The message text."))},
                     {QStringLiteral("scope"), stringProperty(scopeDescription(), scopes())}},
        {QStringLiteral("message"), QStringLiteral("scope")});
}

QJsonObject messageStatus()
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

QJsonObject channelHealth()
{
    return tool(
        "channel_health",
        QStringLiteral("Diagnose message delivery: broker status, messages pending at the broker, the push "
                       "stream and this session's local queues."),
        QJsonObject(), {});
}

QJsonObject whoami()
{
    return tool(
        "whoami",
        QStringLiteral("Your own identity on the peer network: peer ID (what others send to), name, working "
                       "directory, git root, summary, the broker URL and whether messages are pushed."),
        QJsonObject(), {});
}

} // namespace Mcp::ToolDefinitions
