#include "mcp_stdio/tooldefinitions.h"

#include "mcp_stdio/toolschema.h"

namespace Mcp::ToolDefinitions {

namespace {

using ToolSchema::number;
using ToolSchema::object;
using ToolSchema::string;

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

QString listPeersDescription(ClientKind client)
{
    return (client == ClientKind::ClaudeCode
                ? QStringLiteral("List other Claude Code instances (AI coding sessions) you can message: ")
                : QStringLiteral("List other AI coding sessions (Claude Code, OpenCode and others) you can "
                                 "message: ")) +
        QStringLiteral("their ID, name, client, working directory, git repo and what they are working on. "
                       "Scope \"lan\" also finds peers on other machines of the LAN (needs federation).");
}

QJsonObject listPeersSchema()
{
    return object({{QStringLiteral("scope"), string(scopeDescription(), scopes())}},
                  {QStringLiteral("scope")});
}

QString sendMessageDescription(ClientKind client)
{
    return QStringLiteral("Send a message to another ") + instance(client) +
        QStringLiteral(" by peer ID. It is pushed into their session at once where their client shows "
                       "pushed messages, and stored until their session has received it. IDs with a colon "
                       "(hostname:peer_id) reach peers on other LAN machines through federation.");
}

QJsonObject sendMessageSchema()
{
    return object(
        {{QStringLiteral("to_id"),
          string(QStringLiteral("Peer ID of the recipient (from list_peers, or from_id of a message you "
                                "received). For a LAN peer: hostname:peer_id."))},
         {QStringLiteral("message"), string(QStringLiteral("The message text."))},
         {QStringLiteral("type"),
          string(QStringLiteral("Message type (default text): query = a question that expects an answer, "
                                "response = your answer to a message (set reply_to), handoff = you hand "
                                "a task over, broadcast = an announcement."),
                 {QStringLiteral("text"), QStringLiteral("query"), QStringLiteral("response"),
                  QStringLiteral("handoff"), QStringLiteral("broadcast")})},
         {QStringLiteral("metadata"),
          ToolSchema::anyObject(
              QStringLiteral("Optional structured data. Conventions: handoff {task, files?, "
                             "context?}; query or response {topic?}."))},
         {QStringLiteral("reply_to"),
          number(QStringLiteral("ID of the message you answer (message_id of the received message); the "
                                "referenced message must exist."))}},
        {QStringLiteral("to_id"), QStringLiteral("message")});
}

QString setSummaryDescription(ClientKind)
{
    return QStringLiteral("Set a 1-2 sentence summary of what you are working on, shown to other peers in "
                          "list_peers. Use \"[SessionName] concrete task\" and update it when your focus "
                          "changes.");
}

QJsonObject setSummarySchema()
{
    return object({{QStringLiteral("summary"),
                    string(QStringLiteral("e.g. \"[AUTH_WORKER] implementing JWT refresh in auth.ts\""))}},
                  {QStringLiteral("summary")});
}

QString setNameDescription(ClientKind client)
{
    return client == ClientKind::ClaudeCode
        ? QStringLiteral("Set your session name (the one from /rename), shown to other peers in list_peers. "
                         "Call it at the start of a session and after every /rename.")
        : QStringLiteral("Set a short name for this session, shown to other peers in list_peers. Call it at "
                         "the start of a session.");
}

QJsonObject setNameSchema()
{
    return object({{QStringLiteral("name"), string(QStringLiteral("The session name."))}},
                  {QStringLiteral("name")});
}

QString checkMessagesDescription(ClientKind client)
{
    return mayShowChannels(client)
        ? QStringLiteral("Show messages from peers that you may not have seen yet: stored ones not pushed "
                         "to you and pushed ones not yet repeated in a tool result. Call it when you wait "
                         "for a reply, or when channel messages do not appear in your session.")
        : QStringLiteral("Show messages from peers that you have not seen yet. Call it when you wait for a "
                         "reply, and every few minutes.");
}

QString broadcastMessageDescription(ClientKind client)
{
    return QStringLiteral("Send one message to every other ") + instance(client) +
        QStringLiteral(" in a scope (each gets its own copy).");
}

QJsonObject broadcastMessageSchema()
{
    return object({{QStringLiteral("message"), string(QStringLiteral("The message text."))},
                   {QStringLiteral("scope"), string(scopeDescription(), scopes())}},
                  {QStringLiteral("message"), QStringLiteral("scope")});
}

QString messageStatusDescription(ClientKind)
{
    return QStringLiteral(
        "Check whether a message you sent was delivered: \"confirmed\" means the recipient's "
        "session received it (written into the session), not that it was read.");
}

QJsonObject messageStatusSchema()
{
    return object(
        {{QStringLiteral("message_id"), number(QStringLiteral("The msg# that send_message reported."))}},
        {QStringLiteral("message_id")});
}

QString channelHealthDescription(ClientKind)
{
    return QStringLiteral(
        "Diagnose message delivery: broker status, messages pending at the broker, the push "
        "stream and this session's local queues.");
}

QString whoamiDescription(ClientKind)
{
    return QStringLiteral(
        "Your own identity on the peer network: peer ID (what others send to), name, working "
        "directory, git root, summary, the broker URL and how messages reach you.");
}

QJsonObject noArguments()
{
    return object();
}

} // namespace

const Definition listPeers {"list_peers", &listPeersDescription, &listPeersSchema};
const Definition sendMessage {"send_message", &sendMessageDescription, &sendMessageSchema};
const Definition setSummary {"set_summary", &setSummaryDescription, &setSummarySchema};
const Definition setName {"set_name", &setNameDescription, &setNameSchema};
const Definition checkMessages {"check_messages", &checkMessagesDescription, &noArguments};
const Definition broadcastMessage {"broadcast_message", &broadcastMessageDescription,
                                   &broadcastMessageSchema};
const Definition messageStatus {"message_status", &messageStatusDescription, &messageStatusSchema};
const Definition channelHealth {"channel_health", &channelHealthDescription, &noArguments};
const Definition whoami {"whoami", &whoamiDescription, &noArguments};

const QList<const Definition *> &all()
{
    static const QList<const Definition *> list {&listPeers,     &sendMessage,   &setSummary,
                                                 &setName,       &checkMessages, &broadcastMessage,
                                                 &messageStatus, &channelHealth, &whoami};
    return list;
}

} // namespace Mcp::ToolDefinitions
