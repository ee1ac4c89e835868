#include "common/claudehooks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace Broker::ClaudeHooks {

namespace {

// Claude Code waits this long at most (seconds); the hook itself gives up far sooner.
constexpr int ClaudeCodeTimeoutSeconds = 5;

QString shellQuoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./+:=@%-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

Result<Input> parseInput(const QByteArray &stdinBytes, const QString &eventArgument)
{
    Input input;
    if (!stdinBytes.trimmed().isEmpty()) {
        QJsonParseError error {};
        const QJsonDocument document = QJsonDocument::fromJson(stdinBytes, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            return fail(ErrorKind::BadJson,
                        QStringLiteral("the hook's input is not a JSON object (%1); nothing was reported. "
                                       "Is this command installed as a Claude Code hook?")
                            .arg(error.error != QJsonParseError::NoError
                                     ? error.errorString()
                                     : QStringLiteral("another JSON value")));
        const QJsonObject o = document.object();
        input.event = o.value(QStringLiteral("hook_event_name")).toString();
        input.sessionId = o.value(QStringLiteral("session_id")).toString();
        input.cwd = o.value(QStringLiteral("cwd")).toString();
        input.message = o.value(QStringLiteral("message")).toString();
        input.notificationType = o.value(QStringLiteral("notification_type")).toString();
    }
    if (input.event.isEmpty())
        input.event = eventArgument;
    if (input.event.isEmpty())
        return fail(ErrorKind::Usage,
                    QStringLiteral("no hook event: name it (claude-peers hook Notification) "
                                   "or pass the hook's JSON with hook_event_name on stdin"));
    return input;
}

std::optional<Report> reportFor(const Input &input)
{
    if (input.event == u"Notification") {
        if (input.notificationType == u"auth_success")
            return std::nullopt; // not a question for the human
        return Report {Attention::NeedsYou, input.message.left(512)};
    }
    if (input.event == u"UserPromptSubmit")
        return Report {Attention::Busy, {}};
    if (input.event == u"Stop")
        return Report {Attention::Idle, {}};
    if (input.event == u"SessionEnd")
        return Report {Attention::Unknown, {}};
    return std::nullopt;
}

QStringList installedEvents()
{
    return {QStringLiteral("Notification"), QStringLiteral("UserPromptSubmit"), QStringLiteral("Stop"),
            QStringLiteral("SessionEnd")};
}

QJsonObject settingsSnippet(const QString &program)
{
    QJsonObject hooks;
    for (const QString &event : installedEvents()) {
        const QJsonObject command {
            {QStringLiteral("type"), QStringLiteral("command")},
            {QStringLiteral("command"), QStringLiteral("%1 hook %2").arg(shellQuoted(program), event)},
            {QStringLiteral("timeout"), ClaudeCodeTimeoutSeconds}};
        hooks.insert(event, QJsonArray {QJsonObject {{QStringLiteral("hooks"), QJsonArray {command}}}});
    }
    return {{QStringLiteral("hooks"), hooks}};
}

QByteArray settingsSnippetText(const QString &program)
{
    return QJsonDocument(settingsSnippet(program)).toJson(QJsonDocument::Indented);
}

} // namespace Broker::ClaudeHooks
