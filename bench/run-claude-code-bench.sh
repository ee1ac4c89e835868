#!/usr/bin/env bash
# The real Claude Code (tests/external/claude-code-current, pinned) with the real helper, offline:
# N messages (default 20) sent with `claude-peers send` to an idle session, one at a time, and the
# time until the mock Messages API receives the model request that carries each one: p50 and p99,
# and how much of it is ours (until the helper handed the message to Claude Code). Once through
# Claude Code's session inbox (no flag, telemetry off), once as a channel event (the flag).
# Builds nothing.
#
#   bench/run-claude-code-bench.sh <build-dir> [--messages N]
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 <build-dir> [--messages N]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
messages=20
if [[ ${2:-} == --messages ]]; then
    messages=$3
fi
here=$(cd "$(dirname "$0")" && pwd)
ext="$here/../tests/external"
for exe in bin/claude-peers-mcp bin/claude-peers-broker bin/claude-peers; do
    if [[ ! -x $build/$exe ]]; then
        echo "run-claude-code-bench: $build/$exe is missing; build it first" >&2
        exit 2
    fi
done
if [[ ! -d $ext/claude-code-current/node_modules ]]; then
    echo "run-claude-code-bench: run npm ci --prefix tests/external/claude-code-current first" >&2
    exit 2
fi
cd "$ext/claude-code-current"
PEERS_MCP_EXE="$build/bin/claude-peers-mcp" PEERS_BROKER_EXE="$build/bin/claude-peers-broker" \
    PEERS_CLI_EXE="$build/bin/claude-peers" PEERS_CC_BENCH="$messages" \
    exec "$ext/lib/in-netns.sh" --own-pids node inbox.mjs
