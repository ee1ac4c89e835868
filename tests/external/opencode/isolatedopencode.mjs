// An `opencode serve` that touches nothing of the user's and nothing on the internet: a folder
// with its own project and XDG dirs, and a config whose only provider is the test's mock. Its
// plugin dependencies are pre-created under the config dir, else OpenCode runs an npm install at
// every start (see opencode.mjs's notes).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// Returns { project, xdg } for `base`; modelVariants become the mock model's variants.
export function prepareIsolatedOpenCode(base, mockPort, modelVariants = undefined) {
  const project = path.join(base, 'project');
  const xdg = Object.fromEntries(
    ['CONFIG', 'DATA', 'CACHE', 'STATE'].map((k) => [`XDG_${k}_HOME`, path.join(base, k.toLowerCase())]));
  for (const d of [project, ...Object.values(xdg)]) mkdirSync(d, { recursive: true });
  const configDir = path.join(xdg.XDG_CONFIG_HOME, 'opencode');
  mkdirSync(path.join(configDir, 'node_modules', '@opencode-ai'), { recursive: true });
  copyFileSync(path.join(here, 'config-deps', 'package.json'), path.join(configDir, 'package.json'));
  copyFileSync(path.join(here, 'config-deps', 'package-lock.json'), path.join(configDir, 'package-lock.json'));
  symlinkSync(path.join(here, 'node_modules', '@opencode-ai', 'plugin'),
    path.join(configDir, 'node_modules', '@opencode-ai', 'plugin'));
  const model = { name: 'Mock Model', limit: { context: 32000, output: 4096 } };
  if (modelVariants) model.variants = modelVariants;
  writeFileSync(path.join(configDir, 'opencode.json'), JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    enabled_providers: ['mock'],
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `http://127.0.0.1:${mockPort}/v1`, apiKey: 'test' },
        models: { 'mock-model': model },
      },
    },
  }));
  return { project, xdg };
}

export const opencodeExe = path.join(here, 'node_modules', 'opencode-ai', 'bin', 'opencode.exe');

// What an isolated OpenCode runs with: HOME, the XDG dirs, and its network switches (plugin
// installs, model catalog, updates, LSP downloads, sharing, skills, web UI all off).
export function isolatedOpenCodeEnv(home, xdg) {
  return {
    PATH: '/usr/bin:/bin', HOME: home, ...xdg,
    OPENCODE_DISABLE_AUTOUPDATE: 'true', OPENCODE_DISABLE_MODELS_FETCH: 'true', OPENCODE_DISABLE_DEFAULT_PLUGINS: 'true',
    OPENCODE_DISABLE_LSP_DOWNLOAD: 'true', OPENCODE_DISABLE_SHARE: 'true', OPENCODE_DISABLE_EXTERNAL_SKILLS: 'true',
    OPENCODE_DISABLE_EMBEDDED_WEB_UI: 'true',
  };
}

// Starts `opencode serve` on 127.0.0.1:port in project with that environment, detached (its own
// process group): resolves { oc, log(), url } once it says it listens. failAndExit(message) is
// the caller's way to fail; kill it with process.kill(-oc.pid, 'SIGKILL').
export async function startOpenCodeServer({ project, env, port, timeoutMs, failAndExit }) {
  let log = '';
  const oc = spawn(opencodeExe, ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--print-logs'], {
    cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  oc.stdout.on('data', (d) => (log += d));
  oc.stderr.on('data', (d) => (log += d));
  const deadline = Date.now() + timeoutMs;
  while (!log.includes('opencode server listening on')) {
    if (oc.exitCode !== null) failAndExit(`opencode exited early:\n${log}`);
    if (Date.now() > deadline) failAndExit(`opencode did not say "opencode server listening on":\n${log}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { oc, log: () => log, url: `http://127.0.0.1:${port}` };
}
