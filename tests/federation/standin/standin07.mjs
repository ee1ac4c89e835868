// A stand-in for claude-peers 0.7's federation agent, for the mixed-mesh test (0.7 itself is not
// installable here). Written from docs/spec/peers-api.md, not from 0.7's code:
//   §4.1 the inbound pipeline (subnet → /health → non-POST text → X-Claude-Peers-PSK → route),
//   §4.2 handshake, §4.3 peers, §4.4 relay (its checks, statuses and error strings, in that order),
//   §6.1 hostname normalisation and PSK = the token, §6.3 connect (handshake + peer sync, legacy
//   header, no certificate check, 5 s timeout, status 0 on connection failure), §6.4 the relay
//   body and its key order, §6.5 the HMAC (JSON.stringify with sorted top-level keys, key = the
//   token's UTF-8 bytes), §6.6 the IPv4 subnet filter, §6.7 the peer sync, §11.4 the size limit.
// Like 0.7 it sends no replay fields (ts, nonce), never checks the other side's certificate and
// keeps links one-directional. Local peers and the messages relayed to them live in memory.
//
// Usage: node standin07.mjs --token-file F --cert C --key K --hostname H [--bind A] [--port P]
//                           [--subnet CIDR] [--control-port P]
// Prints one line on stdout when listening: {"ready":true,"port":<fed>,"control_port":<ctl>}.
// The control surface (plain HTTP on 127.0.0.1 only, for the test):
//   GET  /control/received           every inbound federation request: {path,status,error}
//   GET  /control/messages           messages stored for local peers
//   GET  /control/remotes            remotes connected by /control/connect
//   POST /control/register {id,...}  adds a local peer (what /federation/peers lists)
//   POST /control/connect {host,port}            §6.3 → {ok,hostname} | {ok:false,error}
//   POST /control/relay {to_id,from_id,text,type?,metadata?,reply_to?}  §6.4 → {status,body}
//   POST /control/sync {}            §6.7 for every remote
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';

const args = {};
for (let i = 2; i < process.argv.length; i += 2)
    args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

const checkVectors = process.argv[2] === '--check-vectors';
// docs/spec/peers-api.md §9: readers trim
const token = checkVectors ? '' : readFileSync(args['token-file'], 'utf8').trim();
const hostname = (args.hostname ?? 'standin').toLowerCase().slice(0, 63); // docs/spec/peers-api.md §6.1
if (hostname.includes(':'))
    throw new Error('hostname must not contain ":"');
const subnet = args.subnet ?? '0.0.0.0/0';
const VERSION = '1.0.0';
const MESSAGE_TYPES = ['text', 'query', 'response', 'handoff', 'broadcast'];
const PSK_MISMATCH = 'PSK mismatch \u2014 ensure both machines share the same ~/.claude-peers-token file';

const peers = new Map(); // id → row (docs/spec/peers-api.md §2 columns)
const messages = []; // {id, from_id, to_id, text, type, metadata, reply_to, sent_at}
const received = []; // {path, status, error}
const remotes = new Map(); // "host:port" → {host, port, hostname, peers, connected_at, last_sync}
let nextMessageId = 1;

// docs/spec/peers-api.md §6.6
function ipToInt(ip) {
    const parts = ip.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
        return 0; // an IPv6 string parses to 0 [inferred]
    return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}
function ipInSubnet(ip, cidr) {
    const [net, bitsText] = cidr.split('/');
    const bits = parseInt(bitsText, 10);
    if (Number.isNaN(bits) || bits < 0 || bits > 32)
        return false;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((ipToInt(ip) & mask) >>> 0) === ((ipToInt(net) & mask) >>> 0);
}

function constantTimeEqual(a, b) {
    const x = Buffer.from(String(a), 'utf8');
    const y = Buffer.from(String(b), 'utf8');
    return x.length === y.length && timingSafeEqual(x, y);
}

// docs/spec/peers-api.md §6.5: JSON.stringify of a copy whose top-level keys are inserted in sorted order.
function canonical(body) {
    const sorted = {};
    for (const key of Object.keys(body).sort())
        sorted[key] = body[key];
    return JSON.stringify(sorted);
}
function sign(body, key = token) {
    return createHmac('sha256', Buffer.from(key, 'utf8')).update(canonical(body)).digest('hex');
}

// docs/spec/peers-api.md §6.5's two vectors: proves this stand-in signs as 0.7 does (exit 1 on a mismatch).
if (checkVectors) {
    const key = '0123456789abcdef'.repeat(4);
    const first = { from_id: 'riche-wsl2:a1b2c3d4', from_machine: 'riche-wsl2', to_id: 'e5f6a7b8', text: 'hello',
                    type: 'text', metadata: null, reply_to: null };
    const metadata = JSON.parse('{"task":"review","files":["a.ts"],"2":"x","10":"y","z":1.5,"big":1e21,"n":100}');
    const second = { ...first, text: 'Ünïcode “q” \n tab\t / <>', type: 'handoff', reply_to: 42, metadata };
    const expected = [[first, 'f4e04795798644636f884d86443b83b5cde2ef7f18333f2b4c8357395bfbae75'],
                      [second, 'cf9512b87f4c278942c4630c913d0445aba5793996394639413ff1116bcddbd7']];
    let failed = 0;
    for (const [body, signature] of expected) {
        const got = sign(body, key);
        if (got !== signature) {
            console.error(`vector mismatch: ${canonical(body)} signed ${got}, expected ${signature}`);
            failed = 1;
        }
    }
    console.log(failed ? 'FAIL' : 'ok: both docs/spec/peers-api.md §6.5 vectors');
    process.exit(failed);
}

function send(res, status, value, contentType = 'application/json') {
    const text = contentType === 'application/json' ? JSON.stringify(value) : value;
    res.writeHead(status, { 'Content-Type': contentType });
    res.end(text);
}

function readBody(req) {
    return new Promise((resolve) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
}

function relay(body) { // docs/spec/peers-api.md §4.4, in order
    const { signature, ...unsigned } = body;
    if (!signature || !constantTimeEqual(signature, sign(unsigned)))
        return [403, { error: 'Invalid HMAC signature' }];
    const target = peers.get(body.to_id);
    if (!target)
        return [404, { ok: false, error: `Peer ${body.to_id} not found locally` }];
    // Step 3 (dead target PID) only applies to from_ids without ':', which real relays never are.
    const type = MESSAGE_TYPES.includes(body.type ?? 'text') ? (body.type ?? 'text') : 'text';
    const metadata = body.metadata ?? null;
    if (metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata)))
        return [400, { ok: false, error: 'metadata must be a JSON object' }];
    const size = String(body.text).length + (metadata ? JSON.stringify(metadata).length : 0);
    if (size > 10240)
        return [400, { ok: false, error: 'Message too large (text + metadata max 10KB)' }];
    const message = { id: nextMessageId++, from_id: body.from_id, to_id: body.to_id, text: body.text, type,
                      metadata, reply_to: body.reply_to ?? null, sent_at: new Date().toISOString() };
    messages.push(message);
    return [200, { ok: true, message_id: message.id }];
}

async function federation(req, res) { // docs/spec/peers-api.md §4.1
    const source = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const url = new URL(req.url, 'https://x');
    const answer = (status, value, type) => {
        received.push({ path: url.pathname, status, error: typeof value === 'object' ? value.error : undefined });
        send(res, status, value, type);
    };
    if (!ipInSubnet(source, subnet))
        return answer(403, { error: `Connection rejected: ${source} is outside allowed subnet ${subnet}. Update CLAUDE_PEERS_FEDERATION_SUBNET or config file.` });
    if (url.pathname === '/health')
        return answer(200, { status: 'ok', federation: true, hostname });
    if (req.method !== 'POST')
        return answer(200, 'claude-peers federation agent', 'text/plain');
    if (!constantTimeEqual(req.headers['x-claude-peers-psk'] ?? '', token))
        return answer(403, { error: PSK_MISMATCH });
    const raw = await readBody(req);
    try {
        const body = JSON.parse(raw);
        if (url.pathname === '/federation/handshake') {
            if (!constantTimeEqual(body.psk ?? '', token))
                return answer(403, { error: PSK_MISMATCH });
            return answer(200, { hostname, version: VERSION });
        }
        if (url.pathname === '/federation/peers')
            return answer(200, { hostname, peers: [...peers.values()] });
        if (url.pathname === '/federation/relay')
            return answer(...relay(body));
        return answer(404, { error: 'not found' });
    } catch (e) {
        return answer(500, { error: String(e.message ?? e) });
    }
}

// docs/spec/peers-api.md §6.3: HTTPS POST, legacy header, no certificate check, 5 s, status 0 when
// unreachable.
function post(host, port, path, body) {
    return new Promise((resolve) => {
        const data = JSON.stringify(body);
        const req = httpsRequest({ host, port, path, method: 'POST', rejectUnauthorized: false, timeout: 5000,
                                   headers: { 'Content-Type': 'application/json', 'X-Claude-Peers-PSK': token,
                                              'Content-Length': Buffer.byteLength(data) } },
                                 (res) => {
                                     readBody(res).then((text) => {
                                         let json = null;
                                         try { json = JSON.parse(text); } catch { json = { raw: text }; }
                                         resolve({ status: res.statusCode, body: json });
                                     });
                                 });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (e) => resolve({ status: 0, body: { error: String(e.message ?? e) } }));
        req.end(data);
    });
}

function mapPeers(remoteHostname, rows) {
    return (rows ?? []).map((p) => ({ id: `${remoteHostname}:${p.id}`, machine: remoteHostname, cwd: p.cwd,
                                      git_root: p.git_root, session_name: p.session_name, summary: p.summary,
                                      last_seen: p.last_seen }));
}

async function connect(host, port) { // docs/spec/peers-api.md §6.3
    const key = `${host}:${port}`;
    if (remotes.has(key))
        return { ok: true, hostname: remotes.get(key).hostname };
    const hs = await post(host, port, '/federation/handshake', { psk: token, hostname, version: VERSION });
    if (hs.status < 200 || hs.status > 299)
        return { ok: false, error: `Handshake failed (${hs.status}): ${hs.body?.error ?? 'unknown'}` };
    const list = await post(host, port, '/federation/peers', {});
    const ok = list.status >= 200 && list.status <= 299;
    const now = new Date().toISOString();
    remotes.set(key, { host, port, hostname: hs.body.hostname,
                       peers: ok ? mapPeers(hs.body.hostname, list.body.peers) : [],
                       connected_at: now, last_sync: now });
    return { ok: true, hostname: hs.body.hostname };
}

async function sendToRemote(request) { // docs/spec/peers-api.md §3.20 + §6.4
    const colon = request.to_id.indexOf(':');
    if (colon < 0)
        return { status: 0, body: { ok: false, error: `Invalid remote peer ID "${request.to_id}" — expected "hostname:peer_id" format` } };
    const machine = request.to_id.slice(0, colon);
    const remote = [...remotes.values()].find((r) => r.hostname === machine);
    if (!remote)
        return { status: 0, body: { ok: false, error: `No federation connection to machine "${machine}"` } };
    const body = { from_id: `${hostname}:${request.from_id}`, from_machine: hostname,
                   to_id: request.to_id.slice(colon + 1), text: request.text, type: request.type ?? 'text',
                   metadata: request.metadata ?? null, reply_to: request.reply_to ?? null };
    body.signature = sign(body);
    return post(remote.host, remote.port, '/federation/relay', body);
}

async function sync() { // docs/spec/peers-api.md §6.7 (the test asks for a round instead of waiting 30 s)
    for (const remote of remotes.values()) {
        const list = await post(remote.host, remote.port, '/federation/peers', {});
        if (list.status >= 200 && list.status <= 299) {
            remote.peers = mapPeers(remote.hostname, list.body.peers);
            remote.last_sync = new Date().toISOString();
        }
    }
    return { ok: true };
}

async function control(req, res) {
    const url = new URL(req.url, 'http://x');
    try {
        if (req.method === 'GET' && url.pathname === '/control/received')
            return send(res, 200, received);
        if (req.method === 'GET' && url.pathname === '/control/messages')
            return send(res, 200, messages);
        if (req.method === 'GET' && url.pathname === '/control/remotes')
            return send(res, 200, [...remotes.values()]);
        const body = JSON.parse((await readBody(req)) || '{}');
        if (url.pathname === '/control/register') {
            const now = new Date().toISOString();
            peers.set(body.id, { id: body.id, pid: body.pid ?? process.pid, cwd: body.cwd ?? '/', git_root: null,
                                 tty: null, summary: body.summary ?? '', registered_at: now, last_seen: now,
                                 session_name: '', channel_push: 'unknown', version: '0.7.0' });
            return send(res, 200, { ok: true });
        }
        if (url.pathname === '/control/connect')
            return send(res, 200, await connect(body.host, body.port));
        if (url.pathname === '/control/relay')
            return send(res, 200, await sendToRemote(body));
        if (url.pathname === '/control/sync')
            return send(res, 200, await sync());
        return send(res, 404, { error: 'not found' });
    } catch (e) {
        return send(res, 500, { error: String(e.message ?? e) });
    }
}

const tls = createHttpsServer({ cert: readFileSync(args.cert), key: readFileSync(args.key) }, federation);
const ctl = createHttpServer(control);
tls.listen(Number(args.port ?? 0), args.bind ?? '0.0.0.0', () => {
    ctl.listen(Number(args['control-port'] ?? 0), '127.0.0.1', () => {
        process.stdout.write(JSON.stringify({ ready: true, port: tls.address().port,
                                              control_port: ctl.address().port }) + '\n');
    });
});
process.on('SIGTERM', () => process.exit(0));
