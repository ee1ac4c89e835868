// The OpenCode the broker runs itself (issue 10 §1, docs/openchamber.md "Managed OpenCode"):
// with openchamber.manage_opencode the real claude-peers-broker starts the real `opencode serve`
// (npm opencode-ai, as openchamber.mjs) on a free loopback port with a password of its own; a
// session create with --wait works right after the broker's start; a killed OpenCode is started
// again; a stopped broker (SIGTERM) and a killed one (SIGKILL) leave no OpenCode behind; a
// missing binary is a clear error. Offline in a loopback-only network namespace, own pids
// (../lib/in-netns.sh --own-pids), so that the process list below is this test's alone.
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { check, fail, httpGet, isAlive, makeHome, onCleanup, requireExe, startBroker, waitFor } from '../lib/harness.mjs';
import { isolatedOpenCodeEnv, opencodeExe, prepareIsolatedOpenCode } from '../opencode/isolatedopencode.mjs';
import { startMockProvider } from '../opencode/mockprovider.mjs';
import { cliRunner, json } from './cli.mjs';

if (!existsSync(opencodeExe))
  fail('opencode-ai is not installed. Run: tools/install-deps.sh test (npm install --prefix tests/external/opencode)');
if (process.env.PEERS_IN_NETNS !== '1' || process.pid !== 1)
  fail('run through ../lib/in-netns.sh --own-pids (a loopback-only network and a pid namespace of its own)');
const cli = requireExe('PEERS_CLI_EXE');
const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);

// The live `opencode serve` processes of this pid namespace: [{ pid, ppid, port }].
function openCodeServers() {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv[0]?.endsWith('opencode.exe') || !argv.includes('serve') || !isAlive(pid)) continue;
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
      found.push({ pid, ppid, port: Number(argv[argv.indexOf('--port') + 1]) });
    } catch { /* gone meanwhile */ }
  }
  return found;
}

const mock = await startMockProvider({ answer: (text) => (text.startsWith('PEERS ') ? `Reply to ${text}` : null) });
onCleanup(() => mock.close());
const home = await makeHome();
const { project, xdg } = prepareIsolatedOpenCode(path.join(home.dir, 'oc'), mock.port);
const dir = realpathSync(project);
// What the broker's OpenCode inherits: the isolated XDG dirs and OpenCode's network switches.
delete process.env.CLAUDE_PEERS_OPENCODE_URL;
Object.assign(home.env, isolatedOpenCodeEnv(home.dir, xdg));
const writeConfig = (binary) => writeFileSync(path.join(home.dir, '.claude-peers-config.json'), JSON.stringify({
  openchamber: { manage_opencode: true, opencode_binary: binary, opencode_directory: dir, projects: [{ id: 'demo', path: dir }] },
}));
writeConfig(opencodeExe);
const run = cliRunner(cli, home.env);
const createAndWait = async (prompt) => {
  const r = await run('session', 'create', '--dir', dir, '--prompt', prompt, '--model', 'mock/mock-model', '--wait',
    '--timeout', String(Math.round(120 * factor)), '--last-assistant', '--json');
  const created = json(r, 'session create');
  check(r.code === 0 && created.lastAssistantMessage?.text === `Reply to ${prompt}`,
    `session create --wait through the broker's OpenCode answers: ${r.out.slice(0, 300)}${r.err}`);
};

// The broker starts OpenCode with itself; the first create waits for it to be ready.
check(openCodeServers().length === 0, 'no OpenCode runs before the broker');
let broker = await startBroker(home);
await waitFor(() => openCodeServers().length === 1, 30000, 'the broker to start OpenCode');
const [first] = openCodeServers();
check(first.ppid === broker.pid && first.port > 0 && first.port !== 4096,
  `OpenCode is the broker's child on a port of its own (${JSON.stringify(first)}, broker ${broker.pid})`);
await createAndWait('PEERS managed');
// Its server password is set: without it OpenCode refuses.
const unauthenticated = await httpGet(first.port, '/global/health', 5000 * factor);
check(unauthenticated.status === 401, `the managed OpenCode wants its password (GET /global/health without it: ${unauthenticated.status})`);

// Killed, it is started again (on a new port), and the service follows it.
process.kill(first.pid, 'SIGKILL');
await waitFor(() => openCodeServers().some((s) => s.pid !== first.pid), 60000, 'the broker to start OpenCode again');
const [second] = openCodeServers();
check(openCodeServers().length === 1 && second.ppid === broker.pid, `one OpenCode again, the broker's (${JSON.stringify(second)})`);
await createAndWait('PEERS after the restart');

// A stopped broker stops it.
broker.kill('SIGTERM');
await waitFor(() => broker.exitCode !== null || broker.signalCode !== null, 20000, 'the broker to stop');
check(openCodeServers().length === 0 && !isAlive(second.pid), 'SIGTERM: the broker took its OpenCode with it');

// A killed broker too (the server dies with its parent, PR_SET_PDEATHSIG).
broker = await startBroker(home);
await waitFor(() => openCodeServers().length === 1, 30000, 'the restarted broker to start OpenCode');
const [third] = openCodeServers();
broker.kill('SIGKILL');
await waitFor(() => !isAlive(third.pid), 10000, 'OpenCode to go with the killed broker');
check(openCodeServers().length === 0, 'SIGKILL: no OpenCode outlives the broker');

// No binary: a clear error that says what to set, and nothing started.
writeConfig(path.join(home.dir, 'no-such-dir', 'opencode'));
broker = await startBroker(home);
const r = await run('session', 'create', '--dir', dir, '--prompt', 'PEERS nobody');
check(r.code === 1 && /opencode_binary/.test(r.err) && /was not found/.test(r.err) && r.err.includes('no-such-dir'),
  `a missing binary: exit 1 and what to set (${r.code}: ${r.err})`);
check(openCodeServers().length === 0, 'no OpenCode was started');
broker.kill('SIGTERM');

console.log('PASS openchamber managed');
process.exit(0);
