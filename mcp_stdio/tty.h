#pragma once

#include "common/processtty.h"

#include <QString>

// The controlling terminal of the session (docs/spec/peers-api.md §7.9): the peer id is derived from it,
// so a session keeps its id — and its queued messages — across helper restarts.
namespace Mcp::Tty {

// Reading /proc is shared with `claude-peers hook` (common/processtty.h).
using Broker::ProcessTty::forProcess;
using Broker::ProcessTty::nameFromDeviceNumber;
using Broker::ProcessTty::ttyNrFromStat;

// What the helper registers with: CLAUDE_PEERS_TTY when set (empty value = no terminal; for
// tests and unusual launchers), else the parent's (Claude Code's) terminal.
QString detect();

// The id the broker derives (docs/spec/peers-api.md §7.9): first 8 hex of SHA-256(tty UTF-8). Empty tty →
// empty (the broker then picks a random id).
QString peerIdForTty(const QString &tty);

// The id a session without a terminal asks for (`opencode serve`, IDE launchers): the same
// hash over the client's name and the working folder, so it keeps its id, and its queued mail,
// across restarts. One such peer is "this client in this folder", not one chat of it.
QString stableIdWithoutTty(const QString &clientName, const QString &cwd);

} // namespace Mcp::Tty
