#pragma once

#include "broker/handover/fdpassing.h"
#include "broker/handover/handoverwire.h"
#include "common/result.h"

#include <vector>

namespace Broker::Handover {

// The successor's side: asks the broker on the hand-over socket for its listening sockets and
// waits until it has closed its database. Blocking with deadlines (poll): a successor has
// nothing else to serve before it has the sockets, and the tray runs it on the broker thread.
struct Inherited
{
    qint64 fromPid = 0;
    struct Socket
    {
        Listener listener;
        Fd::Owned fd;
    };
    std::vector<Socket> sockets;
    qint64 offerMs = 0; // request → sockets received
    qint64 doneMs = 0; // request → the old broker's database closed
};

struct TakeOverTimeouts
{
    int offerMs = 3000;
    int doneMs = 15000; // its drain (about a second at most) and its last commit
};

// Errors: Missing (no hand-over socket: no broker of ours runs, or an old one), Unreachable (a
// stale socket), HandoverRefused (it said no, and why), HandoverTimeout, BadRequest (an answer
// that does not parse, or descriptors that are not the listening sockets it names).
Result<Inherited> takeOver(const QString &socketPath, const Request &request, TakeOverTimeouts timeouts = {});

} // namespace Broker::Handover
