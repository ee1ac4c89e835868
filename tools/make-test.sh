#!/usr/bin/env bash
# `make test`: installs what is missing, builds everything with warnings as errors, runs the whole
# suite, then prints the time of each phase and ends with one line of counts:
#   tests: N passed, N failed, N skipped
# (a test that printed Qt Test's "SKIP   :" is ctest's "Skipped": it ran nothing it was meant to).
#   tools/make-test.sh <build dir> <jobs> <CXX flags of the RelWithDebInfo build>
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1 jobs=$2 cxxflags=$3
started=$SECONDS
tools/install-deps.sh test || exit 1
installed=$SECONDS
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$cxxflags" \
    -DPEERS_WERROR=ON >/dev/null || exit 1
cmake --build "$build" -j "$jobs" || exit 1
built=$SECONDS
log="$build/ctest-output.txt"
(cd "$build" && PEERS_TEST_TIMEOUT_FACTOR=${PEERS_TEST_TIMEOUT_FACTOR:-2} \
    ctest -j "$jobs" --output-on-failure --timeout 600) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
tested=$SECONDS

minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
total=$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/.*, \([0-9]*\) tests failed out of .*/\1/p' "$log" | tail -n 1)
skipped=$(grep -cE '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$log")
echo
echo "phases: install $(minutes $((installed - started))), build $(minutes $((built - installed))), tests $(minutes $((tested - built))), total $(minutes $((tested - started)))"
if [[ -z $total || -z $failed ]]; then
    echo "make test: ctest printed no summary (see $log)" >&2
    exit 1
fi
echo "tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
exit "$status"
