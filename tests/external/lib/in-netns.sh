#!/bin/sh
# Runs a command in a new network namespace where only loopback is up, so that nothing the
# test starts (Claude Code tries several Anthropic hosts) can reach the internet. As root this
# needs nothing else; as a user it maps the user to root in a new user namespace (unshare -r).
#   in-netns.sh [--own-pids] command...
# --own-pids also gives the command a pid namespace of its own, in which it is pid 1: when it
# ends, however it ends (a failed check, ctest's SIGKILL at its timeout), the kernel kills every
# process it started, detached or not.
set -eu
own_pids=
if [ "${1:-}" = --own-pids ]; then own_pids=1; shift; fi
if [ "${PEERS_IN_NETNS:-}" != 1 ]; then
    command -v unshare >/dev/null || { echo "FAIL: unshare not found (util-linux)" >&2; exit 1; }
    if [ "$(id -u)" -eq 0 ]; then flags=-n; else flags=-rn; fi
    if [ -n "$own_pids" ]; then flags="$flags --pid --fork --mount-proc --kill-child"; fi
    PEERS_IN_NETNS=1 exec unshare $flags -- "$0" "$@"
fi
command -v ip >/dev/null || { echo "FAIL: ip not found: install iproute2 (tools/install-deps.sh test)" >&2; exit 1; }
ip link set lo up
exec "$@"
