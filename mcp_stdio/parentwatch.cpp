#include "parentwatch.h"

#include "logging.h"

#include <QTimer>

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace Mcp {

ParentWatch::ParentWatch(int intervalMs, QObject *parent)
    : QObject(parent), m_parent(qint64(::getppid())), m_timer(new QTimer(this))
{
    m_timer->setInterval(intervalMs);
    m_timer->setTimerType(Qt::VeryCoarseTimer); // no need for precision: fewer wake-ups
    connect(m_timer, &QTimer::timeout, this, &ParentWatch::check);
}

void ParentWatch::start()
{
    if (m_parent <= 1 || m_timer->interval() <= 0) {
        qCInfo(lcStdio) << "not watching the parent process (ppid" << m_parent << ")";
        return;
    }
    m_timer->start();
}

bool ParentWatch::isWatching() const
{
    return m_timer->isActive();
}

bool ParentWatch::check()
{
    if (m_reported)
        return false;
    const bool reparented = qint64(::getppid()) != m_parent;
    const bool gone = ::kill(pid_t(m_parent), 0) != 0 && errno == ESRCH;
    if (!reparented && !gone)
        return true;
    m_reported = true;
    m_timer->stop();
    qCInfo(lcStdio) << "parent process" << m_parent << "is gone";
    Q_EMIT parentDied(m_parent);
    return false;
}

} // namespace Mcp
