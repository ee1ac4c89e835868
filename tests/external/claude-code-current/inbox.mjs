// The current real Claude Code (npm @anthropic-ai/claude-code, pinned by package-lock.json) with
// the real claude-peers-mcp, offline: a mock Anthropic Messages API on loopback, a scratch HOME,
// everything in a loopback-only network namespace (../lib/in-netns.sh). As a default user runs it
// (issue 32): no channel flag, the telemetry opt-out variables set, no hook installed. Checks:
//   1. the helper says its messages go through Claude Code's session inbox (peers --json), and the
//      server/discover probe's short-lived helper leaves no second peer;
//   2. a CLI message to the idle session reaches the model as a new turn, once;
//   3. one sent while the session is busy reaches the model after that turn, once;
//   4. the session's state goes idle → busy → idle at the broker with no hook;
//   5. with the channel flag, the channel path is used and channel_push is "working" right
//      after the start, with no message and no hello.
// PEERS_CC_BENCH=N: instead, N messages to the idle session, one at a time, and the time from
// `claude-peers send` to the model request that carries each one (bench/run-claude-code-bench.sh).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeBinary, claudeHome, claudeSessions, factor, requireOffline } from '../lib/claude-code.mjs';
import { check, fail, makeHome, onCleanup, requireExe, sleep, startBroker, waitFor } from '../lib/harness.mjs';
import { lastUserMessage, messageTexts, startMockAnthropic } from '../claude-code/mock-anthropic.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const benchCount = Number(process.env.PEERS_CC_BENCH || 0);
const SERVER = 'claude-peers';

await requireOffline();
const helper = requireExe('PEERS_MCP_EXE');
const cli = requireExe('PEERS_CLI_EXE');
const claude = claudeBinary(here);

// --- fixtures ----------------------------------------------------------------------------------
const home = await makeHome();
writeFileSync(path.join(home.dir, '.claude-peers-config.json'), JSON.stringify({ broker: { sweep_interval_ms: 3600000 } }));
await startBroker(home);
const work = path.join(home.dir, 'project');
mkdirSync(work);
const runtimeDir = path.join(home.dir, 'runtime');
mkdirSync(runtimeDir, { mode: 0o700 });

const SLOW = 'SLOW_TURN';
const mock = await startMockAnthropic((body) => {
  const text = JSON.stringify(lastUserMessage(body)?.content ?? '');
  return text.includes(SLOW) ? { text: 'done slowly', delayMs: 6000 * factor } : { text: 'ok' };
});
onCleanup(() => mock.close());

const baseEnv = claudeHome({ home, work, mockPort: mock.port, version: '2.1.332', extraEnv: { XDG_RUNTIME_DIR: runtimeDir } });
// What people who keep Claude Code quiet set: these also switch its channels off.
const optedOut = { DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DO_NOT_TRACK: '1' };
const peersEnv = { ...process.env, ...home.env };

const sessions = claudeSessions({ claude, claudeEnv: baseEnv, cli, peersEnv, work, socket: path.join(home.dir, 'tmux.sock') });
const { runCli, runClaude, peers, registeredPeer, exit: exitInteractive } = sessions;
// Every text block the model was shown, in the latest request (it carries the conversation).
const shownTexts = () => messageTexts(mock.messages().at(-1)?.body);
const timesShown = (needle) => shownTexts().filter((t) => t.includes(needle)).length;

// The bench keeps the helper's log (timestamped lines on stderr): when it handed each message on.
const helperLog = path.join(home.dir, 'helper.log');
let helperCommand = helper;
if (benchCount > 0) {
  helperCommand = path.join(home.dir, 'helper.sh');
  writeFileSync(helperCommand, `#!/bin/sh\nexec '${helper}' "$@" 2>>'${helperLog}'\n`, { mode: 0o755 });
}
const added = await runClaude(['mcp', 'add', '--scope', 'user', SERVER, '-e', `CLAUDE_PEERS_PORT=${home.port}`,
  '-e', 'QT_LOGGING_RULES=peers.mcp.delivery.debug=true', '--', helperCommand]);
check(added.code === 0, `claude mcp add ${SERVER}: exit ${added.code} ${added.stderr.trim()}`);

// --- interactive sessions in tmux ---------------------------------------------------------------
async function startInteractive(name, extraEnv, args = []) {
  const s = await sessions.start(name, { extraEnv, args });
  check(true, `interactive Claude Code ${name} started on ${s.paneTty}${args.length ? ' with ' + args.join(' ') : ''}`);
  return s;
}
const peerRow = async (id) => (await peers()).find((p) => p.id === id);

// The time from `claude-peers send` to the model request that carries the message.
async function sendAndSee(peerId, text) {
  const started = performance.now();
  const sent = await runCli(['send', peerId, text]);
  if (sent.code !== 0) fail(`claude-peers send ${peerId}: ${sent.stdout.trim()} ${sent.stderr.trim()}`);
  const cliDone = performance.now();
  const id = Number(/msg#(\d+)/.exec(sent.stdout)?.[1] ?? 0);
  let at = 0;
  await waitFor(() => {
    const r = mock.messages().find((m) => messageTexts(m.body).some((t) => t.includes(text)));
    if (r) at = r.at;
    return r !== undefined;
  }, 30000, `the model request carrying "${text}"`);
  return { id, startedAt: performance.timeOrigin + started, totalMs: at - (performance.timeOrigin + started), cliMs: cliDone - started };
}

// --- 1-4: no flag, quiet Claude Code -----------------------------------------------------------
const quiet = await startInteractive('quiet', optedOut);
const peer = await registeredPeer(quiet.paneTty);
await waitFor(async () => (await peerRow(peer.id))?.delivery === 'inbox', 15000, 'the helper to report delivery "inbox"');
check(true, 'delivery: inbox (Claude Code gave its session inbox; no channel flag)');
// Claude Code also starts the server once more to ask server/discover (3 s at most): that short
// instance must not stay registered beside the session's own helper.
await sleep(3500 * factor);
const listed = await peers();
check(listed.length === 1 && listed[0].id === peer.id,
  `one peer for the session after the server/discover probe: ${listed.map((p) => `${p.id}/${p.pid}`).join(', ')}`);

// When the helper handed message `id` to Claude Code (its log: "handed message N …" for the
// inbox, "pushed message N …" for a channel event).
function handedAt(id) {
  const line = readFileSync(helperLog, 'utf8').split('\n').find((l) => new RegExp(`(handed|pushed) message ${id} `).test(l));
  return line ? Date.parse(line.split(' ')[0]) : NaN;
}
async function bench(peerId, label) {
  const samples = [];
  for (let i = 0; i < benchCount; ++i) {
    const sample = await sendAndSee(peerId, `bench message ${i} ${Date.now()}`);
    await waitFor(() => !Number.isNaN(handedAt(sample.id)), 5000, `the helper's log line for message ${sample.id}`);
    samples.push({ ...sample, oursMs: handedAt(sample.id) - sample.startedAt });
    await waitFor(async () => (await peerRow(peerId))?.attention === 'idle', 30000, 'the session to be idle again');
    await sleep(2100); // past Claude Code's per-sender budget refill, as a person would type
  }
  const pct = (key, p) => {
    const list = samples.map((x) => x[key]).sort((a, b) => a - b);
    return list[Math.min(list.length - 1, Math.floor(p * list.length))].toFixed(0);
  };
  console.log(`bench ${label}: ${benchCount} messages, send → the model request carrying it: ` +
    `p50 ${pct('totalMs', 0.5)} ms, p99 ${pct('totalMs', 0.99)} ms`);
  console.log(`bench ${label}: of which ours (CLI, broker, helper, until handed to Claude Code): ` +
    `p50 ${pct('oursMs', 0.5)} ms, p99 ${pct('oursMs', 0.99)} ms (the CLI process alone: p50 ${pct('cliMs', 0.5)} ms)`);
}

if (benchCount > 0) {
  await bench(peer.id, 'inbox (no flag)');
  await exitInteractive(quiet, peer);
  const loud = await startInteractive('channels', {}, ['--dangerously-load-development-channels', `server:${SERVER}`]);
  const peer2 = await registeredPeer(loud.paneTty);
  await waitFor(async () => (await peerRow(peer2.id))?.delivery === 'channel', 15000, 'delivery "channel"');
  await bench(peer2.id, 'channel (flag)');
  await exitInteractive(loud, peer2);
  process.exit(0);
}

const attentionSeen = [];
const watchAttention = setInterval(async () => {
  const row = await peerRow(peer.id).catch(() => undefined);
  if (row?.attention && attentionSeen.at(-1) !== row.attention) attentionSeen.push(row.attention);
}, 100);
await waitFor(() => attentionSeen.includes('idle'), 15000, 'the session state "idle" from its session file');

const idleText = `hello while idle ${Date.now()}`;
const idle = await sendAndSee(peer.id, idleText);
check(true, `the idle session's model got the message as a new turn, ${idle.totalMs.toFixed(0)} ms after send`);
const turn = mock.messages().find((m) => messageTexts(m.body).some((t) => t.includes(idleText)));
const turnText = messageTexts(turn.body).find((t) => t.includes(idleText));
check(/\[claude-peers\] Message #\d+ from the claude-peers command line/.test(turnText) && turnText.startsWith('Another Claude session sent a message'),
  `framed with its sender, as Claude Code frames another session's message: ${JSON.stringify(turnText.slice(0, 200))}`);
await waitFor(async () => (await runCli(['messages', '--to', peer.id, '--json'])).stdout.includes('"delivered": true'),
  10000, 'the message to be acknowledged');

quiet.type(`${SLOW} please think slowly`);
await waitFor(() => attentionSeen.includes('busy'), 15000 / factor, `the session state "busy" (seen: ${attentionSeen})`);
const busyText = `hello while busy ${Date.now()}`;
const busySent = Date.now();
const busy = await sendAndSee(peer.id, busyText);
const carrying = mock.messages().find((m) => messageTexts(m.body).some((t) => t.includes(busyText)));
const slowTurn = mock.messages().find((m) => JSON.stringify(lastUserMessage(m.body)).includes(SLOW));
if (!(slowTurn?.answeredAt !== undefined && slowTurn.answeredAt <= carrying.at)) {
  for (const m of mock.messages())
    console.log(`# request at ${m.at - busySent} answered ${m.answeredAt - busySent}: ${JSON.stringify(lastUserMessage(m.body)).slice(0, 160)}`);
}
check(slowTurn?.answeredAt !== undefined && slowTurn.answeredAt <= carrying.at,
  `the busy session's model got it after its running turn (${busy.totalMs.toFixed(0)} ms after send)`);
await waitFor(() => attentionSeen.at(-1) === 'idle', 20000, `the session state back to "idle" (seen: ${attentionSeen})`);
clearInterval(watchAttention);
const order = attentionSeen.join(' → ');
check(/idle.*busy.*idle/.test(order), `state without hooks: ${order}`);
await sleep(1500 * factor); // a second showing would come with the next request
check(timesShown(idleText) === 1 && timesShown(busyText) === 1,
  `each message reached the model once (${timesShown(idleText)}, ${timesShown(busyText)})`);
await exitInteractive(quiet, peer);

// --- 5: with the channel flag --------------------------------------------------------------------
const loud = await startInteractive('channels', {}, ['--dangerously-load-development-channels', `server:${SERVER}`]);
const peer2 = await registeredPeer(loud.paneTty);
await waitFor(async () => {
  const row = await peerRow(peer2.id);
  return row?.delivery === 'channel' && row?.channel_push === 'working';
}, 15000, 'delivery "channel" and channel_push "working" right after the start');
check(true, 'with the flag: delivery channel, channel_push working, before any message');
const channelText = `hello by channel ${Date.now()}`;
await sendAndSee(peer2.id, channelText);
const block = shownTexts().find((t) => t.includes(channelText)) ?? '';
check(block.includes('<channel source="claude-peers"'), `the model saw a channel block: ${JSON.stringify(block.slice(0, 200))}`);
check(!shownTexts().some((t) => t.includes('[claude-peers] Message #') && t.includes(channelText)), 'and not the inbox text too');
await exitInteractive(loud, peer2);

await sessions.stopTmux();
console.log('# all checks passed');
process.exit(0);
