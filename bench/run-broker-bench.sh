#!/usr/bin/env bash
# Runs peers-bench against a private headless broker: temp HOME, its own token and database, a
# free port, rate limit off. Builds nothing. Prints peers-bench's JSON on stdout.
#
#   bench/run-broker-bench.sh <build-dir> [peers-bench options...]
#   e.g. bench/run-broker-bench.sh build --messages 50000 --senders 8 --receivers 8
#
# PEERS_BENCH_BROKER=<executable> runs another broker host instead of claude-peers-broker (the
# tray's, from run-tray-bench.sh); it gets the same environment and is stopped with SIGTERM.
# PEERS_BENCH_BROKER_WRAPPER runs the broker under a tool, e.g. to count instructions per
# message independently of the machine's load:
#   PEERS_BENCH_BROKER_WRAPPER="valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out" \
#       bench/run-broker-bench.sh build --latency-samples 0 --messages 5000
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    echo "usage: $0 <build-dir> [peers-bench options...]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
shift
broker="${PEERS_BENCH_BROKER:-$build/bin/claude-peers-broker}"
bench="$build/bench/peers-bench"
for exe in "$broker" "$bench"; do
    if [[ ! -x $exe ]]; then
        echo "run-broker-bench: $exe is missing; build it first (ninja -C $build claude-peers-broker peers-bench)" >&2
        exit 2
    fi
done

home=$(mktemp -d "${TMPDIR:-/tmp}/peers-bench.XXXXXX")
broker_pid=
cleanup() {
    if [[ -n $broker_pid ]] && kill -0 "$broker_pid" 2>/dev/null; then
        kill "$broker_pid" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$broker_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$broker_pid" 2>/dev/null || true
    fi
    rm -rf "$home"
}
trap cleanup EXIT INT TERM

# A free port from the OS when python3 is there; else a random one nobody answers on.
free_port() {
    if command -v python3 >/dev/null; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
        return
    fi
    local port
    while true; do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
}

port=$(free_port)
token="$home/.claude-peers-token"
(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$token" && echo >>"$token")

env -u CLAUDE_PEERS_FEDERATION_ENABLED \
    HOME="$home" \
    CLAUDE_PEERS_PORT="$port" \
    CLAUDE_PEERS_DB="$home/.claude-peers.db" \
    CLAUDE_PEERS_TOKEN="$token" \
    CLAUDE_PEERS_RATE_LIMIT=0 \
    QT_QPA_PLATFORM=offscreen \
    ${PEERS_BENCH_BROKER_WRAPPER:-} "$broker" >"$home/broker.log" 2>&1 &
broker_pid=$!

health() {
    if command -v curl >/dev/null; then
        curl -fsS -m 1 "http://127.0.0.1:$port/health" >/dev/null 2>&1
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf 'GET /health HTTP/1.0\r\n\r\n' >&3 && grep -q '"status"' <&3) 2>/dev/null
    fi
}
# A broker under a wrapper such as valgrind starts up to 50 times slower.
tries=100
if [[ -n ${PEERS_BENCH_BROKER_WRAPPER:-} ]]; then
    tries=1200
fi
for i in $(seq "$tries"); do
    if health; then
        break
    fi
    if ! kill -0 "$broker_pid" 2>/dev/null; then
        echo "run-broker-bench: the broker exited during start-up:" >&2
        cat "$home/broker.log" >&2
        exit 1
    fi
    if [[ $i == "$tries" ]]; then
        echo "run-broker-bench: the broker did not answer /health within $((tries / 10)) s:" >&2
        cat "$home/broker.log" >&2
        exit 1
    fi
    sleep 0.1
done

echo "run-broker-bench: broker pid $broker_pid on port $port (home $home)" >&2
status=0
"$bench" --url "http://127.0.0.1:$port" --token-file "$token" --broker-pid "$broker_pid" "$@" || status=$?
if [[ $status != 0 ]]; then
    echo "run-broker-bench: peers-bench failed ($status); broker log:" >&2
    tail -n 50 "$home/broker.log" >&2
fi
exit "$status"
