#pragma once

#include "privateheader.h"

#include <QtGlobal>

namespace Broker::Liveness {

// kill(pid, 0): ESRCH means the process is gone; EPERM means it exists but belongs to
// someone else, so it is alive (the reference counted EPERM as dead, §13.1 #9).
// pid <= 0 is never a live peer (kill(0, …) would address our own process group).
bool isProcessAlive(qint64 pid);

} // namespace Broker::Liveness
