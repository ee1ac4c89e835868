// The MCP Inspector CLI (@modelcontextprotocol/inspector 0.15.0, pinned) against the real
// helper and broker: tools/list and tools/call, as a user would run it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  check, cleanup, fail, makeHome, peerIdForTty, requireExe, requireNodeModules, root, startBroker,
} from './lib/harness.mjs';

requireNodeModules();
const helper = requireExe('PEERS_MCP_EXE');
const home = await makeHome();
await startBroker(home);

const cli = path.join(root, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');
const tty = 'pts/301';

// The Inspector passes only a few variables to the server; the rest goes with -e.
function inspector(...args) {
  const env = { ...home.env, CLAUDE_PEERS_TTY: tty };
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const r = spawnSync(process.execPath, [cli, '--cli', helper, ...envArgs, ...args], {
    cwd: home.dir,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, ...home.env },
  });
  if (r.error) fail(`inspector did not run: ${r.error.message}`);
  return r;
}
function json(r, what) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    fail(`${what}: not JSON on stdout (exit ${r.status}): ${r.stdout}\n${r.stderr}`);
  }
}
function text(result) {
  return result?.content?.[0]?.text ?? '';
}

// tools/list: all ten tools (the nine peers tools, then openchamber), one page.
let r = inspector('--method', 'tools/list');
check(r.status === 0, `tools/list exits 0 (got ${r.status}: ${r.stderr})`);
const list = json(r, 'tools/list');
const names = list.tools.map((t) => t.name);
check(
  JSON.stringify(names) ===
    JSON.stringify(['list_peers', 'send_message', 'set_summary', 'set_name', 'check_messages',
      'broadcast_message', 'message_status', 'channel_health', 'whoami', 'openchamber']),
  `tools/list names: ${names.join(',')}`,
);
check(list.nextCursor === undefined, 'tools/list has no nextCursor');
check(list.tools.every((t) => t.inputSchema?.type === 'object' && t.description), 'every tool has a schema and description');
const send = list.tools.find((t) => t.name === 'send_message');
check(JSON.stringify(send.inputSchema.required) === JSON.stringify(['to_id', 'message']), 'send_message requires to_id and message');

// tools/call: a tool that needs the broker (it waits for the registration).
r = inspector('--method', 'tools/call', '--tool-name', 'list_peers', '--tool-arg', 'scope=machine');
check(r.status === 0, `tools/call list_peers exits 0 (got ${r.status}: ${r.stderr})`);
// The Inspector is neither Claude Code nor OpenCode: it gets the neutral wording.
check(text(json(r, 'list_peers')) === 'No other peers found (scope: machine).', `list_peers text: ${r.stdout}`);

r = inspector('--method', 'tools/call', '--tool-name', 'set_summary', '--tool-arg', 'summary=[INSPECTOR] probing');
check(text(json(r, 'set_summary')) === 'Summary updated: "[INSPECTOR] probing"', 'set_summary answers');

r = inspector('--method', 'tools/call', '--tool-name', 'whoami');
const who = text(json(r, 'whoami'));
check(who.includes(`TTY: ${tty}`) && who.includes(`Broker: http://127.0.0.1:${home.port}`), `whoami: ${who}`);

// A message to itself (same TTY → same id across Inspector runs): the msg# comes back.
const self = peerIdForTty(tty);
r = inspector('--method', 'tools/call', '--tool-name', 'send_message', '--tool-arg', `to_id=${self}`, 'message=hello from the inspector');
const sent = text(json(r, 'send_message'));
check(sent.startsWith(`Message sent to peer ${self} (msg#`), `send_message to self: ${sent}`);

// Inspector 0.15 sends every --tool-arg as a string: message_id "1" must still work. (The message
// above went to a helper that exited before any model saw it, so the broker may have dropped
// it as an orphan by now; ask about one to a peer that stays: this test process, registered
// directly.)
const token = readFileSync(home.env.CLAUDE_PEERS_TOKEN, 'utf8').trim();
const post = async (p, body) =>
  (await fetch(`http://127.0.0.1:${home.port}${p}`, {
    method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify(body),
  })).json();
const stayer = await post('/register', { pid: process.pid, cwd: home.dir, git_root: null, tty: 'pts/399' });
r = inspector('--method', 'tools/call', '--tool-name', 'send_message', '--tool-arg', `to_id=${stayer.id}`, 'message=to a peer that stays');
const pendingId = text(json(r, 'send_message')).match(/msg#(\d+)/)?.[1];
check(pendingId !== undefined, 'send_message to a registered peer');
r = inspector('--method', 'tools/call', '--tool-name', 'message_status', '--tool-arg', `message_id=${pendingId}`);
const status = json(r, 'message_status');
check(!status.isError && text(status).startsWith(`Message #${pendingId}: `), `message_status with a string id: ${text(status)}`);

// A tool failure is an isError result (exit 0 in Inspector 0.15), not a protocol error.
r = inspector('--method', 'tools/call', '--tool-name', 'send_message', '--tool-arg', 'to_id=nobody00', 'message=x');
const failed = json(r, 'send_message to nobody');
check(r.status === 0 && failed.isError === true, 'send_message to an unknown peer is isError');
check(text(failed).startsWith('Failed to send: Peer nobody00 not found.'), `its text: ${text(failed)}`);

// An unknown tool is a JSON-RPC error: Inspector 0.15 exits 1 and names -32602.
r = inspector('--method', 'tools/call', '--tool-name', 'no_such_tool');
check(r.status === 1 && /-32602/.test(r.stderr + r.stdout), `unknown tool → -32602 (exit ${r.status}): ${r.stderr.trim()}`);

cleanup();
console.log('PASS inspector-cli');
