#!/usr/bin/env bash
# Runs one fuzz target for a while on its seed corpus and dictionary, and prints how many
# inputs it ran. Used by `make fuzz` (FUZZ_SECONDS each) and by the ctest smoke run.
#   run-fuzz.sh <fuzz binary> <tests/fuzz dir> <target name> <seconds> <work dir> [libFuzzer flags…]
# New inputs go to <work dir>/<name>/corpus (never into the tree); a finding is written to
# <work dir>/<name>/ and makes the exit status non-zero (crash, leak, UB, timeout, OOM).
# FUZZ_FRESH=1 (the smoke run) starts from the seeds alone, so its duration stays bounded.
# FUZZ_LOG names the log (default <work dir>/<name>/last-run.log; long-run.sh keeps one per run).
# A run stopped with SIGINT exits 72 ("interrupted"), which is not a finding.
set -uo pipefail
binary=$1 src=$2 name=$3 seconds=$4 work=$5
shift 5
if [ ! -x "$binary" ]; then
    echo "fuzz target $binary is missing: build it (make fuzz)" >&2
    exit 1
fi
[ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$work/$name/corpus"
mkdir -p "$work/$name/corpus"
log=${FUZZ_LOG:-$work/$name/last-run.log}
dict=()
[ -f "$src/$name.dict" ] && dict=(-dict="$src/$name.dict")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
started=$SECONDS
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$work/$name/" "${dict[@]}" "$@" "$work/$name/corpus" "$src/corpus/$name" >"$log" 2>&1
status=$?
elapsed=$(( SECONDS - started ))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
if [ "$status" -eq 72 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
    echo "fuzz $name: interrupted after ${execs:-?} executions in ${elapsed} s, no finding"
    exit 72
fi
if [ "$status" -ne 0 ]; then
    echo "fuzz $name: FINDING (exit $status) after ${execs:-?} executions; artifacts in $work/$name/" >&2
    grep -E -A 40 'ERROR: |runtime error|qFatal|ASSERT|deadly signal' "$log" | head -n 80 >&2
    echo "full log: $log" >&2
    exit "$status"
fi
echo "fuzz $name: ${execs:-?} executions in ${elapsed} s (${rate:-?}/s), no finding"
