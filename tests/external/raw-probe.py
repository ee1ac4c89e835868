#!/usr/bin/env python3
"""Raw-pipe probe of claude-peers-mcp (stdlib only): hand-made lines that SDK clients never
send. Each must get the right answer (or none), every stdout line must be one JSON object,
the helper must keep running, and it must exit promptly when stdin closes."""
import json
import os
import select
import subprocess
import sys
import tempfile
import time

helper = os.environ.get("PEERS_MCP_EXE", "")
if not helper or not os.path.exists(helper):
    print(f"FAIL: PEERS_MCP_EXE does not name a built binary ({helper!r})")
    sys.exit(1)
factor = int(os.environ.get("PEERS_TEST_TIMEOUT_FACTOR", "1") or 1)

home = tempfile.mkdtemp(prefix="peers-probe-")
env = {
    "HOME": home,
    "PATH": "/usr/bin:/bin",  # no broker to start: the probe is about the protocol only
    "CLAUDE_PEERS_BROKER_EXE": os.path.join(home, "no-broker"),  # not the one beside the helper
    "CLAUDE_PEERS_PORT": "1",  # nothing listens there
    "CLAUDE_PEERS_TOKEN": os.path.join(home, "token"),
    "CLAUDE_PEERS_DB": os.path.join(home, "db"),
    "CLAUDE_PEERS_TOOL_WAIT_MS": "200",
}
proc = subprocess.Popen([helper], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                        env=env, cwd=home)
buffer = b""
lines = []  # every stdout line, parsed
failures = 0


def fail(message):
    global failures
    failures += 1
    print(f"not ok - {message}")


def ok(condition, message):
    if condition:
        print(f"ok - {message}")
    else:
        fail(message)


def send(raw: bytes):
    proc.stdin.write(raw + b"\n")
    proc.stdin.flush()


def read_until(predicate, timeout=10.0):
    """Reads stdout lines until predicate(line) holds for one; returns it or None."""
    global buffer
    deadline = time.monotonic() + timeout * factor
    while True:
        for line in lines:
            if predicate(line):
                return line
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([proc.stdout], [], [], remaining)
        if not ready:
            return None
        chunk = os.read(proc.stdout.fileno(), 1 << 20)
        if not chunk:
            return None
        buffer += chunk
        while b"\n" in buffer:
            raw, buffer = buffer.split(b"\n", 1)
            try:
                value = json.loads(raw)
            except ValueError:
                fail(f"stdout line is not JSON: {raw[:200]!r}")
                continue
            if not isinstance(value, dict):
                fail(f"stdout line is not a JSON object: {raw[:200]!r}")
                continue
            lines.append(value)


def answer(id_value, timeout=10.0):
    return read_until(lambda o: "method" not in o and "id" in o and o["id"] == id_value
                      and type(o["id"]) is type(id_value), timeout)


def code(o):
    return (o or {}).get("error", {}).get("code")


# initialize with a protocol version from the future: answered with ours, not an error.
send(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2099-01-01",'
     b'"capabilities":{},"clientInfo":{"name":"raw-probe","version":"1"}}}')
init = answer(0)
ok(init is not None and init["result"]["protocolVersion"] == "2025-11-25", "initialize 2099-01-01 -> 2025-11-25, id 0 echoed")
send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
# No broker answers (port 1, none to start): the client is told, not only stderr.
trouble = read_until(lambda o: o.get("method") == "notifications/message", 15.0 * factor)
ok(trouble is not None and trouble["params"]["level"] == "error" and trouble["params"]["logger"] == "claude-peers"
   and "No broker answers" in trouble["params"]["data"],
   f"broker trouble arrives as notifications/message (got {trouble})")

# server/discover (the 2026-07-28 probe, string id) -> -32601 so that dual-era clients fall back.
send(b'{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{}}')
ok(code(answer("server-discover-probe-1")) == -32601, "server/discover -> -32601 with the string id")

# string id and integer id with the same digits are different requests.
send(b'{"jsonrpc":"2.0","id":"7","method":"ping"}')
send(b'{"jsonrpc":"2.0","id":7,"method":"ping"}')
ok(answer("7") is not None and answer("7")["result"] == {}, 'ping with string id "7"')
ok(answer(7) is not None and answer(7)["result"] == {}, "ping with integer id 7")

# bad JSON, a bare value, an array (batches only exist in 2025-03-26)
before = len([o for o in lines if o.get("id") is None])
send(b'{"jsonrpc":"2.0","id":1,"method":')
send(b'12345')
send(b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]')
send(b'{"jsonrpc":"2.0","id":"after","method":"ping"}')
answer("after")
null_errors = [o for o in lines if o.get("id") is None][before:]
ok([code(o) for o in null_errors] == [-32700, -32600, -32600], f"bad JSON -32700, bare value -32600, array -32600 (got {[code(o) for o in null_errors]})")

# unknown methods, and the ones Claude Code sends without the capability
for i, method in enumerate(["prompts/list", "resources/list", "resources/templates/list", "foo"]):
    send(json.dumps({"jsonrpc": "2.0", "id": 100 + i, "method": method}).encode())
    ok(code(answer(100 + i)) == -32601, f"{method} -> -32601")

# logging is a capability of ours (broker trouble as notifications/message)
send(b'{"jsonrpc":"2.0","id":110,"method":"logging/setLevel","params":{"level":"bogus"}}')
ok(code(answer(110)) == -32602, "logging/setLevel with an unknown level -> -32602")
send(b'{"jsonrpc":"2.0","id":111,"method":"logging/setLevel","params":{"level":"debug"}}')
ok(answer(111) is not None and answer(111).get("result") == {}, "logging/setLevel debug -> {}")

# invalid requests that carry a readable id
send(b'{"jsonrpc":"1.0","id":200,"method":"ping"}')
ok(code(answer(200)) == -32600, "jsonrpc 1.0 -> -32600")
send(b'{"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"nope"}}')
ok(code(answer(201)) == -32602, "unknown tool -> -32602")
send(b'{"jsonrpc":"2.0","id":202,"method":"tools/call","params":{"name":"whoami","arguments":"x"}}')
ok(code(answer(202)) == -32602, "arguments not an object -> -32602")
send(b'{"jsonrpc":"2.0","id":203,"method":"tools/call","params":{"name":"send_message","arguments":{"to_id":5,"message":"x"}}}')
r = answer(203, 15)
ok(r is not None and r["result"].get("isError") is True, "a tool failure is an isError result, not a protocol error")

# notifications never get an answer (not even errors)
count = len(lines)
send(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}')
send(b'{"jsonrpc":"2.0","method":"notifications/unknown"}')
send(b'{"jsonrpc":"2.0","method":"notifications/initialized","params":"bad"}')
send(b'{"jsonrpc":"2.0","id":"fence","method":"ping"}')
answer("fence")
ok(len(lines) == count + 1, "notifications are not answered")

# a 20 MB line: one -32600 "Line too long", then business as usual
before = len([o for o in lines if o.get("id") is None])
send(b'{"jsonrpc":"2.0","id":300,"method":"ping","params":{"pad":"' + b"x" * (20 * 1024 * 1024) + b'"}}')
send(b'{"jsonrpc":"2.0","id":301,"method":"ping"}')
ok(answer(301, 60) is not None, "the helper answers after a 20 MB line")
too_long = [o for o in lines if o.get("id") is None][before:]
ok(len(too_long) == 1 and code(too_long[0]) == -32600 and "Line too long" in too_long[0]["error"]["message"],
   f"20 MB line -> one -32600 Line too long ({[o.get('error') for o in too_long]})")
ok(answer(300, 0.1) is None, "the oversized request itself is not answered")

# blank lines and CRLF are tolerated
send(b"")
send(b'{"jsonrpc":"2.0","id":400,"method":"ping"}\r')
ok(answer(400) is not None, "CRLF line answered")

ok(proc.poll() is None, "still running")

# EOF on stdin: exit 0 promptly
started = time.monotonic()
proc.stdin.close()
try:
    rc = proc.wait(timeout=5 * factor)
except subprocess.TimeoutExpired:
    proc.kill()
    rc = None
ok(rc == 0, f"exit code 0 after stdin EOF (got {rc}) in {time.monotonic() - started:.2f} s")
read_until(lambda o: False, 0.2)  # drain: every remaining line must be JSON too

if failures:
    print(f"FAIL raw-probe: {failures} check(s) failed")
    sys.exit(1)
print("PASS raw-probe")
