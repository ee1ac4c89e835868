// Two helpers driven by the official TypeScript SDK client (@modelcontextprotocol/sdk
// 1.32.2, pinned): A's send_message arrives at B as notifications/claude/channel with the
// content and string-only meta, and the usual client calls work.
import { isDeepStrictEqual } from 'node:util';
import {
  check, cleanup, fail, makeHome, onCleanup, peerIdForTty, requireExe, requireNodeModules, startBroker, waitFor,
} from './lib/harness.mjs';

requireNodeModules();
// Imported after the check so that a missing install fails with the message above.
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const helper = requireExe('PEERS_MCP_EXE');
const home = await makeHome();
await startBroker(home);

async function connect(name, tty, extraEnv = {}) {
  const transport = new StdioClientTransport({
    command: helper,
    args: [],
    cwd: home.dir,
    stderr: 'pipe',
    env: { ...getDefaultEnvironment(), ...home.env, CLAUDE_PEERS_TTY: tty, ...extraEnv },
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  // Says it shows channel pushes (as a client that consumes them should): the helper then
  // counts a written push as seen by the model and acknowledges it.
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { experimental: { 'claude/channel': {} } } });
  const pushes = [];
  client.fallbackNotificationHandler = async (n) => {
    pushes.push(n);
  };
  await client.connect(transport);
  onCleanup(() => transport.close());
  return { client, transport, pushes, stderr: () => stderr, id: peerIdForTty(tty) };
}
const text = (r) => r?.content?.[0]?.text ?? '';
const channel = (pushes) =>
  pushes.filter((n) => n.method === 'notifications/claude/channel' && n.params?.meta?.message_id !== 'startup-hello');

const a = await connect('peer-a', 'pts/401');
const b = await connect('peer-b', 'pts/402', { CLAUDE_PEERS_STARTUP_HELLO: '1' }); // the hello is opt-in

// Handshake as the SDK negotiates it.
check(a.client.getServerVersion()?.name === 'claude-peers', 'serverInfo.name is claude-peers');
check(a.client.getServerCapabilities()?.experimental?.['claude/channel'] !== undefined, 'claude/channel capability');
const instructions = a.client.getInstructions() ?? '';
check(instructions.length > 0 && instructions.length <= 2048, `instructions present, ${instructions.length} <= 2048 chars`);
await a.client.ping();
check(true, 'ping answered');
const tools = (await a.client.listTools()).tools;
check(tools.length === 10 && tools.some((t) => t.name === 'whoami'), `listTools: ${tools.map((t) => t.name).join(',')}`);
const openchamber = tools.find((t) => t.name === 'openchamber');
check(openchamber?.inputSchema?.properties?.action?.enum?.length === 13 &&
  openchamber.inputSchema.properties.parameters?.additionalProperties === false,
  'the openchamber tool offers the 13 agent actions and closed parameters');

// Both registered (the tools wait for it).
for (const p of [a, b]) {
  await waitFor(async () => text(await p.client.callTool({ name: 'whoami', arguments: {} })).startsWith(`ID: ${p.id}`), 15000,
    `${p.id} registered`);
}
await a.client.callTool({ name: 'set_name', arguments: { name: 'SDK_A' } });

// The startup hello arrived after notifications/initialized where it was asked for, and only there.
check(b.pushes.some((n) => n.params?.meta?.message_id === 'startup-hello'), 'startup hello notification (opted in)');
check(!a.pushes.some((n) => n.params?.meta?.message_id === 'startup-hello'), 'no startup hello by default');

// text message A → B
const sent = await a.client.callTool({ name: 'send_message', arguments: { to_id: b.id, message: 'knock knock' } });
check(!sent.isError && text(sent).startsWith(`Message sent to peer ${b.id} (msg#`), `send_message: ${text(sent)}`);
const msgId = text(sent).match(/msg#(\d+)/)[1];
await waitFor(() => channel(b.pushes).length >= 1, 10000, 'the channel notification at B');
let n = channel(b.pushes)[0];
check(n.params.content === 'knock knock', 'content is the text');
const meta = n.params.meta;
check(Object.entries(meta).every(([k, v]) => /^[A-Za-z0-9_]+$/.test(k) && typeof v === 'string'), 'meta keys are identifiers, values strings');
check(meta.from_id === a.id && meta.from_name === 'SDK_A' && meta.type === 'text' && meta.message_id === msgId,
  `meta: ${JSON.stringify(meta)}`);
check(typeof meta.sent_at === 'string' && meta.sent_at.length > 0, 'sent_at present');

// handoff with metadata and reply_to, B → A
const handoff = await b.client.callTool({
  name: 'send_message',
  arguments: { to_id: a.id, message: 'over to you', type: 'handoff', metadata: { task: 'review', files: ['x.cpp'] }, reply_to: Number(msgId) },
});
check(!handoff.isError, `handoff sent: ${text(handoff)}`);
await waitFor(() => channel(a.pushes).length >= 1, 10000, 'the handoff at A');
n = channel(a.pushes)[0];
check(n.params.meta.type === 'handoff' && n.params.meta.reply_to === msgId, 'handoff meta type and reply_to');
check(isDeepStrictEqual(JSON.parse(n.params.meta.metadata_json), { task: 'review', files: ['x.cpp'] }),
  'metadata travels as metadata_json text');

// The sender sees it confirmed once B's helper wrote it (B shows pushes).
await waitFor(async () => {
  const s = await a.client.callTool({ name: 'message_status', arguments: { message_id: Number(msgId) } });
  return text(s).startsWith(`Message #${msgId}: confirmed`);
}, 10000, 'message confirmed');
check(true, 'message_status confirmed after the push');

// An unknown tool is a protocol error -32602.
try {
  await a.client.callTool({ name: 'nope', arguments: {} });
  fail('unknown tool did not fail');
} catch (e) {
  check(e.code === -32602, `unknown tool → ${e.code} ${e.message}`);
}

// Exactly once.
check(channel(b.pushes).length === 1 && channel(a.pushes).length === 1, 'each message pushed exactly once');

// close() closes stdin: the helpers exit (the SDK would SIGTERM after 2 s otherwise).
const started = Date.now();
await a.client.close();
await b.client.close();
check(Date.now() - started < 4000, `helpers closed in ${Date.now() - started} ms`);
cleanup();
console.log('PASS sdk-channel');
