#pragma once

#include "mcp_stdio/claudesessionfile.h"

#include <QObject>
#include <QString>

#include <optional>

class QFileSystemWatcher;

namespace Mcp {

// Follows the state file of the Claude Code session this helper belongs to
// (ClaudeSessionFile) and says when its attention state changes: the tray, notifications, idle
// hand-over and `claude-peers wait` then work with no hook installed. inotify through
// QFileSystemWatcher on the file itself (on its folder only until it exists): nothing runs while
// it does not change, other sessions' files included. Claude Code writes it in place; a
// replacement is seen too. A file that goes away means the state is unknown.
class ClaudeSessionWatch : public QObject
{
    Q_OBJECT
public:
    explicit ClaudeSessionWatch(QObject *parent = nullptr);

    // The session file whose messagingSocketPath is the inbox Claude Code gave this helper, else
    // the one of the nearest ancestor of this process that has one (Claude Code starts the helper
    // directly, perhaps through a wrapper). Empty when there is none yet.
    static QString findSessionFile(const QString &sessionsDir, const QString &messagingSocket);

    // Starts following path; reads it at once.
    void start(const QString &path);
    QString path() const { return m_path; }
    std::optional<ClaudeSessionFile::State> state() const { return m_state; }

Q_SIGNALS:
    void stateChanged(const ClaudeSessionFile::State &state);

private:
    void watch();
    void reread();

    QFileSystemWatcher *m_watcher;
    QString m_path;
    std::optional<ClaudeSessionFile::State> m_state;
};

} // namespace Mcp
