#include "liveness.h"

#include <cerrno>
#include <csignal>
#include <limits>
#include <sys/types.h>

namespace Broker::Liveness {

bool isProcessAlive(qint64 pid)
{
    if (pid <= 0 || pid > std::numeric_limits<pid_t>::max())
        return false;
    if (::kill(pid_t(pid), 0) == 0)
        return true;
    return errno == EPERM;
}

} // namespace Broker::Liveness
