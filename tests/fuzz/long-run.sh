#!/usr/bin/env bash
# The long fuzz run of docs/fuzzing.md: targets one after another, each resuming from the corpus
# its earlier runs grew in <work dir>, at idle priority, every run's log kept and every run
# written down in <work dir>/ledger.tsv, so that counts made over several sessions add up.
#
#   long-run.sh [--leak-checks] [--timeout <s>] <fuzz binary dir> <work dir> <target>[=<runs>]...
#   long-run.sh --tally <work dir>
#   long-run.sh --recheck-timeouts <work dir> <what stalled the machine>
#
# <runs> defaults to 10000000. Per-input leak checks are off unless --leak-checks is given
# (with state kept across inputs every input would trigger a full LeakSanitizer scan);
# LeakSanitizer still checks the whole process at exit. Ctrl-C or SIGTERM stops the running
# target (libFuzzer exits 72: "interrupted", not a finding) and records how far it got.
# --timeout sets libFuzzer's per-input timeout, 10 s unless given. It counts wall time, and W
# workers on C cores get about C/W of a core each: scale it (60 for 20 workers on 2 cores).
#
# --tally adds up, per target and per binary (a binary is named by the start of its SHA-256:
# every rebuilt binary starts a new count, as one of changed code must), the executions of the
# runs that found nothing; a run that never ended (the machine or the session stopped) counts as
# far as its log's last progress line, shown as "at least".
#
# libFuzzer's timeout counts wall time, so a machine that stalls (a virtual machine paused or
# snapshotted, a SIGSTOP) ends every running fuzzer with a "timeout" that is not in the code.
# --recheck-timeouts runs each timeout input of the ledger's unchecked findings again: alone,
# three times with the run's timeout, and, when the run left a history (fuzzhistory.h), after
# the inputs that ran before it. Only when neither reproduces is the finding written down as not
# reproduced, with the stall named, and its run counted; crashes, leaks and undefined behaviour
# are never rechecked away.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() {
    sed -n '6,8p' "$0" | sed 's/^# *//' >&2
    exit 2
}

# The fuzzers' sanitizer settings, for the runs and their rechecks alike.
asan_options=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1:malloc_context_size=2}

need_ledger() { # need_ledger <work dir>
    [ -f "$1/ledger.tsv" ] || { echo "no ledger in $1: nothing was run there with long-run.sh" >&2; exit 1; }
}

progress_count() { # the last "#N" progress line of a libFuzzer log, or empty
    grep -a -o '^#[0-9]*' "$1" 2>/dev/null | tail -n 1 | tr -d '#'
}

tally() {
    local work=$1 ledger=$1/ledger.tsv
    need_ledger "$work"
    # A run's end line carries its count; a start line without an end is read from its log.
    # A timeout that --recheck-timeouts did not reproduce counts as "stalled".
    # (Fields are never empty: read collapses adjacent tabs.)
    local rows
    rows=$(awk -F'\t' '$1 == "start" { log_[$5] = $3 "\t" $4 } $1 == "end" { ended[$5] = $6 "\t" $7 }
        $1 == "recheck" && $4 == "not-reproduced" { sub(/\t.*/, "\tstalled", ended[$3]) } # after its end line
        END { for (l in log_) print log_[l] "\t" l "\t" (l in ended ? ended[l] : "-\tunended") }' "$ledger")
    [ -n "$rows" ] || { echo "the ledger in $work names no run yet"; return; }
    printf '%-16s %-12s %5s %14s %9s %8s  %s\n' target binary runs executions findings stalled "10 million, no finding"
    while IFS=$'\t' read -r target binary log executions result; do
        local atleast=0
        if [ "$result" = unended ]; then
            executions=$(progress_count "$log")
            executions=${executions:-0}
            atleast=1
        fi
        printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$binary" "$executions" "$result" "$atleast"
    done <<< "$rows" | awk -F'\t' '
        function grouped(n,   s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
        { key = $1 "\t" $2; runs[key]++
          if ($4 ~ /^finding/) findings[key]++; else { sum[key] += $3; if ($5) atleast[key] = 1 }
          if ($4 == "stalled") stalled[key]++ }
        END { for (k in runs) {
                split(k, p, "\t")
                shown = ((k in atleast) ? ">= " : "") grouped(sum[k])
                done_ = (!(k in findings) && sum[k] >= 10000000) ? "yes" : "no"
                printf "%-16s %-12s %5d %14s %9d %8d  %s\n", p[1], p[2], runs[k], shown, findings[k] + 0, stalled[k] + 0, done_ } }' |
        sort
}

# recheck_timeouts <work dir> <what stalled the machine>: see the header.
recheck_timeouts() {
    local work=$1 why=${2//[$'\t\n']/ } ledger=$1/ledger.tsv
    need_ledger "$work"
    local runs
    runs=$(awk -F'\t' '$1 == "start" { started[$5] = $3 "\t" $6 } $1 == "end" && $7 ~ /^finding/ { found[$5] = 1 }
        $1 == "recheck" { rechecked[$3] = 1 }
        END { for (l in found) if (!(l in rechecked)) print l "\t" started[l] }' "$ledger" | sort)
    [ -n "$runs" ] || { echo "no finding in $work is waiting for a recheck"; return 0; }
    export ASAN_OPTIONS=$asan_options
    local status=0 log target binary
    while IFS=$'\t' read -r log target binary; do
        if grep -a -E 'ERROR:|runtime error:' "$log" | grep -q -v 'ERROR: libFuzzer: timeout after'; then
            echo "$log: not a timeout alone, a finding to fix (make its input a regression test)"
            status=1
            continue
        fi
        local artifact seconds pid history
        artifact=$(sed -n 's/.*Test unit written to \(.*timeout-[0-9a-f]*\)$/\1/p' "$log" | tail -n 1)
        seconds=$(sed -n 's/.*the timeout value is \([0-9]*\).*/\1/p' "$log" | tail -n 1)
        pid=$(sed -n 's/^==\([0-9]*\)== ERROR: libFuzzer: timeout.*/\1/p' "$log" | tail -n 1)
        if [ ! -f "$artifact" ] || [ -z "$seconds" ] || [ ! -x "$binary" ]; then
            echo "$log: cannot recheck: its timeout input (${artifact:-not named in the log}), timeout or binary ($binary) is missing"
            status=1
            continue
        fi
        local verdict details
        if ! "$binary" -timeout="$seconds" -runs=3 "$artifact" > "$log.recheck" 2>&1; then
            verdict=reproduced details="$artifact alone times out again (log $log.recheck)"
        else
            details="$artifact alone: 3 runs $(grep -a -o 'in [0-9]* ms' "$log.recheck" | tail -n 1) (timeout ${seconds} s each)"
            verdict=not-reproduced
            history=$(dirname "$artifact")/$target-history-$pid
            if [ -n "$pid" ] && [ -f "$history" ]; then
                local started=$SECONDS
                # No per-input alarm in a replay: a generous cap still ends a hang (fuzz_fedadmin's
                # 1,024 inputs may wait on 5 s network timeouts: about an hour and a half).
                if FUZZ_REPLAY_HISTORY=$history timeout 14400 "$binary" >> "$log.recheck" 2>&1; then
                    details+="; $(grep -a -o 'replayed [0-9]* inputs' "$log.recheck" | tail -n 1) of $history before it, no finding, $((SECONDS - started)) s"
                else
                    verdict=reproduced details="$artifact fails again after the inputs before it ($history, log $log.recheck)"
                fi
            fi
        fi
        printf 'recheck\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$log" "$verdict" "$details" "$why" >> "$ledger"
        echo "$target: $verdict: $details"
        [ "$verdict" = reproduced ] && status=1
    done <<< "$runs"
    return "$status"
}

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
if [ "${1:-}" = --tally ]; then
    [ $# -eq 2 ] || usage
    tally "$2"
    exit
fi
if [ "${1:-}" = --recheck-timeouts ]; then
    [ $# -eq 3 ] && [ -n "$3" ] || usage
    recheck_timeouts "$2" "$3"
    exit
fi

leak_flags=(-detect_leaks=0)
timeout_flags=() # run-fuzz.sh's -timeout=10 stands; a later -timeout overrides it
while [ $# -gt 0 ]; do
    case $1 in
        --leak-checks) leak_flags=(); shift ;;
        --timeout)
            [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] ||
                { echo "--timeout takes whole seconds, not '${2:-}'" >&2; exit 2; }
            timeout_flags=(-timeout="$2")
            shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 3 ] || usage
bindir=$1 work=$2
shift 2
split_spec() { # <target>[=<runs>] -> $target and $runs (10 million when not given)
    target=${1%%=*}
    runs=${1#"$target"}
    runs=${runs#=}
    runs=${runs:-10000000}
}
for spec in "$@"; do # every target checked before the first one starts
    split_spec "$spec"
    [ -x "$bindir/fuzz_$target" ] || { echo "no fuzz target $bindir/fuzz_$target (build it: make fuzz)" >&2; exit 2; }
    [[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "runs of $target must be a positive number, not '$runs'" >&2; exit 2; }
done
mkdir -p "$work" || exit 1
ledger=$work/ledger.tsv

# Builds and tests on the same machine go first.
echo 19 2>/dev/null >/proc/self/autogroup
idle=(nice -n 19)
command -v chrt >/dev/null && chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)

child=
# The fuzzer is run-fuzz.sh's child; a background job of a script ignores the terminal's Ctrl-C.
stop() { [ -n "$child" ] && pkill -INT -P "$child"; stopped=1; }
stopped=0
trap stop INT TERM

status=0
for spec in "$@"; do
    split_spec "$spec"
    binary=$bindir/fuzz_$target
    id=$(sha256sum "$binary" | cut -c1-12)
    mkdir -p "$work/$target"
    log=$work/$target/run-$(date -u +%Y%m%dT%H%M%S.%N).log
    printf 'start\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$id" "$log" "$binary" >> "$ledger"
    echo "$target: $runs runs of $binary ($id), log $log"
    ASAN_OPTIONS=$asan_options \
        FUZZ_LOG=$log "${idle[@]}" "$here/run-fuzz.sh" "$binary" "$here" "$target" 1000000 "$work" \
        -runs="$runs" "${leak_flags[@]}" "${timeout_flags[@]}" &
    child=$!
    wait "$child"
    rc=$?
    [ "$rc" -gt 128 ] && [ "$stopped" = 1 ] && { wait "$child"; rc=$?; } # wait again after the trap
    child=
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [ -n "$executions" ] || executions=$(progress_count "$log")
    case $rc in
        0) result=no-finding ;;
        72) result=interrupted ;;
        *) result="finding(exit $rc)"; status=1 ;;
    esac
    printf 'end\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$id" "$log" "${executions:-0}" "$result" >> "$ledger"
    echo "$target: ${executions:-0} executions, $result"
    [ "$stopped" = 1 ] && break
done
exit "$status"
