// The real Claude Code (npm @anthropic-ai/claude-code, pinned by package-lock.json) with the
// real claude-peers-mcp, offline: a mock Anthropic Messages API on loopback, a scratch HOME with
// onboarding and trust pre-accepted, everything in a loopback-only network namespace
// (../lib/in-netns.sh). Checks:
//   1. `claude mcp add claude-peers -e K=V -- <helper>` and `claude mcp list` shows it Connected;
//   2. `claude -p`: the model calls a peers tool and the tool result reaches the mock;
//   3. interactive in tmux with the channels flag: a message sent with the claude-peers CLI
//      reaches the model's next request as a <channel source="claude-peers" …> block;
//   4. the helper's startup hello (opt-in) reaches the model too;
//   5. a message queued at the broker before the session started reaches the model;
//   and whenever Claude Code exits, its helper exits and leaves the broker.
// Paths of the binaries come from CTest (PEERS_MCP_EXE, PEERS_BROKER_EXE, PEERS_CLI_EXE).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeBinary, claudeHome, claudeSessions, happens, requireOffline } from '../lib/claude-code.mjs';
import { check, fail, makeHome, onCleanup, requireExe, startBroker, waitFor } from '../lib/harness.mjs';
import { lastUserMessage, messageTexts, startMockAnthropic } from './mock-anthropic.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER = 'claude-peers';
const WHOAMI = `mcp__${SERVER}__whoami`;

await requireOffline();
const helper = requireExe('PEERS_MCP_EXE');
const cli = requireExe('PEERS_CLI_EXE');
const claude = claudeBinary(here);

// --- fixtures ----------------------------------------------------------------------------------
const home = await makeHome();
// No periodic stale-peer sweep during the test: it would evict the stand-in of step 5 (and drop
// its mail) while the next session starts. Only list_peers evicts, and the test lists with care.
writeFileSync(path.join(home.dir, '.claude-peers-config.json'), JSON.stringify({ broker: { sweep_interval_ms: 3600000 } }));
await startBroker(home);
const work = path.join(home.dir, 'project');
mkdirSync(work);

let toolUses = 0;
const mock = await startMockAnthropic((body) => {
  const last = lastUserMessage(body);
  const blocks = Array.isArray(last?.content) ? last.content : [{ type: 'text', text: String(last?.content ?? '') }];
  if (blocks.some((b) => b.type === 'tool_result' && String(b.tool_use_id).startsWith('toolu_peers_'))) return { text: 'done' };
  const offered = (body.tools ?? []).some((t) => t.name === WHOAMI);
  const asked = blocks.some((b) => b.type === 'text' && b.text.includes('CALL_PEERS_WHOAMI'));
  if (offered && asked) return { toolUse: { id: `toolu_peers_${++toolUses}`, name: WHOAMI, input: {} } };
  return { text: 'ok' };
});
onCleanup(() => mock.close());
// PEERS_CC_DUMP=<dir> keeps what a failing run leaves (model requests, Claude Code debug logs).
if (process.env.PEERS_CC_DUMP) {
  onCleanup(() => {
    const dir = process.env.PEERS_CC_DUMP;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'requests.jsonl'), mock.requests.map((r) => JSON.stringify(r)).join('\n'));
    for (const f of readdirSync(home.dir).filter((n) => n.startsWith('claude-debug-'))) copyFileSync(path.join(home.dir, f), path.join(dir, f));
  });
}

const claudeEnv = claudeHome({ home, work, mockPort: mock.port, version: '2.1.197' });
const peersEnv = { ...process.env, ...home.env };

const sessions = claudeSessions({ claude, claudeEnv, cli, peersEnv, work, socket: path.join(home.dir, 'tmux.sock') });
const { runCli, runClaude, peers } = sessions;
const channelBlocks = (source) =>
  mock.messages().flatMap((r) => messageTexts(r.body)).join('\n').match(new RegExp(`<channel source="${source}"[^>]*>[\\s\\S]*?</channel>`, 'g')) ?? [];

// --- 1. claude mcp add / list ------------------------------------------------------------------
// The startup hello is opt-in (it costs a model turn at every start); step 4 checks it still works.
const added = await runClaude(['mcp', 'add', '--scope', 'user', SERVER, '-e', `CLAUDE_PEERS_PORT=${home.port}`,
  '-e', 'CLAUDE_PEERS_STARTUP_HELLO=1', '--', helper]);
check(added.code === 0, `claude mcp add ${SERVER} -e CLAUDE_PEERS_PORT=… -- <helper>: exit ${added.code} ${added.stderr.trim()}`);
const listed = await runClaude(['mcp', 'list']);
const line = listed.stdout.split('\n').find((l) => l.startsWith(`${SERVER}:`)) ?? '';
check(listed.code === 0 && line.includes(helper) && /Connected/.test(line) && !/Failed/.test(line),
  `claude mcp list: "${line.trim()}"`);

// --- 2. claude -p: a tool call round trip ------------------------------------------------------
const printed = await runClaude(['-p', 'Run the claude-peers whoami tool. CALL_PEERS_WHOAMI', '--allowedTools', WHOAMI]);
const offered = mock.messages().find((r) => (r.body.tools ?? []).some((t) => t.name === WHOAMI));
const peerTools = (offered?.body.tools ?? []).map((t) => t.name).filter((n) => n.startsWith(`mcp__${SERVER}__`));
check(offered !== undefined, `the model was offered the peers tools: ${peerTools.join(', ')}`);
check(toolUses >= 1, 'the mock answered with a whoami tool call');
const results = mock.messages().flatMap((r) => (lastUserMessage(r.body)?.content ?? []))
  .filter((b) => typeof b === 'object' && b.type === 'tool_result' && String(b.tool_use_id).startsWith('toolu_peers_'));
const resultText = results.length ? messageTexts({ messages: [{ content: [results[0]] }] }).join('\n') : '';
check(results.length >= 1 && !results[0].is_error && /^ID: [a-z0-9]{8}\n/.test(resultText),
  `the whoami result reached the mock: ${JSON.stringify(resultText.slice(0, 120))}`);
check(printed.code === 0 && printed.stdout.trim() === 'done', `claude -p exit ${printed.code}, printed ${JSON.stringify(printed.stdout.trim())} ${printed.stderr.trim()}`);

// --- 3. interactive with channels, in tmux -----------------------------------------------------
// Starts `claude --dangerously-load-development-channels server:claude-peers` in tmux and accepts
// the warning.
async function startInteractive(name, extraEnv = {}) {
  const debugLog = path.join(home.dir, `claude-debug-${name}.txt`);
  const s = await sessions.start(name, {
    extraEnv, args: ['--debug-file', debugLog, '--dangerously-load-development-channels', `server:${SERVER}`],
  });
  check(s.acceptedWarning, `interactive Claude Code ${name} started on ${s.paneTty}, dev-channels warning accepted`);
  s.debugText = () => (existsSync(debugLog) ? readFileSync(debugLog, 'utf8') : '');
  return s;
}
const { registeredPeer, exit: exitInteractive } = sessions;

const failures = [];
const HELLO = 'claude-peers MCP server connected';

const first = await startInteractive('live');
const peer = await registeredPeer(first.paneTty);
// Claude Code's own word that it listens: it installs the handler right after this debug line.
await waitFor(() => /MCP server "claude-peers": Channel notifications registered/.test(first.debugText()), 30000,
  `Claude Code registering the channel handler (debug log: ${first.debugText().match(/Channel notifications [^\n]*/)?.[0] ?? 'nothing yet'})`);
check(true, 'Claude Code registered its claude-peers channel handler');

const text = `hello from the CLI ${Date.now()}`;
const sent = await runCli(['send', peer.id, text]);
check(sent.code === 0, `claude-peers send ${peer.id}: ${sent.stdout.trim()} ${sent.stderr.trim()}`);
let block;
await waitFor(() => {
  block = channelBlocks(SERVER).find((b) => b.includes(text));
  return block !== undefined;
}, 30000, 'the CLI message in a model request as a <channel> block');
check(true, `the model saw: ${block.replace(/\s+/g, ' ').slice(0, 300)}`);
check(/ from_id="[^"]+"/.test(block) && / type="text"/.test(block) && / message_id="\d+"/.test(block),
  'the channel block carries from_id, type and message_id');

// --- 4. the startup hello ----------------------------------------------------------------------
// Requests carry the whole conversation, so a hello shown before the message is in them already;
// one held back for a while may still come.
if (await happens(() => channelBlocks(SERVER).some((b) => b.includes(HELLO)), 20000)) {
  check(true, 'the startup hello reached the model');
} else {
  failures.push('the startup hello never reached the model (a push before Claude Code registers its channel handler is dropped: issue 7 §2.1)');
  console.log(`not ok - ${failures.at(-1)}`);
}
await exitInteractive(first, peer);

// --- 5. a message queued before the session starts ----------------------------------------------
// A stand-in peer (a live pid, then gone, as after a crash) holds the id of the tty the next
// session's helper will register with; a message to it waits at the broker and must reach the
// model of the session that takes the id over.
const queuedTty = 'pts/4242';
const standIn = spawn('sleep', ['600'], { stdio: 'ignore' });
onCleanup(() => standIn.kill('SIGKILL'));
const token = readFileSync(home.env.CLAUDE_PEERS_TOKEN, 'utf8').trim();
const reg = await postJson('/register', { pid: standIn.pid, cwd: work, git_root: null, tty: queuedTty, summary: 'stand-in' }, token);
check(reg.status === 200 && typeof reg.body?.id === 'string', `stand-in registered for ${queuedTty}: ${JSON.stringify(reg.body)}`);
const queuedText = `queued before start ${Date.now()}`;
const queued = await runCli(['send', reg.body.id, queuedText]);
check(queued.code === 0, `claude-peers send ${reg.body.id} (nobody reading): ${queued.stdout.trim()} ${queued.stderr.trim()}`);
standIn.kill('SIGKILL');
await waitFor(() => standIn.signalCode !== null || standIn.exitCode !== null, 10000, 'the stand-in to die');
// Listing peers now would evict the dead stand-in and drop its mail: look at the model first.
const second = await startInteractive('queued', { CLAUDE_PEERS_TTY: queuedTty });
if (await happens(() => channelBlocks(SERVER).some((b) => b.includes(queuedText)), 30000)) {
  check(true, 'the message queued before the start reached the model as a <channel> block');
} else {
  const history = await runCli(['messages', '--to', reg.body.id, '--json']);
  const state = JSON.parse(history.stdout || '[]').find((m) => m.text === queuedText);
  failures.push('the message queued before the session started never reached the model (a push before Claude Code ' +
    'registers its channel handler is dropped: issue 7 §2.1); at the broker it is ' +
    (state === undefined ? 'gone' : state.delivered ? 'acknowledged' : 'not acknowledged'));
  console.log(`not ok - ${failures.at(-1)}`);
}
const peer2 = await registeredPeer(queuedTty);
check(peer2.id === reg.body.id, `the new session took over id ${reg.body.id}`);
await exitInteractive(second, peer2);

await sessions.stopTmux();
if (failures.length) fail(failures.join('; '));
console.log('# all checks passed');
process.exit(0);

function postJson(urlPath, body, bearer) {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request({
      host: '127.0.0.1', port: home.port, path: urlPath, method: 'POST', timeout: 10000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), authorization: `Bearer ${bearer}` },
    }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let json = null;
        try {
          json = JSON.parse(text);
        } catch { /* not JSON */ }
        resolve({ status: res.statusCode, body: json ?? text });
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(data);
  });
}
