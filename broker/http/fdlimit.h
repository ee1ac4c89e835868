#pragma once

#include <QtGlobal>

namespace Broker::Http {

// Raises the soft RLIMIT_NOFILE to the hard limit: a broker holds one descriptor per client, and
// the usual soft default (1024) is far below what the hard limit allows. Returns the soft limit in
// force afterwards; -1 when there is none (RLIM_INFINITY) or it cannot be read.
qint64 raiseFileDescriptorLimit();

// Descriptors kept for everything that is not a client connection: stdio, the listening socket,
// the database with its -wal and -shm, the lock and pid files, event and signal pipes, and room
// for whatever a library opens on its own.
inline constexpr int kReservedFileDescriptors = 32;

// The largest connection cap (at most `wanted`) that keeps accept() clear of EMFILE under
// fdLimit (-1: no limit). Each counted connection may have a refused one lingering beside it
// (Connection::startClose bounds those to as many again), hence half of what is not reserved.
int connectionCapForFdLimit(qint64 fdLimit, int wanted);

} // namespace Broker::Http
