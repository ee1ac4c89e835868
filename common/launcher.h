#pragma once

#include "common/location.h"
#include "common/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

// Finding, starting and signalling the broker process without lsof or pkill: the pid file
// beside the database names it (docs/protocol.md). Shared by the CLI (kill-broker, restart)
// and the MCP helper (start a broker when none answers); BrokerLifecycle builds on it. Whether a
// pid is alive: liveness.h.
namespace Broker::Launcher {

inline constexpr char BrokerExecutableName[] = "claude-peers-broker";

// The pid in Location::pidPath() (first integer of the file); nullopt when the file is
// missing, unreadable or holds no positive integer.
std::optional<qint64> readPidFile(const Location &location);

// Sends a signal (SIGTERM, SIGHUP…) to exactly that pid.
Result<void> sendSignal(qint64 pid, int signal);

// Names the broker program to start instead of searching (packagers, tests).
inline constexpr char BrokerExecutableVariable[] = "CLAUDE_PEERS_BROKER_EXE";

// $CLAUDE_PEERS_BROKER_EXE when set (empty when that is not an executable file), else
// claude-peers-broker beside the running executable, else on PATH; empty when not found.
QString findBrokerExecutable();
// Where findBrokerExecutable() looked, for an error message ("next to claude-peers-mcp nor on PATH").
QString brokerSearchDescription(const QString &programName);

// Starts program detached from us: its own session (setsid, so a closing terminal or our
// process group's signals do not reach it), stdin/stdout/stderr on /dev/null (no SIGPIPE from
// a pipe whose reader went away), working directory "/". Returns its pid.
Result<qint64>
startDetached(const QString &program, const QStringList &arguments = {},
              const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

} // namespace Broker::Launcher
