#include "common/liveness.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <limits>
#include <string_view>
#include <sys/types.h>
#include <unistd.h>

namespace Broker::Liveness {

namespace {

bool isZombie(qint64 pid)
{
#ifdef Q_OS_LINUX
    // /proc/<pid>/stat: "pid (comm) S ..."; comm may hold spaces and parentheses, so the state
    // is the field after the last ')'. Plain POSIX calls: the broker asks this for the target of
    // every message it stores, and QFile costs several times more.
    char path[40];
    std::snprintf(path, sizeof path, "/proc/%lld/stat", static_cast<long long>(pid));
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char line[512];
    const ssize_t n = ::read(fd, line, sizeof line);
    ::close(fd);
    if (n <= 0)
        return false;
    const std::string_view text(line, std::size_t(n));
    const std::size_t paren = text.rfind(')');
    return paren != std::string_view::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
#else
    Q_UNUSED(pid);
    return false;
#endif
}

enum class Existence { Exists, Gone };

// kill(pid, 0) alone: Exists also for a zombie.
Existence probe(qint64 pid)
{
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max())
        return Existence::Gone;
    if (::kill(pid_t(pid), 0) == 0 || errno == EPERM)
        return Existence::Exists;
    return Existence::Gone;
}

} // namespace

bool isProcessAlive(qint64 pid)
{
    return probe(pid) == Existence::Exists && !isZombie(pid);
}

Checker::Checker(int zombieRecheckMs) : m_recheckMs(zombieRecheckMs)
{
    m_clock.start();
}

bool Checker::isProcessAlive(qint64 pid)
{
    if (probe(pid) == Existence::Gone) {
        m_notZombieAt.remove(pid);
        return false;
    }
    const qint64 now = m_clock.elapsed();
    const auto seen = m_notZombieAt.constFind(pid);
    if (seen != m_notZombieAt.constEnd() && now - *seen < m_recheckMs)
        return true;
    if (isZombie(pid)) {
        m_notZombieAt.remove(pid);
        return false;
    }
    if (m_notZombieAt.size() >= 4096) // bounded: pids of long-gone peers go
        m_notZombieAt.clear();
    m_notZombieAt.insert(pid, now);
    return true;
}

} // namespace Broker::Liveness
