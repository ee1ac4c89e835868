// A stand-in for the Anthropic Messages API on loopback, enough for Claude Code to run a
// session: POST /v1/messages answers with streaming SSE (or JSON when not streamed),
// count_tokens with a number, anything else 404. Every request body is kept so the test can
// see what reached the "model". The reply is scripted by the test (`respond`).
import http from 'node:http';

const MAX_BODY = 64 * 1024 * 1024;

// One assistant turn as the SSE event sequence of the Messages API.
function events(model, id, reply) {
  const blocks = [];
  if (reply.text !== undefined) blocks.push({ type: 'text', text: reply.text });
  if (reply.toolUse) blocks.push({ type: 'tool_use', ...reply.toolUse });
  const out = [{
    type: 'message_start',
    message: {
      id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  }];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      out.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) } });
    }
    out.push({ type: 'content_block_stop', index });
  });
  out.push({
    type: 'message_delta',
    delta: { stop_reason: reply.toolUse ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  out.push({ type: 'message_stop' });
  return { out, blocks };
}

// respond(body) → { text?: string, toolUse?: { id, name, input }, delayMs?: number }: delayMs holds
// the answer back that long (a model that is slow to start its turn keeps the session busy).
export async function startMockAnthropic(respond) {
  const requests = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (d) => {
      size += d.length;
      if (size > MAX_BODY) {
        req.destroy();
        return;
      }
      chunks.push(d);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      const url = req.url.split('?')[0];
      const record = { at: Date.now(), method: req.method, url, body, raw };
      requests.push(record);
      if (req.method === 'POST' && url === '/v1/messages' && body) {
        const model = body.model || 'claude-mock';
        const id = `msg_mock_${++count}`;
        const reply = respond(body);
        const { out, blocks } = events(model, id, reply);
        const answer = () => {
          if (body.stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${count}` });
            for (const e of out) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
            res.end();
          } else {
            res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${count}` });
            res.end(JSON.stringify({
              id, type: 'message', role: 'assistant', model, content: blocks, stop_sequence: null,
              stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
              usage: { input_tokens: 10, output_tokens: 1 },
            }));
          }
          record.answeredAt = Date.now();
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
        return;
      }
      if (req.method === 'POST' && url === '/v1/messages/count_tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `mock: no route ${url}` } }));
    });
  });
  await new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    requests,
    // Model requests (POST /v1/messages) only.
    messages: () => requests.filter((r) => r.method === 'POST' && r.url === '/v1/messages' && r.body),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// The text of every content block of a request's messages, in order.
export function messageTexts(body) {
  const texts = [];
  for (const m of body?.messages ?? []) {
    if (typeof m.content === 'string') {
      texts.push(m.content);
      continue;
    }
    for (const block of m.content ?? []) {
      if (block.type === 'text') texts.push(block.text);
      if (block.type === 'tool_result') {
        const c = block.content;
        if (typeof c === 'string') texts.push(c);
        else for (const part of c ?? []) if (part.type === 'text') texts.push(part.text);
      }
    }
  }
  return texts;
}

// The last user turn (Claude Code may append a role "system" message after it).
export function lastUserMessage(body) {
  return (body?.messages ?? []).filter((m) => m.role === 'user').at(-1);
}
