#pragma once

#include "broker/handover/fdpassing.h"

#include <vector>

// systemd socket activation (sd_listen_fds(3) semantics, written out: the broker does not link
// libsystemd, docs/decisions.md): LISTEN_PID names this process and LISTEN_FDS counts the
// descriptors from 3 on. The variables are removed (so a child does not take them for its own)
// and the descriptors made close-on-exec.
namespace Broker::Handover {

struct ActivatedSocket
{
    quint16 port = 0;
    Fd::Owned fd;
};

// Listening TCP sockets passed by systemd; empty when none (or not for this pid). A passed
// descriptor that is not a listening TCP socket is closed with a warning.
std::vector<ActivatedSocket> takeActivatedSockets();

} // namespace Broker::Handover
