#pragma once

#include <QString>

namespace App {

// What a person pastes to connect their sessions to claude-peers, built for the programs this
// tray was installed with; shown with copy buttons in Settings and in the first-run wizard.
struct ConnectSnippets
{
    QString helperPath; // claude-peers-mcp
    QString cliPath; // claude-peers (the hook command)

    // Next to this program when installed together, else found on PATH, else the bare name.
    static ConnectSnippets forInstalledPrograms(const QString &applicationDir);

    // claude mcp add --scope user --transport stdio claude-peers -- <helper>
    QString claudeMcpAddLine() const;
    // The "mcp" entry of opencode.json (docs/mcp-helper.md).
    QString openCodeConfig() const;
    // The settings.json "hooks" block that runs `claude-peers hook <event>` (ClaudeHooks).
    QString claudeHooksSettings() const;
};

} // namespace App
