#!/bin/sh
# The control service's overhead against a real `opencode serve` (realopencode.mjs says what is
# measured). Builds nothing: needs <build>/bin/claude-peers-broker and claude-peers, node, and
# tests/external/opencode's npm install (tools/install-deps.sh test). Runs offline in a
# loopback-only network namespace with a pid namespace of its own (nothing outlives it).
#   bench/openchamber/run-real-opencode-bench.sh <build-dir> [--runs 40] [--cli-every 4] [--warmup 3]
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 <build-dir> [--runs N] [--cli-every N] [--warmup N]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
PEERS_BROKER_EXE="$build/bin/claude-peers-broker" PEERS_CLI_EXE="$build/bin/claude-peers" \
    exec "$here/../../tests/external/lib/in-netns.sh" --own-pids node "$here/realopencode.mjs" "$@"
