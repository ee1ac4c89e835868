// The control service end to end (issue 10 §3): the real claude-peers-broker drives a real
// `opencode serve` (npm opencode-ai, pinned in ../opencode/package-lock.json) backed by a
// scripted OpenAI-compatible provider on loopback; the real claude-peers CLI and the helper's
// openchamber tool (through the pinned MCP SDK client) are the front ends. Offline: private
// HOME and XDG dirs, OpenCode's network switches off and its plugin dependencies pre-created,
// and CTest runs it through ../lib/in-netns.sh --own-pids, a network namespace where only
// loopback exists, so OpenCode cannot open any connection but to loopback (checked again at the
// end from /proc/net/tcp*), and a pid namespace, so nothing outlives it.
// Cases: create with a prompt → wait → lastAssistantMessage is the mock's reply; unknown agent,
// unknown model, known model with an unknown variant → exit 2 and no session created (counted
// through OpenCode's own API); send and fork on that session; the tool's envelope; OpenCode
// down → a clear error naming the URL; create --worktree in a git repository (worktreecases.mjs).
// Alongside them, on brokers of their own, the scheduled
// once tasks of schedulecases.mjs (run exactly once, also across a restart while due or mid-run).
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, fail, freePort, makeHome, onCleanup, requireExe, startBroker, waitFor } from '../lib/harness.mjs';
import { isolatedOpenCodeEnv, opencodeExe, prepareIsolatedOpenCode, startOpenCodeServer } from '../opencode/isolatedopencode.mjs';
import { startMockProvider } from '../opencode/mockprovider.mjs';
import { cliRunner, json } from './cli.mjs';
import { runScheduleCases } from './schedulecases.mjs';
import { runWorktreeCases } from './worktreecases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const opencodeDir = path.resolve(here, '..', 'opencode');
if (!existsSync(opencodeExe) || !existsSync(path.join(opencodeDir, 'node_modules', '@opencode-ai', 'plugin', 'package.json')))
  fail('opencode-ai is not installed. Run: tools/install-deps.sh test (npm install --prefix tests/external/opencode)');
if (process.env.PEERS_IN_NETNS !== '1' || process.pid !== 1)
  fail('run through ../lib/in-netns.sh --own-pids (a loopback-only network and a pid namespace of its own)');
const cli = requireExe('PEERS_CLI_EXE');
const helper = requireExe('PEERS_MCP_EXE');
const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');

const home = await makeHome();
const mock = await startMockProvider({ answer: (text) => (text.startsWith('PEERS ') ? `Reply to ${text}` : null) });
onCleanup(() => mock.close());

// OpenCode in its own folder and XDG dirs, as ../opencode/opencode.mjs runs it (its notes say
// why each switch and the pre-created node_modules).
const base = path.join(home.dir, 'oc');
const { project, xdg } = prepareIsolatedOpenCode(base, mock.port, { high: {} });
const ocPort = await freePort();
const dir = realpathSync(project);
const { oc, log: ocLogOf, url: ocUrl } = await startOpenCodeServer({
  project, env: isolatedOpenCodeEnv(home.dir, xdg), port: ocPort, timeoutMs: 60000 * factor, failAndExit: fail,
});
onCleanup(() => {
  try {
    process.kill(-oc.pid, 'SIGKILL');
  } catch { /* gone */ }
});

// OpenCode's own view, for counting sessions.
async function ocSessions() {
  const r = await fetch(`${ocUrl}/session?directory=${encodeURIComponent(dir)}`, { signal: AbortSignal.timeout(30000 * factor) });
  const list = await r.json();
  if (!Array.isArray(list)) fail(`GET /session: ${JSON.stringify(list)}`);
  return list;
}
check((await ocSessions()).length === 0, 'OpenCode starts without sessions');

// OpenCode on its own, the same prompt through its blocking API in another directory: that the
// mock answers, and OpenCode's own time for the figure below.
const direct = path.join(base, 'direct');
mkdirSync(direct, { recursive: true });
const directQuery = `?directory=${encodeURIComponent(realpathSync(direct))}`;
const directSession = await (await fetch(`${ocUrl}/session${directQuery}`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
})).json();
let t0 = Date.now();
const directAnswer = await (await fetch(`${ocUrl}/session/${directSession.id}/message${directQuery}`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ parts: [{ type: 'text', text: 'PEERS hello' }] }),
  signal: AbortSignal.timeout(120000 * factor),
})).json();
const directMs = Date.now() - t0;
const directText = (directAnswer.parts ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('');
check(directText === 'Reply to PEERS hello', `OpenCode alone gets the mock's reply: ${JSON.stringify(directAnswer).slice(0, 500)}`);
console.log(`figure: OpenCode's own POST /session/:id/message took ${directMs} ms`);

// The scheduled tasks wait for a minute boundary: they run alongside the cases below.
const scheduled = runScheduleCases({ ocUrl, base, cli }).catch((e) => fail(`schedule cases: ${e?.stack ?? e}`));

// The broker with the control service pointed at this OpenCode.
home.env.CLAUDE_PEERS_OPENCODE_URL = ocUrl;
writeFileSync(path.join(home.dir, '.claude-peers-config.json'),
  JSON.stringify({ openchamber: { projects: [{ id: 'demo', path: dir }] } }));
await startBroker(home);

const run = cliRunner(cli, home.env);

// projects and models come from the config file.
let r = await run('projects', '--json');
check(r.code === 0 && json(r, 'projects').projects?.[0]?.id === 'demo', `projects lists demo: ${r.out}${r.err}`);

// create with a prompt, waiting: the mock's reply is the last assistant message.
t0 = Date.now();
r = await run('session', 'create', '--dir', dir, '--prompt', 'PEERS hello', '--model', 'mock/mock-model', '--wait',
  '--timeout', String(Math.round(60 * factor)), '--last-assistant', '--json');
const createdMs = Date.now() - t0;
const created = json(r, 'session create');
if (r.code !== 0 && created.sessionId) {
  // What OpenCode holds for it, to tell a service fault from an OpenCode one.
  const messages = await (await fetch(`${ocUrl}/session/${created.sessionId}/message?directory=${encodeURIComponent(dir)}`)).json();
  const status = await (await fetch(`${ocUrl}/session/status?directory=${encodeURIComponent(dir)}`)).json();
  console.log(`OpenCode's messages: ${JSON.stringify(messages).slice(0, 3000)}\nstatus: ${JSON.stringify(status)}`);
  console.log(`mock requests: ${JSON.stringify(mock.requests.map((q) => ({ stream: q.stream, roles: (q.messages ?? []).map((m) => m.role), last: JSON.stringify(q.messages?.at(-1)?.content).slice(0, 300), tools: (q.tools ?? []).length })))}\nopencode log tail:\n${ocLogOf().slice(-3000)}`);
}
check(r.code === 0 && created.promptDispatched === true, `create dispatched the prompt: ${r.out}${r.err}`);
check(created.lastAssistantMessage?.text === 'Reply to PEERS hello',
  `lastAssistantMessage is the mock's reply: ${JSON.stringify(created.lastAssistantMessage)}`);
check(created.sessionStatus?.type === 'idle', `the session is idle after the wait: ${JSON.stringify(created.sessionStatus)}`);
console.log(`figure: session create --wait took ${createdMs} ms (CLI process included)`);
const sessionId = created.sessionId;
check((await ocSessions()).length === 1, 'OpenCode has the one session');

// Refused selections: exit 2, and OpenCode gets no session.
for (const [flags, text] of [
  [['--agent', 'no-such-agent'], "Unknown agent 'no-such-agent'"],
  [['--model', 'mock/no-such-model'], "Unknown model 'mock/no-such-model'"],
  [['--model', 'mock/mock-model', '--variant', 'ultra'], "Unknown variant 'ultra' for model 'mock/mock-model'"],
]) {
  r = await run('session', 'create', '--dir', dir, '--prompt', 'PEERS refused', ...flags);
  check(r.code === 2 && r.err.includes(text), `${flags.join(' ')} → exit 2 with "${text}" (got ${r.code}: ${r.err})`);
}
check((await ocSessions()).length === 1, 'no session was created by the refused selections');

// A known variant passes.
r = await run('session', 'send', '--session', sessionId, '--dir', dir, '--prompt', 'PEERS again', '--variant', 'high',
  '--model', 'mock/mock-model', '--wait', '--timeout', '120', '--last-assistant', '-q');
check(r.code === 0 && r.out.trim() === 'Reply to PEERS again', `send with a known variant: ${r.code} ${r.out}${r.err}`);

// fork that session with a prompt.
r = await run('session', 'fork', '--session', sessionId, '--dir', dir, '--prompt', 'PEERS forked', '--wait', '--timeout', '120',
  '--last-assistant', '--json');
const forked = json(r, 'session fork');
check(r.code === 0 && forked.sourceSessionId === sessionId && forked.sessionId !== sessionId,
  `fork made a new session from ${sessionId}: ${r.out}${r.err}`);
check(forked.lastAssistantMessage?.text === 'Reply to PEERS forked', `the fork's reply: ${JSON.stringify(forked.lastAssistantMessage)}`);
check((await ocSessions()).length === 2, 'OpenCode has the fork');

// messages of the first session: both prompts and replies, text only.
r = await run('session', 'messages', '--session', sessionId, '--dir', dir, '--role', 'assistant', '--json');
const texts = (json(r, 'session messages').messages ?? []).map((m) => m.text);
check(texts.includes('Reply to PEERS hello') && texts.includes('Reply to PEERS again'), `messages: ${JSON.stringify(texts)}`);

// Sessions in new git worktrees that OpenCode makes (worktreecases.mjs).
await runWorktreeCases({ ocUrl, base, run });

// The helper's openchamber tool through the MCP SDK client: the session's cwd is the context.
const transport = new StdioClientTransport({
  command: helper, args: [], cwd: dir, stderr: 'pipe',
  env: { ...getDefaultEnvironment(), ...home.env, CLAUDE_PEERS_TTY: 'pts/471', CLAUDE_PEERS_STARTUP_HELLO: 'false' },
});
const client = new Client({ name: 'openchamber-test', version: '1.0.0' });
await client.connect(transport);
onCleanup(() => transport.close());
const tool = async (action, parameters) => {
  const result = await client.callTool({ name: 'openchamber', arguments: { action, parameters } }, undefined,
    { timeout: 180000 * factor });
  return { isError: result.isError === true, envelope: JSON.parse(result.content?.[0]?.text ?? '{}') };
};
let answer = await tool('session.list', {});
check(!answer.isError && answer.envelope.schemaVersion === 1 && answer.envelope.ok === true &&
  answer.envelope.data.directory === dir && answer.envelope.data.sessions.length === 2,
  `the tool lists the context directory's two sessions: ${JSON.stringify(answer.envelope).slice(0, 300)}`);
answer = await tool('session.create', { prompt: 'PEERS from the tool', wait: true, timeout: 120, lastAssistant: true });
check(answer.envelope.ok === true && answer.envelope.data.lastAssistantMessage?.text === 'Reply to PEERS from the tool',
  `the tool's create in the session's cwd: ${JSON.stringify(answer.envelope).slice(0, 300)}`);
answer = await tool('session.create', { prompt: 'PEERS refused', agent: 'no-such-agent' });
check(answer.isError && answer.envelope.ok === false && answer.envelope.error?.kind === 'usage',
  `a refused agent is a usage envelope: ${JSON.stringify(answer.envelope)}`);
check((await ocSessions()).length === 3, 'the tool created exactly one session');

await scheduled;

// OpenCode down: a clear error naming the URL, exit 1.
process.kill(-oc.pid, 'SIGKILL');
await waitFor(() => oc.exitCode !== null || oc.signalCode !== null, 10000, 'opencode to exit');
r = await run('session', 'create', '--dir', dir, '--prompt', 'PEERS nobody');
check(r.code === 1 && r.err.includes(ocUrl) && /opencode serve/.test(r.err), `OpenCode down: ${r.code} ${r.err}`);
r = await run('session', 'list', '--dir', dir);
check(r.code === 1 && r.err.includes(ocUrl), `session list with OpenCode down: ${r.code} ${r.err}`);

// Nothing but loopback: the namespace has no other interface; /proc/net says no socket of
// ours ever reached elsewhere (remote address other than 127.0.0.1, ::1 or unset).
const remotes = ['tcp', 'tcp6'].flatMap((f) => readFileSync(`/proc/net/${f}`, 'utf8').trim().split('\n').slice(1))
  .map((line) => line.trim().split(/\s+/)[2].split(':')[0])
  .filter((addr) => !/^(0+|0100007F|0000000000000000FFFF00000100007F|00000000000000000000000001000000)$/i.test(addr));
check(remotes.length === 0, `only loopback connections (remote addresses: ${remotes.join(',') || 'none'})`);

await client.close();
console.log('PASS openchamber');
process.exit(0);
