#include "openchamber/tool/controltoolschema.h"

#include "openchamber/actioncatalog.h"

#include <QJsonArray>

namespace OpenChamber::ControlToolSchema {

namespace {

QJsonObject typed(const char *type, const QString &description)
{
    return {{QStringLiteral("type"), QLatin1String(type)}, {QStringLiteral("description"), description}};
}

QJsonObject bounded(const QString &description, qint64 minimum, qint64 maximum = 0)
{
    QJsonObject o = typed("integer", description);
    o.insert(QStringLiteral("minimum"), minimum);
    if (maximum > 0)
        o.insert(QStringLiteral("maximum"), maximum);
    return o;
}

QJsonObject parameters()
{
    const auto s = [](const char *description) { return typed("string", QString::fromUtf8(description)); };
    const auto b = [](const char *description) { return typed("boolean", QString::fromUtf8(description)); };
    QJsonObject role = s("Which messages to read (default all)");
    role.insert(QStringLiteral("enum"),
                QJsonArray {QStringLiteral("all"), QStringLiteral("user"), QStringLiteral("assistant")});
    const QJsonObject properties {
        {QStringLiteral("projectId"), s("Configured project id; do not combine with directory")},
        {QStringLiteral("directory"), s("Absolute directory; defaults to the current session's directory")},
        {QStringLiteral("sessionId"), s("Target session id")},
        {QStringLiteral("messageId"), s("Fork boundary message id (session.fork)")},
        {QStringLiteral("taskId"), s("Scheduled task id")},
        {QStringLiteral("title"), s("Title of the new session")},
        {QStringLiteral("prompt"), s("Prompt text to send")},
        {QStringLiteral("model"),
         s("provider/model; for session.create pick from models.list favorites or recents when the user "
           "names "
           "none; for send and fork omit it to keep the session's model")},
        {QStringLiteral("agent"), s("OpenCode agent name")},
        {QStringLiteral("variant"), s("Model variant name")},
        {QStringLiteral("worktree"), s("Name of a new git worktree for the session; only when asked")},
        {QStringLiteral("branch"), s("Branch of the new worktree")},
        {QStringLiteral("startRef"), s("Where the new worktree starts")},
        {QStringLiteral("setUpstream"), b("Set the worktree branch's upstream")},
        {QStringLiteral("goal"), b("Enable goal mode for the prompt")},
        {QStringLiteral("goalTokenBudget"), bounded(QStringLiteral("Goal token budget"), 1000, 100000000)},
        {QStringLiteral("wait"), b("Wait until the session is idle again before answering")},
        {QStringLiteral("timeout"),
         bounded(QStringLiteral("Seconds to wait (with wait; default 600)"), 1, 86400)},
        {QStringLiteral("lastAssistant"), b("Also return the last assistant message")},
        {QStringLiteral("limit"), bounded(QStringLiteral("How many sessions or messages (default 10)"), 1)},
        {QStringLiteral("all"), b("session.list: include archived; session.messages: every message")},
        {QStringLiteral("last"), b("session.messages: only the last message")},
        {QStringLiteral("withStatus"), b("session.list: add each session's status")},
        {QStringLiteral("role"), role},
        {QStringLiteral("name"), s("Scheduled task name")},
        {QStringLiteral("daily"), s("Daily time, HH:mm")},
        {QStringLiteral("weekly"), s("Comma-separated weekdays; 0=Sunday")},
        {QStringLiteral("once"), s("Date, YYYY-MM-DD")},
        {QStringLiteral("time"), s("Time for weekly or once, HH:mm")},
        {QStringLiteral("cron"), s("Cron expression")},
        {QStringLiteral("timezone"), s("IANA time zone, e.g. Europe/Berlin")},
        {QStringLiteral("peer"),
         s("schedule.create: instead of model, the session name (else id) of a peer on this machine; at the "
           "task's time the prompt goes to it as a message from the operator; no projectId or directory")},
        {QStringLiteral("peers"),
         b("schedule.list: list the tasks that message peers instead of a project's")},
        {QStringLiteral("disabled"),
         b("schedule.toggle: true disables, false enables; schedule.create: create "
           "disabled")},
    };
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("additionalProperties"), false},
            {QStringLiteral("description"),
             QStringLiteral("Inputs for the action; use an empty object when none are "
                            "needed")},
            {QStringLiteral("properties"), properties}};
}

} // namespace

QJsonObject inputSchema()
{
    QJsonArray names;
    QJsonArray oneOf;
    for (const ActionInfo &action : controlActions()) {
        if (!action.agentExposed)
            continue;
        names.append(action.name);
        oneOf.append(QJsonObject {{QStringLiteral("const"), action.name},
                                  {QStringLiteral("description"),
                                   QString(action.title + QStringLiteral(": ") + action.description)}});
    }
    const QJsonObject action {
        {QStringLiteral("type"), QStringLiteral("string")},
        {QStringLiteral("enum"), names},
        {QStringLiteral("oneOf"), oneOf},
        {QStringLiteral("description"), QStringLiteral("OpenChamber action to perform")}};
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject {{QStringLiteral("action"), action}, {QStringLiteral("parameters"), parameters()}}},
            {QStringLiteral("required"), QJsonArray {QStringLiteral("action")}}};
}

QString description(Mcp::ClientKind)
{
    return QStringLiteral(
        "Drive OpenCode sessions and scheduled tasks through the local claude-peers broker: list projects "
        "and "
        "models, create, send to, fork and read sessions, manage scheduled tasks. One action per call. "
        "session.create, session.send and session.fork return as soon as the prompt is dispatched, with no "
        "notification when it completes: use session.messages (with wait or lastAssistant) to read the "
        "result, "
        "or pass wait: true to answer when the session is idle again. session.send always sends a NEW "
        "prompt. "
        "Deletion of sessions is not available. Never use it to delegate your own current task. The answer "
        "is "
        "JSON: {schemaVersion, ok, action, data} or {ok: false, error: {message, kind}}.");
}

} // namespace OpenChamber::ControlToolSchema
