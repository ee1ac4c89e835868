#pragma once

#include <QObject>

class QTimer;

namespace Mcp {

// Notices when the process that started us (Claude Code) is gone, even if it could not close
// our stdin (killed with SIGKILL while a grandchild holds the pipe): our parent pid changes
// (we were re-parented) or kill(ppid, 0) says it no longer exists. Checked every few seconds.
class ParentWatch : public QObject
{
    Q_OBJECT
public:
    explicit ParentWatch(int intervalMs = 2000, QObject *parent = nullptr);

    // Starts watching; does nothing when we were started by init (ppid 1) or intervalMs <= 0.
    void start();
    qint64 originalParent() const { return m_parent; }
    bool isWatching() const;

    // One check now; emits parentDied() when the parent is gone.
    bool check();

Q_SIGNALS:
    void parentDied(qint64 pid);

private:
    qint64 m_parent;
    QTimer *m_timer;
    bool m_reported = false;
};

} // namespace Mcp
