#pragma once

#include <QObject>

class QSocketNotifier;
class QTimer;

namespace Mcp {

// Notices when the process that started us (Claude Code) is gone, even if it could not close
// our stdin (killed with SIGKILL while a grandchild holds the pipe). Linux: a pidfd of the
// parent becomes readable when it exits, so an idle helper does not wake up for this at all.
// Elsewhere, or when pidfd_open is refused: every few seconds, our parent pid changed
// (re-parented) or kill(ppid, 0) says it no longer exists.
class ParentWatch : public QObject
{
    Q_OBJECT
public:
    explicit ParentWatch(int intervalMs = 5000, QObject *parent = nullptr);
    ~ParentWatch() override;

    // Starts watching; does nothing when we were started by init (ppid 1).
    void start();
    qint64 originalParent() const { return m_parent; }
    bool isWatching() const;
    bool usesPidfd() const { return m_pidfd >= 0; }

    // One check now; emits parentDied() when the parent is gone.
    bool check();

Q_SIGNALS:
    void parentDied(qint64 pid);

private:
    qint64 m_parent;
    int m_pidfd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_timer;
    bool m_reported = false;
};

} // namespace Mcp
