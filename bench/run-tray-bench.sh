#!/usr/bin/env bash
# The tray-hosted broker against the headless one, with the same load (peers-bench through
# run-broker-bench.sh), in alternating rounds so that both see the same machine. The tray host
# (bench/tray) runs the tray's composition root offscreen with the Peers window open and
# probes its GUI thread. Builds nothing. Prints a JSON summary on stdout; needs python3.
#
#   bench/run-tray-bench.sh <build-dir> [--rounds N] [peers-bench options...]
#   e.g. bench/run-tray-bench.sh build --rounds 5 --messages 20000
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 <build-dir> [--rounds N] [peers-bench options...]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
shift
rounds=3
if [[ ${1:-} == --rounds ]]; then
    rounds=$2
    shift 2
fi
here=$(cd "$(dirname "$0")" && pwd)
host="$build/bench/tray/peers-tray-bench-host"
if [[ ! -x $host ]]; then
    echo "run-tray-bench: $host is missing; build it first (ninja -C $build peers-tray-bench-host claude-peers-broker peers-bench)" >&2
    exit 2
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/peers-tray-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

for round in $(seq "$rounds"); do
    "$here/run-broker-bench.sh" "$build" --json "$@" >"$out/headless-$round.json"
    PEERS_BENCH_BROKER="$host" PEERS_TRAY_BENCH_REPORT="$out/gui-$round.json" \
        "$here/run-broker-bench.sh" "$build" --json "$@" >"$out/tray-$round.json"
    for _ in $(seq 50); do # the host writes its report when it has quit
        [[ -s $out/gui-$round.json ]] && break
        sleep 0.1
    done
    echo "run-tray-bench: round $round of $rounds done" >&2
done

python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(name):
    with open(f"{out}/{name}") as f:
        return json.load(f)
rows = []
for r in range(1, rounds + 1):
    h, t = load(f"headless-{r}.json"), load(f"tray-{r}.json")
    try:
        g = load(f"gui-{r}.json")
    except (OSError, ValueError):
        g = {}
    rows.append({
        "round": r,
        "headless_accepted_per_s": h["throughput"]["accepted_per_s"],
        "headless_delivered_per_s": h["throughput"]["delivered_per_s"],
        "tray_accepted_per_s": t["throughput"]["accepted_per_s"],
        "tray_delivered_per_s": t["throughput"]["delivered_per_s"],
        # CPU of the whole process (the tray's: broker thread, GUI thread and the probe) per message.
        "headless_cpu_us_per_message": h["throughput"].get("broker_cpu_us_per_message", -1),
        "tray_cpu_us_per_message": t["throughput"].get("broker_cpu_us_per_message", -1),
        "headless_push_p50_ms": h["latency_ms"]["p50"],
        "tray_push_p50_ms": t["latency_ms"]["p50"],
        "ok": bool(h.get("ok") and t.get("ok")),
        "gui": g,
    })
med = lambda key: statistics.median(row[key] for row in rows)
summary = {
    "rounds": rows,
    "median_headless_delivered_per_s": med("headless_delivered_per_s"),
    "median_tray_delivered_per_s": med("tray_delivered_per_s"),
    "tray_vs_headless_delivered": med("tray_delivered_per_s") / med("headless_delivered_per_s"),
    "median_headless_cpu_us_per_message": med("headless_cpu_us_per_message"),
    "median_tray_cpu_us_per_message": med("tray_cpu_us_per_message"),
    "tray_vs_headless_cpu": med("tray_cpu_us_per_message") / med("headless_cpu_us_per_message"),
    "median_headless_accepted_per_s": med("headless_accepted_per_s"),
    "median_tray_accepted_per_s": med("tray_accepted_per_s"),
    "max_gui_stall_ms": max((row["gui"].get("max_stall_ms", -1) for row in rows), default=-1),
    "max_gui_stall_not_waiting_for_cpu_ms": max(
        (row["gui"].get("max_stall_not_waiting_for_cpu_ms", -1) for row in rows), default=-1),
    "all_ok": all(row["ok"] for row in rows),
}
json.dump(summary, sys.stdout, indent=2)
print()
print("tray/headless delivered msgs/s: %.0f / %.0f = %.1f %%; process CPU per message: %.1f / %.1f us = %.1f %%; "
      "max GUI stall %.1f ms, %.1f ms of it not waiting for a CPU (targets: >= 90 %%, <= 50 ms)" % (
    summary["median_tray_delivered_per_s"], summary["median_headless_delivered_per_s"],
    100 * summary["tray_vs_headless_delivered"], summary["median_tray_cpu_us_per_message"], summary["median_headless_cpu_us_per_message"],
    100 * summary["tray_vs_headless_cpu"], summary["max_gui_stall_ms"],
    summary["max_gui_stall_not_waiting_for_cpu_ms"]), file=sys.stderr)
PY
