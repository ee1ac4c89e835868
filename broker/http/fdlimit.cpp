#include "broker/http/fdlimit.h"

#include <sys/resource.h>

namespace Broker::Http {

qint64 raiseFileDescriptorLimit()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return -1;
    if (limit.rlim_cur != limit.rlim_max) {
        rlimit raised {limit.rlim_max, limit.rlim_max};
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit = raised;
    }
    if (limit.rlim_cur == RLIM_INFINITY)
        return -1;
    return qint64(limit.rlim_cur);
}

int connectionCapForFdLimit(qint64 fdLimit, int wanted)
{
    if (fdLimit < 0)
        return wanted;
    const qint64 fit = (fdLimit - kReservedFileDescriptors) / 2;
    return int(qBound(qint64(1), fit, qint64(qMax(1, wanted))));
}

} // namespace Broker::Http
