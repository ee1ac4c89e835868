#!/usr/bin/env bash
# The GUI under a message storm: the tray's composition (bench/tray/messagesbench.cpp) hosts the
# broker with the Messages page shown, peers-bench sends N messages (default 20,000) between
# real peers, and the host reports the GUI thread's event-loop lateness (10 ms timer: p50, p99,
# max), the time until the page lists all N, and its peak RSS. Builds nothing; prints JSON.
#
#   bench/run-tray-messages-bench.sh <build-dir> [--messages N] [peers-bench options...]
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 <build-dir> [--messages N] [peers-bench options...]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
shift
messages=20000
args=()
while [[ $# -gt 0 ]]; do
    if [[ $1 == --messages ]]; then
        messages=$2
        shift 2
    else
        args+=("$1")
        shift
    fi
done
here=$(cd "$(dirname "$0")" && pwd)
host="$build/bench/tray/peers-tray-messages-bench-host"
if [[ ! -x $host ]]; then
    echo "run-tray-messages-bench: $host is missing; build it first (ninja -C $build peers-tray-messages-bench-host peers-bench)" >&2
    exit 2
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/peers-tray-messages-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

PEERS_BENCH_BROKER="$host" PEERS_TRAY_BENCH_REPORT="$out/gui.json" PEERS_TRAY_BENCH_EXPECT="$messages" \
    "$here/run-broker-bench.sh" "$build" --json --messages "$messages" --latency-samples 0 \
    --pipelined-window 0 "${args[@]}" >"$out/load.json"
for _ in $(seq 50); do # the host rewrites its report when it has quit
    [[ -s $out/gui.json ]] && grep -q whole_run "$out/gui.json" && break
    sleep 0.1
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
load = json.load(open(f"{out}/load.json"))
gui = json.load(open(f"{out}/gui.json"))
summary = {"load": {"ok": load.get("ok"), "throughput": load.get("throughput")}, "gui": gui}
json.dump(summary, sys.stdout, indent=2)
print()
t = load.get("throughput", {})
print("messages sent %s (delivered %s, %.0f/s); GUI event loop lateness p50 %.2f ms, p99 %.2f ms, max %.1f ms "
      "(%.1f ms of it not waiting for a CPU); all %d listed %.0f ms after the first, the last %.0f ms after its "
      "send; peak RSS %.1f MB (%.1f MB before)" % (
    t.get("accepted"), t.get("delivered"), t.get("delivered_per_s", 0), gui["p50_ms"], gui["p99_ms"],
    gui["max_stall_ms"], gui["max_stall_not_waiting_for_cpu_ms"], gui["expected_messages"],
    gui["first_to_all_listed_ms"], gui["last_listed_behind_its_send_ms"], gui["rss_peak_mb"],
    gui["rss_before_mb"]), file=sys.stderr)
PY
