// What the real-Claude-Code tests share (claude-code/, claude-code-current/): the offline check,
// the pinned binary, processes with deadlines, the broker's peer list, and interactive sessions
// in tmux (a real terminal, so the helper registers with the pane's tty).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { check, fail, isAlive, onCleanup, sleep, waitFor } from './harness.mjs';

export const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);

// A failure, never a skip: the test must run in a loopback-only network namespace.
export async function requireOffline() {
  if (process.env.PEERS_IN_NETNS !== '1') fail('run through ../lib/in-netns.sh (a loopback-only network namespace)');
  await new Promise((resolve) => {
    // No route but loopback: a connection to a documentation address must fail at once.
    const s = net.connect({ host: '192.0.2.1', port: 80, timeout: 2000 });
    s.on('connect', () => fail('the network namespace reaches 192.0.2.1: not offline'));
    s.on('timeout', () => fail('the network namespace has a route out (connect to 192.0.2.1 did not fail at once)'));
    s.on('error', (e) => {
      check(e.code === 'ENETUNREACH', `offline: connect to 192.0.2.1 fails with ${e.code}`);
      resolve();
    });
  });
  if (spawnSync('tmux', ['-V']).status !== 0) fail('tmux not found: install it (tools/install-deps.sh test)');
}

// The native Claude Code binary of the npm project in dir (the platform package holds it; the
// wrapper's bin/claude.exe is it only after its postinstall ran).
export function claudeBinary(dir) {
  const project = path.relative(path.resolve(dir, '../../..'), dir);
  const base = path.join(dir, 'node_modules', '@anthropic-ai');
  const version = (p) => JSON.parse(readFileSync(path.join(base, p, 'package.json'), 'utf8')).version;
  if (!existsSync(path.join(base, 'claude-code', 'package.json')))
    fail(`@anthropic-ai/claude-code is not installed. Run: npm ci --prefix ${project}`);
  const musl = process.report?.getReport?.().header?.glibcVersionRuntime === undefined;
  const pkg = `claude-code-${process.platform}-${process.arch}${musl ? '-musl' : ''}`;
  const exe = path.join(base, pkg, 'claude');
  if (!existsSync(exe)) fail(`${pkg} (the native Claude Code binary) is not installed; run npm ci --prefix ${project}`);
  if (version(pkg) !== version('claude-code')) fail(`${pkg} ${version(pkg)} does not match claude-code ${version('claude-code')}`);
  console.log(`# Claude Code ${version('claude-code')} (${exe})`);
  return exe;
}

// A scratch HOME as a user who has run Claude Code `version` before: onboarding done, the mock's
// API key approved, the project trusted, and the channels feature flag cached as on (offline,
// Claude Code reads the cached value). Answers the environment Claude Code runs with: only what
// it needs, so none of the switches that turn channels off leaks in from the test's own.
export function claudeHome({ home, work, mockPort, version, extraEnv = {} }) {
  const apiKey = 'sk-ant-api03-claude-peers-external-test-key-0000000000000000000000';
  writeFileSync(path.join(home.dir, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    lastOnboardingVersion: version,
    lastReleaseNotesSeen: version,
    theme: 'dark',
    numStartups: 5,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
    cachedGrowthBookFeatures: { tengu_harbor: true },
  }));
  return {
    HOME: home.dir,
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${mockPort}`,
    ANTHROPIC_API_KEY: apiKey,
    DISABLE_AUTOUPDATER: '1',
    ...extraEnv,
  };
}

// Runs exe to its end (killed after timeoutMs × factor): { code, signal, stdout, stderr }.
export function run(exe, args, { env, cwd, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(exe, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs * factor);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

// Like waitFor, but answers whether it happened instead of failing.
export async function happens(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs * factor;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(50);
  }
  return false;
}

// Interactive Claude Code sessions in tmux, the CLI, and every process they leave behind.
// { claude, claudeEnv, cli, peersEnv, work, socket }
export function claudeSessions({ claude, claudeEnv, cli, peersEnv, work, socket }) {
  // One tmux server per session (its own socket): a new session never meets the server of the
  // previous one while it shuts down ("server exited unexpectedly").
  const tm = (name, ...args) => spawnSync('tmux', ['-S', `${socket}-${name}`, ...args], { encoding: 'utf8' });
  const servers = new Map(); // session name → tmux server pid
  // Processes the test did not spawn itself (Claude Code in tmux, the tmux servers, every helper
  // seen at the broker): cleanup stops any that a failing run left behind.
  const killAtEnd = new Set();
  onCleanup(() => {
    for (const pid of killAtEnd) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch { /* already gone */ }
    }
  });
  const runCli = (args) => run(cli, args, { env: peersEnv, cwd: work, timeoutMs: 30000 });
  const runClaude = (args, timeoutMs = 120000) => run(claude, args, { env: claudeEnv, cwd: work, timeoutMs });

  async function peers() {
    const r = await runCli(['peers', '--json']);
    if (r.code !== 0) fail(`claude-peers peers --json: exit ${r.code}: ${r.stderr}`);
    const list = JSON.parse(r.stdout);
    for (const p of list) if (Number.isInteger(p.pid)) killAtEnd.add(p.pid);
    return list;
  }

  // Starts claude with args in a new tmux session and waits for its prompt, accepting the
  // development-channels warning when it shows. s.acceptedWarning says whether it did.
  async function start(name, { extraEnv = {}, args = [] } = {}) {
    const envArgs = Object.entries({ ...claudeEnv, ...extraEnv }).map(([k, v]) => `${k}=${v}`);
    const started = tm(name, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', '200', '-y', '50', '-c', work, '--',
      'env', '-i', ...envArgs, claude, ...args);
    if (started.status !== 0) fail(`tmux new-session: ${started.stderr}`);
    const [serverPid, pid, tty] = tm(name, 'display-message', '-p', '-t', name, '#{pid} #{pane_pid} #{pane_tty}').stdout.trim().split(' ');
    const s = { name, pid: Number(pid), paneTty: tty.replace(/^\/dev\//, ''), acceptedWarning: false };
    servers.set(name, Number(serverPid));
    killAtEnd.add(Number(serverPid)).add(s.pid);
    s.screen = () => tm(name, 'capture-pane', '-p', '-t', name).stdout ?? '';
    s.type = (text) => {
      tm(name, 'send-keys', '-t', name, '-l', text);
      tm(name, 'send-keys', '-t', name, 'Enter');
    };
    const ready = await happens(() => {
      const text = s.screen();
      if (!s.acceptedWarning && text.includes('I am using this for local development')) {
        tm(name, 'send-keys', '-t', name, 'Enter');
        s.acceptedWarning = true;
      }
      // The status line under the prompt: "? for shortcuts", or the permission mode's cycle hint.
      return /\? for shortcuts|shift\+tab to cycle/.test(text);
    }, 60000);
    if (!ready) fail(`interactive session ${name} not ready; its screen:\n${s.screen()}`);
    return s;
  }

  async function registeredPeer(tty) {
    let peer;
    await waitFor(async () => {
      peer = (await peers()).find((p) => p.tty === tty);
      return peer !== undefined;
    }, 30000, `a helper registered with tty ${tty}`);
    check(true, `helper registered: id ${peer.id}, pid ${peer.pid}, tty ${peer.tty}`);
    return peer;
  }

  // /exit, then Claude Code, its helper and the helper's registration are gone.
  async function exit(s, peer) {
    s.type('/exit');
    await waitFor(() => !isAlive(s.pid), 30000, `Claude Code ${s.name} to exit after /exit`);
    await waitFor(() => !isAlive(peer.pid), 15000, `the helper (pid ${peer.pid}) to exit with Claude Code`);
    await waitFor(async () => !(await peers()).some((p) => p.id === peer.id && p.pid === peer.pid), 15000,
      'the helper to leave the broker');
    check(true, `Claude Code ${s.name} exited; its helper exited and unregistered`);
    killAtEnd.delete(s.pid); // gone: never signal a pid that may be reused
    killAtEnd.delete(peer.pid);
  }

  async function stopTmux() {
    for (const [name, pid] of servers) {
      tm(name, 'kill-server');
      await waitFor(() => !isAlive(pid), 10000, `the tmux server of ${name} to exit`);
      killAtEnd.delete(pid);
    }
    servers.clear();
  }

  return { runCli, runClaude, peers, start, registeredPeer, exit, stopTmux };
}
