// Scheduled `once` tasks against the real OpenCode (issue 10 §3), run alongside openchamber.mjs's
// other cases, since a once task's time has minute granularity (docs/spec/control-service.md §9.1
// `time` is HH:mm, and §9.2 wants the occurrence more than 5 s ahead): every task here is due at
// the same minute M, the first minute boundary at least 12 s away, so the wait costs 12–72 s of
// which the other cases use the first ~20.
//
// Four brokers, each with its own HOME, database, port and project directory (so OpenCode's
// session list per directory counts one case's sessions), all on the one OpenCode:
//   A  runs its task at M: exactly one session with the prompt, the state recorded
//      (success, lastSessionId, lastScheduledFor = M, disabled); restarted after the run, it does
//      not run it again.
//   B  is stopped (SIGTERM) before M and started again after M, while the task is due: the run
//      happens once, after the start.
//   C  is killed (SIGKILL) in the middle of the run (a proxy in front of OpenCode holds the
//      prompt_async post): started again, the run is recorded as an error and never repeated
//      (docs/decisions.md "Scheduled runs exactly once").
//   D  the same with SIGTERM.
// Sessions are counted through OpenCode's own API (GET /session, GET /session/:id/message); each
// "never twice" check comes after several scheduler ticks (one a second) past a restart.
import http from 'node:http';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { check, fail, makeHome, onCleanup, sleep, startBroker, waitFor } from '../lib/harness.mjs';
import { cliRunner, json } from './cli.mjs';

const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);
const MODEL = 'mock/mock-model';
// Ticks to sit through before "it did not happen again" means something: the scheduler ticks
// every second.
const QUIET_MS = 4000;

// An HTTP proxy to target that holds (never forwards, never answers) the requests hold(req)
// picks; everything else, event streams included, is piped through.
async function startHoldingProxy(target, hold) {
  const held = [];
  let holds = 0;
  const server = http.createServer((req, res) => {
    if (hold(req)) {
      ++holds;
      held.push(res);
      req.resume();
      return;
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections();
  });
  onCleanup(close);
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    holds: () => holds,
    dropHeld: () => held.splice(0).forEach((res) => res.destroy()),
    close,
  };
}

function stopBroker(child, signal) {
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}

// Starts the cases: resolves when all four have passed (a failure ends the process). ocUrl is
// the real OpenCode; base a folder for the cases' directories; cli the claude-peers binary.
export async function runScheduleCases({ ocUrl, base, cli }) {
  const ocGet = async (p) => {
    const r = await fetch(`${ocUrl}${p}`, { signal: AbortSignal.timeout(30000 * factor) });
    return r.json();
  };
  const sessionsIn = async (dir) => {
    const list = await ocGet(`/session?directory=${encodeURIComponent(dir)}`);
    if (!Array.isArray(list)) fail(`GET /session: ${JSON.stringify(list)}`);
    return list;
  };
  // The ids of the sessions of dir that hold a user message with exactly this prompt.
  const prompted = async (dir, prompt) => {
    const ids = [];
    for (const s of await sessionsIn(dir)) {
      const messages = await ocGet(`/session/${s.id}/message?directory=${encodeURIComponent(dir)}`);
      if (messages.some((m) => m.info?.role === 'user' &&
          (m.parts ?? []).some((p) => p.type === 'text' && p.text === prompt))) ids.push(s.id);
    }
    return ids;
  };

  // M: the first minute boundary at least 12 s away (the tasks are created within a few
  // seconds; docs/spec/control-service.md §9.2 needs them more than 5 s ahead).
  const M = Math.ceil((Date.now() + 12000) / 60000) * 60000;
  const at = new Date(M).toISOString(); // YYYY-MM-DDTHH:mm:00.000Z
  const onceFlags = ['--once', at.slice(0, 10), '--time', at.slice(11, 16), '--timezone', 'UTC'];
  console.log(`schedule cases: the tasks are due at ${at} (in ${Math.round((M - Date.now()) / 1000)} s)`);

  const setUp = async (name, proxy) => {
    const dir = path.join(base, `sched-${name}`);
    mkdirSync(dir, { recursive: true });
    const home = await makeHome();
    home.env.CLAUDE_PEERS_OPENCODE_URL = proxy ? proxy.url : ocUrl;
    const real = realpathSync(dir);
    writeFileSync(path.join(home.dir, '.claude-peers-config.json'),
      JSON.stringify({ openchamber: { projects: [{ id: 'sched', path: real }] } }));
    const c = { name, dir: real, home, prompt: `PEERS scheduled ${name}`, proxy, run: cliRunner(cli, home.env) };
    c.broker = await startBroker(home);
    const r = await c.run('schedule', 'create', '--project', 'sched', '--name', `once ${name}`, '--prompt', c.prompt,
      '--model', MODEL, ...onceFlags, '--json');
    const task = json(r, `schedule create (${name})`).task;
    check(r.code === 0 && task?.enabled === true && task.state?.nextRunAt === M,
      `${name}: the once task is due at ${at}: ${r.out}${r.err}`);
    c.taskId = task.id;
    return c;
  };
  const taskOf = async (c) => {
    const r = await c.run('schedule', 'list', '--project', 'sched', '--json');
    const tasks = json(r, `schedule list (${c.name})`).tasks ?? [];
    if (r.code !== 0 || tasks.length !== 1) fail(`${c.name}: schedule list: ${r.out}${r.err}`);
    return tasks[0];
  };
  const restart = async (c, signal) => {
    await stopBroker(c.broker, signal);
    c.broker = await startBroker(c.home);
  };
  const untilMs = (ms) => sleep(Math.max(0, ms - Date.now()));

  const holdPrompt = (req) => req.method === 'POST' && /\/prompt_async(\?|$)/.test(req.url);
  const [a, b, cKill, dTerm] = await Promise.all([
    setUp('a'),
    setUp('b'),
    startHoldingProxy(ocUrl, holdPrompt).then((proxy) => setUp('c', proxy)),
    startHoldingProxy(ocUrl, holdPrompt).then((proxy) => setUp('d', proxy)),
  ]);
  // B goes down before its task is due.
  await stopBroker(b.broker, 'SIGTERM');
  check(Date.now() < M - 1000, 'B stopped before its task was due');

  const caseA = async () => {
    await untilMs(M);
    let task;
    await waitFor(async () => (task = await taskOf(a)).state.lastStatus === 'success', 60000,
      'A: the once task to run', 250);
    const ids = await prompted(a.dir, a.prompt);
    check(ids.length === 1 && ids[0] === task.state.lastSessionId,
      `A: one session holds the prompt, the task's lastSessionId (${JSON.stringify(ids)}, ${JSON.stringify(task.state)})`);
    check(task.state.lastScheduledFor === M && task.state.lastRunAt >= M && task.enabled === false &&
      task.state.nextRunAt === undefined && typeof task.state.lastDurationMs === 'number',
      `A: the state records the run and the task is done: ${JSON.stringify(task)}`);
    await restart(a, 'SIGTERM');
    await sleep(QUIET_MS);
    const again = await prompted(a.dir, a.prompt);
    const after = await taskOf(a);
    check(again.length === 1 && (await sessionsIn(a.dir)).length === 1 && after.state.lastRunAt === task.state.lastRunAt,
      `A: restarted after its run, the broker did not run it again (${JSON.stringify(after.state)})`);
  };

  const caseB = async () => {
    await untilMs(M + 1500); // due, and its broker down
    b.broker = await startBroker(b.home);
    let task;
    await waitFor(async () => (task = await taskOf(b)).state.lastStatus === 'success', 60000,
      'B: the task due while the broker was down to run after the start', 250);
    check(task.state.lastScheduledFor === M && task.state.lastRunAt > M + 1500 && task.enabled === false,
      `B: it ran after the start, for its occurrence at M: ${JSON.stringify(task)}`);
    await sleep(QUIET_MS);
    const ids = await prompted(b.dir, b.prompt);
    check(ids.length === 1 && ids[0] === task.state.lastSessionId && (await sessionsIn(b.dir)).length === 1,
      `B: exactly one session with the prompt (${JSON.stringify(ids)})`);
  };

  // The run is under way (its session created, its prompt held by the proxy) when the broker
  // goes: started again, the broker records the run as interrupted and does not repeat it.
  const caseInterrupted = async (c, signal) => {
    await untilMs(M);
    await waitFor(() => c.proxy.holds() === 1, 60000, `${c.name}: the run to post its prompt`, 50);
    await stopBroker(c.broker, signal);
    c.proxy.dropHeld();
    c.broker = await startBroker(c.home);
    const task = await taskOf(c);
    check(task.state.lastStatus === 'error' && /not repeated/.test(task.state.lastError ?? '') &&
      task.enabled === false && task.state.lastScheduledFor === M && task.state.nextRunAt === undefined,
      `${c.name}: the run cut by ${signal} is recorded as an error, the once task done: ${JSON.stringify(task)}`);
    await sleep(QUIET_MS);
    const sessions = await sessionsIn(c.dir);
    check(c.proxy.holds() === 1 && sessions.length === 1 && (await prompted(c.dir, c.prompt)).length === 0 &&
      (await taskOf(c)).state.lastRunAt === task.state.lastRunAt,
      `${c.name}: never repeated (${c.proxy.holds()} prompt post(s), ${sessions.length} session(s) in OpenCode)`);
  };

  await Promise.all([caseA(), caseB(), caseInterrupted(cKill, 'SIGKILL'), caseInterrupted(dTerm, 'SIGTERM')]);
}
