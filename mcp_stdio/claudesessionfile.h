#pragma once

#include "common/dto.h"
#include "common/result.h"

#include <QByteArray>
#include <QString>

// The file in which Claude Code (2.1.3xx) publishes one interactive session's state:
// <config dir>/sessions/<pid>.json, where the config dir is $CLAUDE_CONFIG_DIR or ~/.claude and
// pid is Claude Code's own process (docs/mcp-helper.md, "State without hooks"). Untrusted
// bytes: bounded, and anything that is not an object with a known status is an error.
namespace Mcp::ClaudeSessionFile {

inline constexpr qsizetype MaxBytes = 64 * 1024; // a few hundred bytes in practice

struct Record
{
    QString sessionId;
    QString name;
    QString cwd;
    QString status; // "idle", "busy", "waiting" or "shell" (idle, a background command running)
    QString waitingFor; // with "waiting": "permission prompt", "dialog open", "input needed", …
    QString messagingSocketPath;
};

Broker::Result<Record> parse(const QByteArray &bytes);

// The attention state the record stands for: waiting is needs-you (with what it waits for as
// the message), busy is busy, idle and shell are idle.
struct State
{
    Broker::Attention attention = Broker::Attention::Unknown;
    QString message;
    bool operator==(const State &) const = default;
};
State stateOf(const Record &record);

// <dir>/sessions for the environment's CLAUDE_CONFIG_DIR, else <home>/.claude/sessions.
QString sessionsDir(const QString &claudeConfigDir, const QString &home);

} // namespace Mcp::ClaudeSessionFile
