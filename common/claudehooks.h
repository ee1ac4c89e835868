#pragma once

#include "common/dto.h"
#include "common/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// Claude Code hooks as a source of a session's attention state: what `claude-peers hook <event>`
// reads on stdin, what each event means, and the settings.json snippet that installs it. Shared
// by the CLI, which runs the hook, and the tray, which shows the snippet in its Settings.
namespace Broker::ClaudeHooks {

// The fields of a hook's JSON input we use (Claude Code sends more: transcript_path,
// permission_mode, …).
struct Input
{
    QString event; // hook_event_name, else the command line's event
    QString sessionId;
    QString cwd;
    QString message; // Notification: what Claude Code tells the user
    QString notificationType; // Notification: permission_prompt, idle_prompt, auth_success, …
};

// stdin of a hook: a JSON object, or nothing at all (run by hand). Anything else is
// ErrorKind::BadJson. The event of the JSON wins over eventArgument; one of them must be set
// (ErrorKind::Usage otherwise).
Result<Input> parseInput(const QByteArray &stdinBytes, const QString &eventArgument);

struct Report
{
    Attention state = Attention::Unknown;
    QString message;
};

// Notification → needs-you (except auth_success), UserPromptSubmit → busy, Stop → idle,
// SessionEnd → unknown; nullopt for every other event (nothing to report).
std::optional<Report> reportFor(const Input &input);

// The events the snippet installs, in the order above.
QStringList installedEvents();

// {"hooks":{"Notification":[{"hooks":[{"type":"command","command":"<program> hook Notification",
// "timeout":5}]}], …}} for ~/.claude/settings.json; program is quoted for the shell when needed.
QJsonObject settingsSnippet(const QString &program);
QByteArray settingsSnippetText(const QString &program); // indented JSON, ending in a newline

} // namespace Broker::ClaudeHooks
