// The claude-peers CLI as the openchamber external tests run it: asynchronously on purpose, as
// the mock provider is served by the test's own process, so a synchronous spawn would stop it
// from streaming its answer while the CLI waits for that answer.
import { spawn } from 'node:child_process';
import { fail } from '../lib/harness.mjs';

const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);

// A function running `claude-peers <args>` with env: resolves { code, out, err }.
export function cliRunner(cli, env) {
  return (...args) => new Promise((resolve) => {
    const child = spawn(cli, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180000 * factor);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? `signal ${signal}`, out, err });
    });
  });
}

// The JSON a --json run printed, or the test fails saying what came instead.
export function json(r, what) {
  try {
    return JSON.parse(r.out);
  } catch {
    fail(`${what}: not JSON (exit ${r.code}): ${r.out}\n${r.err}`);
  }
}
