// Shared fixtures of the external MCP client tests: a private HOME with its own port, token
// and database, a real claude-peers-broker on that port, and small assertion helpers. Paths
// of the binaries come from CTest (PEERS_MCP_EXE, PEERS_BROKER_EXE).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..');

// The npm packages are pinned by package-lock.json; a missing install is a failure, not a skip.
export function requireNodeModules() {
  const need = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/inspector'];
  for (const pkg of need) {
    if (!existsSync(path.join(root, 'node_modules', pkg, 'package.json'))) {
      fail(`${pkg} is not installed. Run: npm ci --prefix tests/external`);
    }
  }
}

export function requireExe(name) {
  const value = process.env[name];
  if (!value || !existsSync(value)) fail(`${name} does not name a built binary (got "${value ?? ''}")`);
  return value;
}

export function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exitCode = 1;
  cleanup();
  process.exit(1);
}

export function check(condition, message) {
  if (!condition) fail(message);
  console.log(`ok - ${message}`);
}

export function peerIdForTty(tty) {
  return createHash('sha256').update(tty, 'utf8').digest('hex').slice(0, 8);
}

const cleanups = [];
export function onCleanup(fn) {
  cleanups.push(fn);
}
export function cleanup() {
  while (cleanups.length) {
    try {
      cleanups.pop()();
    } catch {
      /* best effort */
    }
  }
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanup(); process.exit(1); });

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A temporary HOME and the environment every process of the test gets.
export async function makeHome() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peers-ext-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const env = {
    HOME: dir,
    CLAUDE_PEERS_PORT: String(port),
    CLAUDE_PEERS_DB: path.join(dir, '.claude-peers.db'),
    CLAUDE_PEERS_TOKEN: path.join(dir, '.claude-peers-token'),
    CLAUDE_PEERS_RATE_LIMIT: '0',
  };
  return { dir, port, env };
}

export function httpGet(port, urlPath, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: timeoutMs }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: '' }));
  });
}

export async function startBroker(home) {
  const exe = requireExe('PEERS_BROKER_EXE');
  const child = spawn(exe, [], { env: { ...process.env, ...home.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  onCleanup(() => child.kill('SIGKILL'));
  const deadline = Date.now() + 15000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) fail(`broker exited early: ${stderr}`);
    const r = await httpGet(home.port, '/health', 500);
    if (r.status === 200) return child;
    await sleep(50);
  }
  fail(`broker did not answer /health: ${stderr}`);
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// A zombie is not alive (a container's pid 1, or a test that is pid 1 of its own namespace, may
// never reap a helper that outlived its client).
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function waitFor(condition, timeoutMs, what, intervalMs = 20) {
  const deadline = Date.now() + timeoutMs * Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(intervalMs);
  }
  fail(`timed out waiting for ${what}`);
}
