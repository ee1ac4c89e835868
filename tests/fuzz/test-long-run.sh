#!/usr/bin/env bash
# long-run.sh's ledger and tally, with stand-in fuzz binaries (shell scripts that print what
# libFuzzer prints): counts add up per binary, a finding is never counted, a run that never ended
# counts as far as its log's last progress line, a timeout counts only when a recheck does not
# reproduce it, the options reach libFuzzer, and bad arguments get a clear error.
#   test-long-run.sh <tests/fuzz dir>
set -uo pipefail
src=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
check() { # check <what> <command…>
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}

mkdir -p "$scratch/bin"
cat > "$scratch/bin/fuzz_clean" <<'EOF'
#!/bin/sh
echo "#6000000	DONE   cov: 10 ft: 20"
echo "stat::number_of_executed_units: 6000000"
echo "stat::average_exec_per_sec:     100000"
EOF
cat > "$scratch/bin/fuzz_crashing" <<'EOF'
#!/bin/sh
echo "#70000	pulse  cov: 10 ft: 20"
echo "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1 (stand-in)"
exit 1
EOF
# A fuzzer that times out: <name> <does its input alone time out again> <does the history replay>.
timing_out() {
    cat > "$scratch/bin/fuzz_$1" <<EOF
#!/bin/sh
timeout_report() {
    echo "ALARM: working on the last Unit for 17 seconds"
    echo "       and the timeout value is 10 (use -timeout=N to change)"
    echo "==4242== ERROR: libFuzzer: timeout after 17 seconds"
    echo "SUMMARY: libFuzzer: timeout"
    exit 70
}
if [ -n "\${FUZZ_REPLAY_HISTORY:-}" ]; then
    [ "$3" = yes ] && { echo "fuzz: replayed 2 inputs, no finding"; exit 0; }
    timeout_report
fi
for arg; do
    case \$arg in
        -artifact_prefix=*) prefix=\${arg#-artifact_prefix=} ;;
        */timeout-*) [ "$2" = yes ] && timeout_report; echo "Executed \$arg in 3 ms"; exit 0 ;;
    esac
done
printf x > "\${prefix}timeout-0123abcd"
printf x > "\${prefix}$1-history-4242"
echo "#50000	pulse  cov: 10 ft: 20"
echo "artifact_prefix='\$prefix'; Test unit written to \${prefix}timeout-0123abcd"
echo "stat::number_of_executed_units: 50001"
timeout_report
EOF
}
cat > "$scratch/bin/fuzz_flags" <<'EOF'
#!/bin/sh
echo "flags: $*"
echo "stat::number_of_executed_units: 1"
EOF
timing_out stalled no yes
timing_out hanging yes yes
timing_out hangingafterothers no no
timing_out inputgone no yes
chmod +x "$scratch/bin/"*
work=$scratch/work

"$src/long-run.sh" "$scratch/bin" "$work" clean clean=5 > "$scratch/out" 2>&1
check "two clean runs exit 0" [ $? -eq 0 ]
"$src/long-run.sh" "$scratch/bin" "$work" crashing clean > "$scratch/out" 2>&1
check "a finding makes the queue's exit status 1" [ $? -eq 1 ]
check "the target after a finding still runs" grep -q '^clean: 6000000 executions, no-finding' "$scratch/out"
check "every run keeps its own log" [ "$(ls "$work/clean" | grep -c '^run-.*\.log$')" -eq 3 ]

# A run the session's end killed: a start line, a log, no end line.
mkdir -p "$work/clean"
printf '#1048576\tpulse  cov: 10\n#2097152\tpulse  cov: 10\n' > "$work/clean/run-killed.log"
printf 'start\t2026-12-01T00:00:00Z\tclean\t%s\t%s\t%s\n' "$(sha256sum "$scratch/bin/fuzz_clean" | cut -c1-12)" \
    "$work/clean/run-killed.log" "$scratch/bin/fuzz_clean" >> "$work/ledger.tsv"

"$src/long-run.sh" --tally "$work" > "$scratch/tally" 2>&1
cat "$scratch/tally"
check "clean: three ended runs and a killed one add up, shown as at least" \
    grep -Eq '^clean +[0-9a-f]{12} +4 +>= 20,097,152 +0 +0 +yes$' "$scratch/tally"
check "crashing: its executions are not counted and it has not reached the goal" \
    grep -Eq '^crashing +[0-9a-f]{12} +1 +0 +1 +0 +no$' "$scratch/tally"

# Timeouts: not counted until a recheck fails to reproduce them.
"$src/long-run.sh" "$scratch/bin" "$work" stalled hanging hangingafterothers > /dev/null 2>&1
"$src/long-run.sh" --recheck-timeouts "$work" > "$scratch/out" 2>&1
check "a recheck without the stall named: exit 2 with the usage" \
    bash -c '[ $0 -eq 2 ] && grep -q "long-run.sh --recheck-timeouts" "$1"' $? "$scratch/out"
"$src/long-run.sh" --recheck-timeouts "$work" "test: stand-in stall" > "$scratch/out" 2>&1
check "a recheck that reproduces a timeout or meets a crash: exit 1" [ $? -eq 1 ]
cat "$scratch/out"
check "a crash is never rechecked away" grep -q 'crashing/run-.*: not a timeout alone, a finding to fix' "$scratch/out"
check "a timeout that does not come back, alone or after the inputs before it" \
    grep -q '^stalled: not-reproduced: .*timeout-0123abcd alone: 3 runs in 3 ms (timeout 10 s each); replayed 2 inputs of .*stalled-history-4242 before it, no finding' "$scratch/out"
check "a timeout that comes back alone" grep -q '^hanging: reproduced: .*alone times out again' "$scratch/out"
check "a timeout that comes back after the inputs before it" \
    grep -q '^hangingafterothers: reproduced: .*fails again after the inputs before it' "$scratch/out"
check "the ledger names the stall" grep -q $'^recheck\t.*\tnot-reproduced\t.*\ttest: stand-in stall$' "$work/ledger.tsv"
"$src/long-run.sh" --tally "$work" > "$scratch/tally" 2>&1
cat "$scratch/tally"
check "a timeout not reproduced counts, shown as stalled" \
    grep -Eq '^stalled +[0-9a-f]{12} +1 +50,001 +0 +1 +no$' "$scratch/tally"
check "a reproduced timeout stays a finding" grep -Eq '^hanging +[0-9a-f]{12} +1 +0 +1 +0 +no$' "$scratch/tally"
rows=$(grep -c '^recheck' "$work/ledger.tsv")
"$src/long-run.sh" --recheck-timeouts "$work" "test: again" > "$scratch/out" 2>&1
check "a finding is rechecked once" [ "$(grep -c '^recheck' "$work/ledger.tsv")" -eq "$rows" ]
"$src/long-run.sh" "$scratch/bin" "$work" inputgone > /dev/null 2>&1
rm "$work/inputgone/timeout-0123abcd"
"$src/long-run.sh" --recheck-timeouts "$work" "test: stand-in stall" > "$scratch/out" 2>&1
check "a timeout whose input is gone: exit 1, says so, and stays a finding" \
    bash -c '[ $0 -eq 1 ] && grep -q "inputgone/run-.*: cannot recheck: its timeout input .* is missing" "$1" &&
        [ "$(grep -c "^recheck" "$2")" -eq "$3" ]' $? "$scratch/out" "$work/ledger.tsv" "$rows"
"$src/long-run.sh" --recheck-timeouts "$scratch/none" "test: stand-in stall" > "$scratch/out" 2>&1
check "a recheck without a ledger: exit 1 and why" \
    bash -c '[ $0 -eq 1 ] && grep -q "no ledger in" "$1"' $? "$scratch/out"

# A rebuilt binary starts a count of its own.
echo "# rebuilt" >> "$scratch/bin/fuzz_clean"
"$src/long-run.sh" "$scratch/bin" "$work" clean > /dev/null 2>&1
"$src/long-run.sh" --tally "$work" > "$scratch/tally" 2>&1
check "a rebuilt binary counts apart" [ "$(grep -c '^clean ' "$scratch/tally")" -eq 2 ]
check "the rebuilt binary's count is its own run only" \
    grep -Eq '^clean +[0-9a-f]{12} +1 +6,000,000 +0 +0 +no$' "$scratch/tally"

# Options: what libFuzzer is given (the stand-in prints its arguments to the run's log).
flags_of_last_run() { grep '^flags: ' "$(ls -t "$work"/flags/run-*.log | head -n 1)"; }
"$src/long-run.sh" "$scratch/bin" "$work" flags > /dev/null 2>&1
check "by default: per-input leak checks off, run-fuzz.sh's timeout alone" \
    bash -c 'grep -q -- " -detect_leaks=0" <<< "$0" && [ "$(grep -o -- "-timeout=[0-9]*" <<< "$0")" = -timeout=10 ]' \
    "$(flags_of_last_run)"
"$src/long-run.sh" --timeout 60 --leak-checks "$scratch/bin" "$work" flags > /dev/null 2>&1
check "--timeout comes after run-fuzz.sh's default, so libFuzzer takes it; --leak-checks with it" \
    bash -c 'grep -q -- "-timeout=10 .*-timeout=60 " <<< "$0" && ! grep -q -- -detect_leaks <<< "$0"' \
    "$(flags_of_last_run)"
"$src/long-run.sh" --timeout ten "$scratch/bin" "$work" flags > "$scratch/out" 2>&1
check "a timeout that is not a number: exit 2 and says so" \
    bash -c '[ $0 -eq 2 ] && grep -q "^--timeout takes whole seconds, not '"'ten'"'" "$1"' $? "$scratch/out"

"$src/long-run.sh" "$scratch/bin" "$work" nosuch > "$scratch/out" 2>&1
check "an unknown target: exit 2" [ $? -eq 2 ]
check "an unknown target: says which and what to do" grep -q 'no fuzz target .*fuzz_nosuch (build it: make fuzz)' "$scratch/out"
"$src/long-run.sh" "$scratch/bin" "$work" clean=ten > "$scratch/out" 2>&1
check "a run count that is not a number: exit 2" [ $? -eq 2 ]
check "a run count that is not a number: says so" grep -q "runs of clean must be a positive number, not 'ten'" "$scratch/out"
"$src/long-run.sh" --tally "$scratch/none" > "$scratch/out" 2>&1
check "a tally without a ledger: exit 1 and why" \
    bash -c '[ $0 -eq 1 ] && grep -q "no ledger in" "$1"' $? "$scratch/out"
"$src/long-run.sh" > "$scratch/out" 2>&1
check "no arguments: exit 2 with the usage" bash -c '[ $0 -eq 2 ] && grep -q "long-run.sh --tally" "$1"' $? "$scratch/out"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
