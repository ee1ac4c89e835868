// The control service's overhead against a real OpenCode (issue 10 §3 bench): the time from
// `session create --wait` to the answer, against OpenCode's own time for the same prompt, with
// the mock provider of the external tests (tests/external/opencode/mockprovider.mjs) behind an
// isolated `opencode serve` (tests/external/opencode/isolatedopencode.mjs), both on loopback.
// Run through run-real-opencode-bench.sh (a loopback-only network namespace, own pids).
//
// Each round, in alternating order so that a change of load hits both alike:
//   opencode   POST /session, then POST /session/:id/message (OpenCode's blocking prompt: it
//              answers when the reply is complete) — OpenCode alone;
//   control    POST /control {action: session.create, input: {prompt, model, wait, lastAssistant}}
//              on the broker (what `claude-peers session create --wait` sends): readiness check,
//              selection lookups, session, prompt_async, landing check, wait for the reply;
//   cli        (every --cli-every rounds) the same through the claude-peers process.
// Prints JSON: p50/p90/p99/max of each, and the overhead = control − opencode, as the difference
// of the p50s and as the p50 of the per-round differences; and the mean CPU time per round of
// OpenCode (each path) and of the broker (the control path), which the load moves much less.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fail, freePort, makeHome, onCleanup, requireExe, startBroker } from '../../tests/external/lib/harness.mjs';
import { isolatedOpenCodeEnv, prepareIsolatedOpenCode, startOpenCodeServer } from '../../tests/external/opencode/isolatedopencode.mjs';
import { startMockProvider } from '../../tests/external/opencode/mockprovider.mjs';

const { values: opts } = parseArgs({
  options: { runs: { type: 'string', default: '40' }, 'cli-every': { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3' } },
});
const runs = Number(opts.runs);
const cliEvery = Number(opts['cli-every']);
const warmup = Number(opts.warmup);
const cli = requireExe('PEERS_CLI_EXE');

const mock = await startMockProvider({ answer: (text) => `Reply to ${text}` });
onCleanup(() => mock.close());
const home = await makeHome();
const { project, xdg } = prepareIsolatedOpenCode(path.join(home.dir, 'oc'), mock.port);
const dir = realpathSync(project);
const { oc, url: ocUrl } = await startOpenCodeServer({
  project, env: isolatedOpenCodeEnv(home.dir, xdg), port: await freePort(), timeoutMs: 60000, failAndExit: fail,
});
onCleanup(() => {
  try {
    process.kill(-oc.pid, 'SIGKILL');
  } catch { /* gone */ }
});

home.env.CLAUDE_PEERS_OPENCODE_URL = ocUrl;
writeFileSync(path.join(home.dir, '.claude-peers-config.json'), JSON.stringify({ openchamber: { projects: [] } }));
const broker = await startBroker(home);
const token = readFileSync(home.env.CLAUDE_PEERS_TOKEN, 'utf8').trim();
const query = `?directory=${encodeURIComponent(dir)}`;

const post = async (url, body, headers = {}) => {
  const r = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    signal: AbortSignal.timeout(120000),
  });
  const text = await r.text();
  if (!r.ok) fail(`${url}: ${r.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
};
const replyOf = (parts) => (parts ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('');

async function viaOpenCode(prompt) {
  const t0 = performance.now();
  const session = await post(`${ocUrl}/session${query}`, {});
  const answer = await post(`${ocUrl}/session/${session.id}/message${query}`, { parts: [{ type: 'text', text: prompt }] });
  const ms = performance.now() - t0;
  if (replyOf(answer.parts) !== `Reply to ${prompt}`) fail(`OpenCode's reply: ${JSON.stringify(answer).slice(0, 500)}`);
  return ms;
}

async function viaControl(prompt) {
  const t0 = performance.now();
  const result = await post(`http://127.0.0.1:${home.port}/control`, {
    action: 'session.create',
    input: { directory: dir, prompt, model: 'mock/mock-model', wait: true, timeout: 120, lastAssistant: true },
  }, { authorization: `Bearer ${token}` });
  const ms = performance.now() - t0;
  if (result.lastAssistantMessage?.text !== `Reply to ${prompt}`) fail(`the service's reply: ${JSON.stringify(result).slice(0, 500)}`);
  return ms;
}

function viaCli(prompt) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cli, ['session', 'create', '--dir', dir, '--prompt', prompt, '--model', 'mock/mock-model', '--wait',
      '--timeout', '120', '--last-assistant', '-q'], { env: { ...process.env, ...home.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0 || out.trim() !== `Reply to ${prompt}`) fail(`the CLI: exit ${code}, ${out}`);
      resolve(ms);
    });
  });
}

// CPU time of a process (user + system, /proc/<pid>/stat, clock ticks of 10 ms): summed over
// many rounds it shows where the work goes, whatever the machine's load does to wall times.
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const cpu = { opencodeDirect: 0, opencodeControl: 0, brokerControl: 0 };
const measured = async (key, fn) => {
  const before = { oc: cpuMs(oc.pid), broker: cpuMs(broker.pid) };
  const ms = await fn();
  if (key === 'direct') cpu.opencodeDirect += cpuMs(oc.pid) - before.oc;
  if (key === 'control') {
    cpu.opencodeControl += cpuMs(oc.pid) - before.oc;
    cpu.brokerControl += cpuMs(broker.pid) - before.broker;
  }
  return ms;
};

const samples = { opencode: [], control: [], cli: [], difference: [] };
for (let i = 0; i < warmup + runs; ++i) {
  const prompt = `bench ${i}`;
  let direct;
  let control;
  if (i === warmup) Object.keys(cpu).forEach((k) => (cpu[k] = 0));
  if (i % 2 === 0) {
    direct = await measured('direct', () => viaOpenCode(`${prompt} direct`));
    control = await measured('control', () => viaControl(`${prompt} control`));
  } else {
    control = await measured('control', () => viaControl(`${prompt} control`));
    direct = await measured('direct', () => viaOpenCode(`${prompt} direct`));
  }
  const cliMs = cliEvery > 0 && i % cliEvery === 0 ? await viaCli(`${prompt} cli`) : null;
  if (i < warmup) continue;
  samples.opencode.push(direct);
  samples.control.push(control);
  samples.difference.push(control - direct);
  if (cliMs !== null) samples.cli.push(cliMs);
  process.stderr.write(`round ${i - warmup + 1}/${runs}: opencode ${direct.toFixed(1)} ms, control ${control.toFixed(1)} ms` +
    `${cliMs !== null ? `, cli ${cliMs.toFixed(1)} ms` : ''}\n`);
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.toFixed(1) ?? 0);
  return { samples: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
};
const result = {
  runs,
  opencode_ms: stats(samples.opencode),
  control_ms: stats(samples.control),
  cli_ms: stats(samples.cli),
  overhead_ms: {
    p50_difference: Number((stats(samples.control).p50 - stats(samples.opencode).p50).toFixed(1)),
    per_round: stats(samples.difference),
  },
  // Mean CPU per round: OpenCode's for its own path and for the service's, the broker's.
  cpu_ms_per_round: {
    opencode_direct: Number((cpu.opencodeDirect / runs).toFixed(1)),
    opencode_for_control: Number((cpu.opencodeControl / runs).toFixed(1)),
    broker_for_control: Number((cpu.brokerControl / runs).toFixed(1)),
  },
};
console.log(JSON.stringify(result, null, 2));
process.exit(0);
