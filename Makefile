# The two commands of the README: `make run` and `make test`.
BUILD      ?= build
TEST_BUILD ?= build-test
JOBS       ?= $(shell nproc)

.PHONY: run test build deps format clean

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

# Builds everything with warnings as errors and runs the whole suite (unit, integration,
# gui offscreen, external MCP clients). Ends with ctest's summary line.
test:
	@tools/install-deps.sh test
	@cmake -S . -B $(TEST_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPEERS_WERROR=ON >/dev/null
	@cmake --build $(TEST_BUILD) -j $(JOBS)
	@cd $(TEST_BUILD) && PEERS_TEST_TIMEOUT_FACTOR=$${PEERS_TEST_TIMEOUT_FACTOR:-2} \
	    ctest -j $(JOBS) --output-on-failure --timeout 600

build:
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

format:
	@cmake --build $(BUILD) --target format

clean:
	rm -rf $(BUILD) $(TEST_BUILD)
