// The real OpenCode (npm opencode-ai, pinned in this folder's own package-lock.json) as an MCP
// client of claude-peers-mcp, offline: private HOME and XDG dirs, OpenCode's network switches
// off, its plugin dependencies pre-created, a scripted OpenAI-compatible provider on loopback.
// OpenCode gets the README's own opencode.json snippet. Checks (issue 7 §3.6):
//   /mcp connected; every tool reaches the model, worded for OpenCode; a tool result reaches the
//   provider; a message sent with the CLI arrives in a banner; OpenCode's exit unregisters;
//   two helpers on one tty (§1.3; these two OpenCodes start alongside the first) keep their own
//   ids; a message the model never saw is not reported delivered (§3.1). At the end every
//   process it started must be gone.
// CTest runs it through ../lib/in-netns.sh --own-pids: a loopback-only network and a pid
// namespace of its own, so that nothing reaches the network and nothing outlives it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  check, fail, freePort, isAlive, makeHome, onCleanup, peerIdForTty, requireExe, sleep, startBroker, waitFor,
} from '../lib/harness.mjs';
import { prepareIsolatedOpenCode } from './isolatedopencode.mjs';
import { startMockProvider } from './mockprovider.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const opencodeExe = path.join(here, 'node_modules', 'opencode-ai', 'bin', 'opencode.exe');
if (!existsSync(opencodeExe) || !existsSync(path.join(here, 'node_modules', '@opencode-ai', 'plugin', 'package.json')))
  fail('opencode-ai is not installed. Run: tools/install-deps.sh test (npm install --prefix tests/external/opencode)');
if (process.env.PEERS_IN_NETNS !== '1' || process.pid !== 1)
  fail('run through ../lib/in-netns.sh --own-pids (a loopback-only network and a pid namespace of its own)');
const helper = requireExe('PEERS_MCP_EXE');
const cli = requireExe('PEERS_CLI_EXE');
const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);

const pinnedVersion = '1.18.33';

// The README's OpenCode snippet, with <path> pointing at this build.
function readmeSnippet() {
  const readme = readFileSync(path.resolve(here, '..', '..', '..', 'README.md'), 'utf8');
  const at = readme.indexOf('OpenCode, in `opencode.json`:');
  if (at < 0) fail('README.md has no "OpenCode, in `opencode.json`:" snippet');
  const block = /```json\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block) fail('README.md: no json block after the OpenCode line');
  const text = block[1].replaceAll('<path>/claude-peers-mcp', helper);
  try {
    return JSON.parse(text);
  } catch (e) {
    fail(`README.md's OpenCode snippet is not JSON: ${e.message}`);
  }
}

const home = await makeHome();
const brokerProcess = await startBroker(home);
const token = readFileSync(home.env.CLAUDE_PEERS_TOKEN, 'utf8').trim();
const mock = await startMockProvider();
onCleanup(() => mock.close());
const openCodes = [];

async function broker(route, body) {
  const r = await fetch(`http://127.0.0.1:${home.port}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return r.json();
}
const peers = () => broker('/list-peers', { scope: 'machine', cwd: '/', git_root: null });

// One `opencode serve` in its own folder, with its own XDG dirs.
async function startOpenCode(name, extraEnv = {}) {
  const base = path.join(home.dir, name);
  const { project, xdg } = prepareIsolatedOpenCode(base, mock.port);
  writeFileSync(path.join(project, 'opencode.json'), JSON.stringify(readmeSnippet(), null, 2));
  const port = await freePort();
  const env = {
    PATH: '/usr/bin:/bin',
    ...home.env, // HOME and the broker's port, token and database: the helper inherits them
    ...xdg,
    OPENCODE_DISABLE_AUTOUPDATE: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: 'true',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true',
    OPENCODE_DISABLE_SHARE: 'true',
    OPENCODE_DISABLE_EXTERNAL_SKILLS: 'true',
    OPENCODE_DISABLE_EMBEDDED_WEB_UI: 'true',
    ...extraEnv,
  };
  const child = spawn(opencodeExe, ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--print-logs'], {
    cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const pgid = child.pid; // detached: OpenCode leads a process group, and its helper is in it
  onCleanup(() => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch { /* gone */ }
  });
  const url = (route) => `http://127.0.0.1:${port}${route}${route.includes('?') ? '&' : '?'}directory=${encodeURIComponent(project)}`;
  const request = async (route, init, timeoutMs) => {
    try {
      const r = await fetch(url(route), { ...init, signal: AbortSignal.timeout(timeoutMs * factor) });
      return await r.json();
    } catch (e) {
      fail(`opencode ${name}: ${init.method ?? 'GET'} ${route}: ${e.message}\n${log}`);
    }
  };
  const oc = {
    name, child, pgid, project: realpathSync(project), log: () => log,
    get: (route) => request(route, {}, 30000),
    post: (route, body) => request(route, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    }, 120000),
  };
  openCodes.push(oc);
  // OpenCode binds its port a while before it serves it: a request that connects in between is
  // never answered (measured: still hanging after 120 s), so nothing is sent before this line.
  await waitFor(() => {
    if (child.exitCode !== null) fail(`opencode ${name} exited early:\n${log}`);
    return log.includes('opencode server listening on');
  }, 60000, `opencode ${name} to say "opencode server listening on"`);
  const health = await oc.get('/global/health');
  check(health?.healthy === true && health.version === pinnedVersion,
    `opencode ${name} is healthy and the pinned ${pinnedVersion}: ${JSON.stringify(health)}`);
  await waitFor(async () => {
    if (child.exitCode !== null) fail(`opencode ${name} exited early:\n${log}`);
    const status = await oc.get('/mcp');
    return status?.['claude-peers']?.status === 'connected';
  }, 60000, `opencode ${name}: GET /mcp shows claude-peers connected`, 100);
  check(true, `opencode ${name}: /mcp shows claude-peers connected`);
  return oc;
}

async function prompt(oc, sessionId, text) {
  const answer = await oc.post(`/session/${sessionId}/message`, { parts: [{ type: 'text', text }] });
  if (!answer?.info) fail(`opencode ${oc.name}: no answer to "${text}": ${JSON.stringify(answer).slice(0, 500)}`);
  return answer;
}

// SIGTERM, as a user's ^C; OpenCode must exit and its helper with it.
async function stopOpenCode(oc, helperPid) {
  if (!Number.isInteger(helperPid)) fail(`opencode ${oc.name}: no pid known for its helper (${helperPid})`);
  process.kill(oc.child.pid, 'SIGTERM');
  await waitFor(() => oc.child.exitCode !== null || oc.child.signalCode !== null, 30000,
    `opencode ${oc.name} to exit on SIGTERM`);
  await waitFor(() => !isAlive(helperPid), 10000, `the helper of opencode ${oc.name} (pid ${helperPid}) to exit`);
}

// Fails unless `happened` stays false for the whole window: a "must not happen" check.
async function never(happened, windowMs, what) {
  const end = Date.now() + windowMs * factor;
  while (Date.now() < end) {
    if (await happened()) fail(what());
    await sleep(100);
  }
}

// Processes of this pid namespace other than the test itself (pid 1), zombies excepted.
function leftovers() {
  const commandLine = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      return '(gone)';
    }
  };
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d) && d !== '1' && isAlive(Number(d)))
    .map((pid) => `${pid} ${commandLine(pid)}`);
}

// Stops everything the test started and checks that it is gone; only then does node exit, with
// nothing left to keep its event loop alive.
async function finish() {
  for (const oc of openCodes) {
    try {
      process.kill(-oc.pgid, 'SIGKILL');
    } catch { /* the whole group is gone */ }
    await waitFor(() => oc.child.exitCode !== null || oc.child.signalCode !== null, 10000, `opencode ${oc.name} to be gone`);
  }
  brokerProcess.kill('SIGTERM');
  await waitFor(() => brokerProcess.exitCode !== null || brokerProcess.signalCode !== null, 10000,
    'the broker to exit on SIGTERM');
  await mock.close();
  // The test is pid 1 of its own pid namespace: any other live process in it is a leftover.
  const deadline = Date.now() + 10000 * factor;
  let left;
  while ((left = leftovers()).length > 0 && Date.now() < deadline) await sleep(50);
  check(left.length === 0, `every process the test started is gone${left.length ? `; still running:\n${left.join('\n')}` : ''}`);
  console.log('PASS');
  process.exit(0);
}

// The two parts run side by side (OpenCode takes seconds to start): each looks only at the
// peers of its own folders.
const peersIn = async (...ocs) => (await peers()).filter((p) => ocs.some((oc) => oc.project === p.cwd));
const tty = 'pts/77';
const sameTty = Promise.all([startOpenCode('b', { CLAUDE_PEERS_TTY: tty }), startOpenCode('c', { CLAUDE_PEERS_TTY: tty })]);

// --- One OpenCode, no terminal ------------------------------------------------------------
const a = await startOpenCode('a');
await waitFor(async () => (await peersIn(a)).length === 1, 30000, 'the helper of opencode a to register');
const [peerA] = await peersIn(a);
check(peerA.client === 'opencode', `the peer says its client: client="${peerA.client}"`);
const stableId = createHash('sha256').update(`client:opencode:${a.project}`, 'utf8').digest('hex').slice(0, 8);
check(peerA.id === stableId, `no tty: the id is the stable one of client and folder (${peerA.id} = ${stableId})`);

const session = await a.post('/session', {});
if (!session?.id) fail(`POST /session: ${JSON.stringify(session)}`);
await prompt(a, session.id, 'please call claude-peers_whoami');
const tools = mock.toolNames();
for (const t of ['list_peers', 'send_message', 'set_summary', 'set_name', 'check_messages', 'broadcast_message',
  'message_status', 'channel_health', 'whoami'])
  check(tools.has(`claude-peers_${t}`), `the model was offered claude-peers_${t}`);
const described = JSON.stringify(mock.requests.at(-1).tools ?? []);
check(!described.includes('Claude Code instance') && !described.includes('/rename'),
  'tool descriptions are worded for OpenCode (no "Claude Code instances", no /rename)');
let results = mock.toolResults();
check(results.some((r) => r.includes(`ID: ${peerA.id}`) && r.includes('Client: OpenCode')),
  `the whoami result reached the provider: ${JSON.stringify(results.at(-1) ?? '').slice(0, 300)}`);
check(results.some((r) => r.includes('(not used by this client: messages reach you')),
  'whoami does not claim channel push for OpenCode');

// A message sent with the CLI reaches the model in the banner of its next tool result.
const send = spawnSync(cli, ['send', peerA.id, 'hello from the cli'], {
  env: { PATH: '/usr/bin:/bin', ...home.env }, encoding: 'utf8', timeout: 30000 * factor });
check(send.status === 0, `claude-peers send exits 0 (${send.stderr.trim()})`);
// A client without channels gets the banner at its next tool result (no grace period), once the
// helper has the message: ask again until it is there.
let banner;
await waitFor(async () => {
  await prompt(a, session.id, 'please call claude-peers_list_peers with {"scope":"machine"}');
  banner = mock.toolResults().find((r) => r.includes('--- QUEUED PEER MESSAGES') && r.includes('hello from the cli'));
  return banner !== undefined;
}, 30000, `the CLI's message in a banner (last tool result: ${JSON.stringify(mock.toolResults().at(-1) ?? '').slice(0, 400)})`);
check(true, `the CLI's message reached the model in a banner: ${JSON.stringify(banner).slice(0, 400)}`);

// §3.1: a message OpenCode's model never saw must not count as delivered.
const unseen = await broker('/send-message', { from_id: 'cli', to_id: peerA.id, text: 'never shown to the model' });
if (!unseen?.ok) fail(`send-message: ${JSON.stringify(unseen)}`);
// The starting state first: the broker handed it to the helper's stream (pushed_at), so the
// helper holds it; only then does "not delivered" say anything.
await waitFor(async () => {
  const listed = await broker('/messages', { ids: [unseen.message_id] });
  return (listed?.messages ?? []).some((m) => m.id === unseen.message_id && m.pushed_at);
}, 10000, '§3.1: the helper to fetch the unseen message (pushed_at at the broker)');
check(true, '§3.1: the helper fetched the unseen message and holds it');
let statusWhileRunning;
// 3 s is long enough for a wrong acknowledgement.
await never(async () => (statusWhileRunning = await broker('/message-status', { message_id: unseen.message_id })).delivered,
  3000, () => `§3.1: a message OpenCode's model never saw was reported delivered while it runs (${JSON.stringify(statusWhileRunning)})`);
check(true, `§3.1: a message OpenCode's model never saw is not reported delivered while it runs (${JSON.stringify(statusWhileRunning)})`);

// Exit unregisters.
await stopOpenCode(a, peerA.pid);
await waitFor(async () => !(await peers()).some((p) => p.id === peerA.id), 10000,
  'the helper to unregister once OpenCode exited');
check(true, 'OpenCode exited: its helper unregistered');
const statusAfterExit = await broker('/message-status', { message_id: unseen.message_id });
check(!statusAfterExit.delivered,
  `§3.1: after OpenCode exited, the unseen message is still not delivered (${JSON.stringify(statusAfterExit)})`);

// --- §1.3: two OpenCodes, two folders, one terminal ---------------------------------------
const [b, c] = await sameTty;
await waitFor(async () => (await peersIn(b, c)).length === 2, 30000, 'both helpers on one tty to register');
const settled = await peersIn(b, c);
const ids = settled.map((p) => p.id);
check(new Set(ids).size === 2 && ids.includes(peerIdForTty(tty)),
  `two helpers on ${tty}: one has the terminal's id, the other its own (${ids.join(', ')})`);
// The fight re-registered both about 1.5 times a second.
const registrations = (list) => JSON.stringify(list.map((p) => [p.id, p.registered_at]).sort());
let later = settled;
await never(async () => registrations(later = await peersIn(b, c)) !== registrations(settled), 3000,
  () => `the two helpers on one tty re-registered: ${registrations(settled)} became ${registrations(later)}`);
check(true, 'no re-registration for 3 s: the two helpers do not fight');
const pidOf = (oc) => settled.find((p) => p.cwd === oc.project)?.pid;
await Promise.all([stopOpenCode(b, pidOf(b)), stopOpenCode(c, pidOf(c))]);
await waitFor(async () => (await peers()).length === 0, 10000, 'both helpers to unregister');
check(true, 'both OpenCodes exited: their helpers exited and unregistered');

await finish();
