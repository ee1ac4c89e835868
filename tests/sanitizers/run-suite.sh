#!/usr/bin/env bash
# Runs the Qt Test suite of a sanitized build (make test-asan; docs/fuzzing.md) and fails on any
# AddressSanitizer or LeakSanitizer report, also from processes the tests start and do not watch
# (a detached broker, a helper whose exit code a test ignores): every such report goes to a file
# under <build dir>/sanitizer-reports/, and any file there fails the run.
#   run-suite.sh <build dir> [ctest arguments…]     e.g. run-suite.sh build-asan -L gui
set -uo pipefail
build=$(cd "$1" && pwd) || exit 1
shift
here=$(cd "$(dirname "$0")" && pwd)
reports="$build/sanitizer-reports"
rm -rf "$reports" && mkdir -p "$reports" || exit 1

# The caller's options come first; where the reports go and the suppressions are always ours.
# UBSan cannot write to a file when g++ links it beside ASan (its own runtime copy ignores
# log_path), so its reports stay on stderr and abort the process: a test sees the crash, and
# ctest's log of every test's output is searched for them below.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}:log_path=$reports/asan:log_exe_name=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-}:suppressions=$here/lsan.supp:print_suppressions=0"
export PEERS_TEST_TIMEOUT_FACTOR=${PEERS_TEST_TIMEOUT_FACTOR:-4}

rm -f "$build"/Testing/Temporary/LastTest*.log
cd "$build" && ctest --output-on-failure --timeout 1200 "$@"
status=$?

if grep -n -A 12 'runtime error: ' "$build"/Testing/Temporary/LastTest*.log >&2; then
    echo "FAIL: UndefinedBehaviorSanitizer reports above (from $build/Testing/Temporary/)" >&2
    status=1
fi

shopt -s nullglob
found=("$reports"/*)
if [ ${#found[@]} -gt 0 ]; then
    for f in "${found[@]}"; do
        echo "==== sanitizer report ${f##*/} (asan.<binary>.<pid>) ====" >&2
        cat "$f" >&2
    done
    echo "FAIL: ${#found[@]} sanitizer report(s) in $reports" >&2
    status=1
fi
exit $status
