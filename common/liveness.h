#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QtGlobal>

namespace Broker::Liveness {

// Whether a process with that pid exists and has not exited, for the broker (peers' pids) and
// the clients (the broker's pid) alike:
// - kill(pid, 0) failing with ESRCH: gone;
// - EPERM: it exists but belongs to another user, so alive (the reference counted it dead,
//   docs/spec/peers-api.md §13.1 #9);
// - a zombie (exited, not reaped yet by its parent) still answers kill(pid, 0): gone;
// - pid <= 0 or beyond pid_t: never a process (kill(0, …) would address our own group).
bool isProcessAlive(qint64 pid);

// The same verdicts for a caller that asks about the same pids many times a second (the
// broker, for the target of every message): kill(pid, 0) every time, as cheap as before, but
// the zombie look into /proc (open, read, close: ~55 us against ~3 us for a kill() on our
// loaded 2-core VM, more than the whole budget of a message) at most once per zombieRecheckMs
// per pid, so a process that became a zombie is seen as dead within
// that time, and one that is gone at once.
class Checker
{
public:
    explicit Checker(int zombieRecheckMs = 1000);
    bool isProcessAlive(qint64 pid);

private:
    int m_recheckMs;
    QElapsedTimer m_clock;
    QHash<qint64, qint64> m_notZombieAt; // pid -> when /proc last said "not a zombie"
};

} // namespace Broker::Liveness
