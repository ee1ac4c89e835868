#pragma once

#include <QByteArray>
#include <QString>

// The controlling terminal of a process, read from /proc (docs/spec/peers-api.md §7.9): a session's peer id
// is derived from it. Shared by the MCP helper, which registers with its parent's terminal, and
// `claude-peers hook`, which finds the same peer from inside a hook Claude Code started.
namespace Broker::ProcessTty {

// Name as `ps -o tty=` prints it ("pts/44", "tty1", "ttyS0") for a tty_nr device number from
// /proc/<pid>/stat; empty for 0 (no terminal) or an unknown major number.
QString nameFromDeviceNumber(quint64 ttyNr);

// The tty field of a /proc/<pid>/stat line (the 7th field, after the parenthesised comm that
// may itself contain spaces and parentheses); -1 when the line does not parse.
qint64 ttyNrFromStat(const QByteArray &statLine);

// The ppid field of such a line (the 4th); -1 when the line does not parse.
qint64 parentPidFromStat(const QByteArray &statLine);

// The controlling terminal of process pid; empty = none.
QString forProcess(qint64 pid);

// The parent of process pid; -1 when it cannot be read (the process is gone).
qint64 parentOf(qint64 pid);

} // namespace Broker::ProcessTty
