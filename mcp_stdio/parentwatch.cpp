#include "mcp_stdio/parentwatch.h"

#include "mcp_stdio/mcplogging.h"

#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <sys/syscall.h>
#include <unistd.h>

namespace Mcp {

ParentWatch::ParentWatch(int intervalMs, QObject *parent)
    : QObject(parent), m_parent(qint64(::getppid())), m_timer(new QTimer(this))
{
    m_timer->setInterval(intervalMs);
    m_timer->setTimerType(Qt::VeryCoarseTimer);
    connect(m_timer, &QTimer::timeout, this, &ParentWatch::check);
}

ParentWatch::~ParentWatch()
{
    if (m_pidfd >= 0)
        ::close(m_pidfd);
}

void ParentWatch::start()
{
    if (m_parent <= 1) {
        qCInfo(lcStdio) << "not watching the parent process (ppid" << m_parent << ")";
        return;
    }
#ifdef SYS_pidfd_open
    m_pidfd = int(::syscall(SYS_pidfd_open, pid_t(m_parent), 0));
#endif
    if (m_pidfd >= 0 && check()) {
        // The parent could have died before the pidfd existed: check() above covers that.
        m_notifier = new QSocketNotifier(qintptr(m_pidfd), QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            m_notifier->setEnabled(false);
            check();
        });
        return;
    }
    if (m_timer->interval() > 0)
        m_timer->start();
}

bool ParentWatch::isWatching() const
{
    return (m_notifier && m_notifier->isEnabled()) || m_timer->isActive();
}

bool ParentWatch::check()
{
    if (m_reported)
        return false;
    const bool reparented = qint64(::getppid()) != m_parent;
    const bool gone = ::kill(pid_t(m_parent), 0) != 0 && errno == ESRCH;
    // A pidfd turns readable when the process exits; it may linger as a zombie for a while,
    // which kill(ppid, 0) still reports as existing.
    const bool exited = m_notifier && !m_notifier->isEnabled();
    if (!reparented && !gone && !exited)
        return true;
    m_reported = true;
    m_timer->stop();
    qCInfo(lcStdio) << "parent process" << m_parent << "is gone";
    Q_EMIT parentDied(m_parent);
    return false;
}

} // namespace Mcp
