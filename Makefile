# The two commands of the README: `make run` and `make test`.
BUILD      ?= build
TEST_BUILD ?= build-test
JOBS       ?= $(shell nproc)
FUZZ_BUILD ?= build-fuzz
ASAN_BUILD ?= build-asan
# The test build optimises less and keeps line tables only: about a third less compile and link
# time than -O2 -g, the same code paths tested (docs/decisions.md, "make test's build time").
TEST_CXXFLAGS ?= -O1 -g1 -DNDEBUG
FUZZ_SECONDS ?= 60
FUZZ_CXX   ?= $(shell command -v clang++-15 || command -v clang++)

.PHONY: run test test-asan fuzz build deps format clean

# Builds and runs the product: the tray app where a display is, else the headless broker.
run:
	@tools/install-deps.sh build
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPEERS_BUILD_TESTS=OFF >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	    echo "Starting the tray app ($(BUILD)/bin/claude-peers-tray)"; \
	    exec $(BUILD)/bin/claude-peers-tray; \
	else \
	    echo "No display: starting the headless broker ($(BUILD)/bin/claude-peers-broker)"; \
	    exec $(BUILD)/bin/claude-peers-broker; \
	fi

# Builds everything with warnings as errors and runs the whole suite (unit, integration, gui
# offscreen, external MCP clients, fuzz seed replays), then prints the time of each phase; ends
# with "tests: N passed, N failed, N skipped" (tools/make-test.sh).
test:
	@tools/make-test.sh $(TEST_BUILD) $(JOBS) "$(TEST_CXXFLAGS)"

# The whole Qt Test suite (every label: unit, integration, gui, fault, keychain, external) built
# with AddressSanitizer + UndefinedBehaviorSanitizer (g++, own build dir). Any report fails the
# run, also one from a process a test started (tests/sanitizers/run-suite.sh); the fuzz seeds
# are replayed under the sanitizers too. Pass ctest arguments with ASAN_CTEST_ARGS (e.g. "-L gui").
test-asan:
	@tools/install-deps.sh test
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
	    -DPEERS_SANITIZE=address,undefined >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	@tests/sanitizers/run-suite.sh $(ASAN_BUILD) -j $(JOBS) $(ASAN_CTEST_ARGS)

# Each fuzz target (tests/fuzz) for FUZZ_SECONDS on its corpus and dictionary, one after the
# other; prints the executions per target. Findings go to $(FUZZ_BUILD)/runs/<target>/.
fuzz:
	@tools/install-deps.sh test
	@cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=$(FUZZ_CXX) -DPEERS_FUZZ=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@status=0; for t in $(FUZZ_BUILD)/tests/fuzz/fuzz_*; do \
	    [ -f "$$t" ] && [ -x "$$t" ] || continue; \
	    tests/fuzz/run-fuzz.sh "$$t" tests/fuzz "$${t##*/fuzz_}" $(FUZZ_SECONDS) $(FUZZ_BUILD)/runs || status=1; \
	done; exit $$status

build:
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

format:
	@cmake --build $(BUILD) --target format

clean:
	rm -rf $(BUILD) $(TEST_BUILD) $(FUZZ_BUILD) $(ASAN_BUILD)
