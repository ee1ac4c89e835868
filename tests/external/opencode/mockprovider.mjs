// A scripted OpenAI-compatible provider on loopback for a real OpenCode: POST
// /v1/chat/completions answers with a streamed (SSE) tool call when the newest user message
// asks for one ("call <tool>"), and with plain text once the tool's result is back. Every
// request body is kept, so a test can see exactly what the model was shown.
import http from 'node:http';

function chunk(model, delta, finishReason = null) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : p?.text ?? '')).join('');
  return '';
}

// answer (optional): the text a user prompt gets, from that prompt's text (null: the default
// 'Mock title', which title requests always get).
export async function startMockProvider({ answer } = {}) {
  const requests = []; // parsed bodies of /chat/completions, oldest first
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
      if (body.length > 16 * 1024 * 1024) req.destroy(); // bounded input
    });
    req.on('end', () => {
      if (req.method === 'GET' && req.url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model' }] }));
        return;
      }
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      let parsed = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      requests.push(parsed);
      const messages = parsed.messages ?? [];
      const last = messages[messages.length - 1] ?? {};
      const model = parsed.model ?? 'mock-model';
      const send = (events) => {
        if (parsed.stream === false) {
          // Non-streaming callers (none expected) get the text only.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const e of events) res.write(e);
        res.end('data: [DONE]\n\n');
      };
      const wanted = last.role === 'user' ? /call (claude-peers_[a-z_]+)(?: with (\{.*\}))?/.exec(textOf(last.content)) : null;
      const hasTools = Array.isArray(parsed.tools) && parsed.tools.length > 0;
      if (wanted && hasTools) {
        const id = `call_${++calls}`;
        send([
          chunk(model, { role: 'assistant', content: null,
            tool_calls: [{ index: 0, id, type: 'function', function: { name: wanted[1], arguments: '' } }] }),
          chunk(model, { tool_calls: [{ index: 0, function: { arguments: wanted[2] ?? '{}' } }] }),
          chunk(model, {}, 'tool_calls'),
        ]);
        return;
      }
      // A tool result, a title request or anything else: a short text answer.
      const isTitleRequest = messages.some((m) => m.role === 'system' && /title/i.test(textOf(m.content)));
      const custom = answer && last.role === 'user' && !isTitleRequest ? answer(textOf(last.content)) : null;
      const reply = last.role === 'tool' ? 'Done.' : custom ?? 'Mock title';
      send([chunk(model, { role: 'assistant', content: reply }),
        chunk(model, {}, 'stop')]);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    requests,
    // Texts of every tool result the model was sent, in order.
    toolResults: () => {
      const seen = new Map();
      for (const r of requests)
        for (const m of r.messages ?? []) if (m.role === 'tool') seen.set(m.tool_call_id, textOf(m.content));
      return [...seen.values()];
    },
    toolNames: () => new Set(requests.flatMap((r) => (r.tools ?? []).map((t) => t.function?.name))),
    // Stops listening and drops OpenCode's keep-alive connections, which would otherwise keep
    // the test's event loop alive.
    close: () => new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    }),
  };
}
