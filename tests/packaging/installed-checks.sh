#!/usr/bin/env bash
# Run by package-install.sh inside the chroot of its overlay (never on the host): installs the
# package with apt-get, checks the installed binaries, purges it and checks nothing remains.
# /tmp/shipped: the paths in the .deb; /tmp/preexisting: those the machine already had.
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { printf "== %s (%ss)\n" "$*" "$SECONDS"; }
mkdir -p "$HOME"
mkdir -m 0700 -p "$XDG_RUNTIME_DIR"
dpkg -s claude-peers >/dev/null 2>&1 && fail "claude-peers is already installed on this machine; the test needs a machine without it"

step "apt-get install ./$DEBNAME"
# No --no-download: with it apt rejects a local .deb ("Pathname to install is not
# absolute"). The namespace has no network, so a download fails, and says so.
if ! apt-get install -y "/tmp/$DEBNAME" >/tmp/apt.log 2>&1; then
    cat /tmp/apt.log >&2
    if grep -qE "Failed to fetch|Unable to fetch|Temporary failure resolving|Could not resolve" /tmp/apt.log; then
        fail "apt-get would have to download packages (see above); the test has no network: install them first (tools/install-deps.sh test)"
    fi
    fail "apt-get install of the package failed (see above)"
fi
grep -E "^(Need to get|Setting up|NEW|  claude-peers)" /tmp/apt.log || true
[ "$(dpkg-query -W -f='${Status}' claude-peers)" = "install ok installed" ] || fail "dpkg does not list claude-peers as installed"

step "the installed binaries start"
version=$(dpkg-query -W -f='${Version}' claude-peers)
for program in claude-peers claude-peers-broker claude-peers-mcp claude-peers-tray; do
    [ "$(command -v $program)" = /usr/bin/$program ] || fail "$program is not /usr/bin/$program"
    out=$(QT_QPA_PLATFORM=offscreen timeout 30 $program --version 2>&1) || fail "$program --version failed: $out"
    case "$out" in *"$version"*) echo "$program --version: $out" ;; *) fail "$program --version says \"$out\", not $version" ;; esac
done

export CLAUDE_PEERS_PORT=47899 # the private network namespace: never the host ports
step "the installed broker serves the installed CLI"
claude-peers-broker >/tmp/broker.log 2>&1 &
broker=$!
for _ in $(seq 1 100); do
    claude-peers status >/tmp/status.out 2>&1 && break
    kill -0 $broker 2>/dev/null || { cat /tmp/broker.log >&2; fail "claude-peers-broker exited"; }
    sleep 0.2
done
claude-peers status || { cat /tmp/broker.log >&2; fail "claude-peers status: no broker answered"; }
claude-peers kill-broker
status=0
wait $broker || status=$?
[ $status -eq 0 ] || { cat /tmp/broker.log >&2; fail "claude-peers-broker exited $status after kill-broker, not 0"; }

step "MCP initialize on claude-peers-mcp stdio"
request="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"package-test\",\"version\":\"1\"}}}"
printf "%s\n" "$request" | timeout 30 claude-peers-mcp >/tmp/mcp.out 2>/tmp/mcp.err || { cat /tmp/mcp.err >&2; fail "claude-peers-mcp did not exit cleanly at the end of its input"; }
python3 - "$version" <<"PY" || { cat /tmp/mcp.out /tmp/mcp.err >&2; fail "no valid initialize answer"; }
import json, sys
lines = open("/tmp/mcp.out").read().splitlines()
assert len(lines) == 1, f"{len(lines)} lines on stdout"
answer = json.loads(lines[0])
assert answer["id"] == 1 and answer["result"]["serverInfo"] == {"name": "claude-peers", "version": sys.argv[1]}, answer
print("initialize answered:", answer["result"]["serverInfo"], answer["result"]["protocolVersion"])
PY

# The helper starts a broker in the background when none answers: stop it before purging.
claude-peers kill-broker >/dev/null
step "apt-get purge"
dpkg -L claude-peers >/tmp/installed
apt-get purge -y claude-peers >/tmp/purge.log 2>&1 || { cat /tmp/purge.log >&2; fail "apt-get purge failed"; }
grep -E "^(Removing|Purging)" /tmp/purge.log || true
dpkg -s claude-peers >/dev/null 2>&1 && fail "dpkg still knows claude-peers after purge"
left=0
while read -r path; do
    [ -e "$path" ] || [ -L "$path" ] || continue
    grep -qxF "$path" /tmp/preexisting && continue
    echo "left behind: $path" >&2
    left=1
done < <(sort -u /tmp/installed /tmp/shipped)
[ $left -eq 0 ] || fail "files of the package remain after apt-get purge"
echo "purged: no file of the package remains"
