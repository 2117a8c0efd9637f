// Generates a large HAR capture of interleaved multi-round MCP 2026-07-28 calls with
// rotating sdk-hmac-v1 tokens, for `npm run bench`. Deterministic for a given size.
import { createHmac } from 'node:crypto';
import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';

const KEY = 'mrtr-inspector-bench-key-0123456789abcdef';
const TOOLS = ['confirm_action', 'setup_wizard', 'summarize', 'list_workspace', 'book_flight'];

function b64url(buf: Buffer | string): string {
  return Buffer.from(buf).toString('base64url');
}

function mint(payload: unknown, exp: number): string {
  const body = b64url(JSON.stringify({ p: payload, exp }));
  const mac = createHmac('sha256', KEY).update('v1.' + body).digest();
  return `v1.${body}.${b64url(mac)}`;
}

/** A tiny deterministic PRNG (mulberry32) so every run builds the same capture. */
function rng(seed: number) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call { id: number; tool: string; args: Record<string, unknown>; rounds: number; round: number; state: string | null; client: number; nextId: number }

/** Writes `exchanges` HAR entries to `path`; returns the key that signed the tokens. */
export async function generateCapture(path: string, exchanges: number): Promise<string> {
  const rand = rng(42);
  // Written beside and renamed: a run stopped midway leaves no half file for the next to reuse.
  const out = createWriteStream(`${path}.tmp`);
  const write = async (s: string) => { if (!out.write(s)) await once(out, 'drain'); };
  await write('{"log":{"version":"1.2","creator":{"name":"mrtr-inspector-bench","version":"1"},"entries":[\n');
  const active: Call[] = [];
  let t = Date.UTC(2026, 10, 1);
  let callNo = 0;
  for (let n = 0; n < exchanges; n++) {
    while (active.length < 8) {
      const client = Math.floor(rand() * 4);
      active.push({ id: callNo++, tool: TOOLS[Math.floor(rand() * TOOLS.length)], args: { n: callNo, note: 'x'.repeat(Math.floor(rand() * 64)) }, rounds: 2 + Math.floor(rand() * 3), round: 0, state: null, client, nextId: 1 });
    }
    const i = Math.floor(rand() * active.length);
    const call = active[i];
    t += 1 + Math.floor(rand() * 5);
    const last = call.round === call.rounds - 1;
    const params: Record<string, unknown> = {
      name: call.tool, arguments: call.args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: `bench-client-${call.client}`, version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      },
    };
    if (call.round > 0) {
      params.inputResponses = { [`q${call.round - 1}`]: { action: 'accept', content: { ok: true } } };
      params.requestState = call.state;
    }
    const reqId = `${call.id}-${call.nextId++}`;
    const request = { jsonrpc: '2.0', id: reqId, method: 'tools/call', params };
    let result: Record<string, unknown>;
    if (last) {
      result = { resultType: 'complete', content: [{ type: 'text', text: `done ${call.id}` }] };
    } else {
      call.state = mint({ sub: `user-${call.client}`, call: call.id, round: call.round, tool: call.tool }, Math.floor(t / 1000) + 600);
      result = {
        resultType: 'input_required',
        inputRequests: { [`q${call.round}`]: { method: 'elicitation/create', params: { mode: 'form', message: `Confirm step ${call.round}?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } } },
        requestState: call.state,
      };
    }
    const response = JSON.stringify({ jsonrpc: '2.0', id: reqId, result });
    const sse = last && rand() < 0.3;
    const entry = {
      startedDateTime: new Date(t).toISOString(), time: 3,
      request: {
        method: 'POST', url: 'http://127.0.0.1:3000/mcp', httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: -1,
        headers: [
          { name: 'content-type', value: 'application/json' }, { name: 'accept', value: 'application/json, text/event-stream' },
          { name: 'mcp-protocol-version', value: '2026-07-28' }, { name: 'mcp-method', value: 'tools/call' }, { name: 'mcp-name', value: call.tool },
        ],
        postData: { mimeType: 'application/json', text: JSON.stringify(request) },
      },
      response: {
        status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: -1,
        headers: [{ name: 'content-type', value: sse ? 'text/event-stream' : 'application/json' }],
        content: sse
          ? { size: -1, mimeType: 'text/event-stream', text: `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\nevent: message\ndata: ${response}\n\n` }
          : { size: response.length, mimeType: 'application/json', text: response },
      },
      cache: {}, timings: { send: 0, wait: 2, receive: 1 }, connection: String(call.client),
    };
    await write((n > 0 ? ',\n' : '') + JSON.stringify(entry));
    call.round++;
    if (last) active.splice(i, 1);
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'finish');
  renameSync(`${path}.tmp`, path);
  return KEY;
}

/**
 * The second shape, unlike the first on purpose: a third of the calls finish in one round,
 * the others take 2 to 10; answers are mostly SSE (progress and log notifications before
 * the result), bodies run from a few hundred bytes to ~40 KB (file contents, sampling
 * transcripts), tokens are HS256 JWS, and tools/list is asked for now and then (a large
 * result). Deterministic for a given size.
 */
export async function generateBodiesCapture(path: string, exchanges: number): Promise<string> {
  const rand = rng(7);
  // Written beside and renamed: a run stopped midway leaves no half file for the next to reuse.
  const out = createWriteStream(`${path}.tmp`);
  const write = async (s: string) => { if (!out.write(s)) await once(out, 'drain'); };
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
  const text = (n: number) => { let s = ''; while (s.length < n) s += words[Math.floor(rand() * words.length)] + (rand() < 0.1 ? '\n' : ' '); return s; };
  const jws = (claims: Record<string, unknown>) => {
    const body = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    return `${body}.${b64url(createHmac('sha256', KEY).update(body).digest())}`;
  };
  await write('{"log":{"version":"1.2","creator":{"name":"mrtr-inspector-bench-bodies","version":"1"},"entries":[\n');
  const active: Call[] = [];
  let t = Date.UTC(2026, 10, 1);
  let callNo = 0;
  for (let n = 0; n < exchanges; n++) {
    t += 1 + Math.floor(rand() * 20);
    const client = Math.floor(rand() * 6);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: `bodies-client-${client}`, version: '2.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} },
    };
    let request: Record<string, unknown>;
    let result: Record<string, unknown>;
    let name = '';
    let method = 'tools/call';
    if (rand() < 0.03) {
      method = 'tools/list';
      request = { jsonrpc: '2.0', id: `l${n}`, method, params: { _meta: meta } };
      const tools = Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, description: text(300), inputSchema: { type: 'object', properties: { path: { type: 'string' }, depth: { type: 'integer' } } } }));
      result = { resultType: 'complete', tools };
    } else {
      while (active.length < 12) {
        const r = rand();
        active.push({ id: callNo++, tool: `tool_${Math.floor(rand() * 40)}`, args: { path: `/srv/data/${callNo}.txt`, query: text(20 + Math.floor(rand() * 200)) }, rounds: r < 0.33 ? 1 : 2 + Math.floor(rand() * 9), round: 0, state: null, client, nextId: 1 });
      }
      const i = Math.floor(rand() * active.length);
      const call = active[i];
      name = call.tool;
      const last = call.round === call.rounds - 1;
      const params: Record<string, unknown> = { name: call.tool, arguments: call.args, _meta: { ...meta, 'io.modelcontextprotocol/clientInfo': { name: `bodies-client-${call.client}`, version: '2.0.0' } } };
      if (call.round > 0) {
        const answer = call.round % 2 === 1
          ? { role: 'assistant', content: { type: 'text', text: text(200 + Math.floor(rand() * 4000)) }, model: 'bench-model' }
          : { action: 'accept', content: { ok: true } };
        params.inputResponses = { [`q${call.round - 1}`]: answer };
        params.requestState = call.state;
      }
      const reqId = call.id * 100 + call.nextId++;
      request = { jsonrpc: '2.0', id: reqId, method, params };
      if (last) {
        result = { resultType: 'complete', content: [{ type: 'text', text: text(300 + Math.floor(rand() * (rand() < 0.2 ? 40_000 : 6_000))) }] };
        active.splice(i, 1);
      } else {
        call.state = jws({ sub: `user-${call.client}`, aud: `tools/call ${call.tool}`, jti: `${call.id}.${call.round}`, iat: Math.floor(t / 1000), exp: Math.floor(t / 1000) + 300, step: call.round, notes: text(100 + Math.floor(rand() * 600)) });
        const ask = call.round % 2 === 0
          ? { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: text(500 + Math.floor(rand() * 3000)) } }], maxTokens: 400 } }
          : { method: 'elicitation/create', params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } };
        result = { resultType: 'input_required', inputRequests: { [`q${call.round}`]: ask }, requestState: call.state };
        call.round++;
      }
    }
    const id = request.id;
    const response = JSON.stringify({ jsonrpc: '2.0', id, result });
    const sse = rand() < 0.7;
    let body = response;
    if (sse) {
      body = '';
      const events = Math.floor(rand() * 6);
      for (let e = 0; e < events; e++) {
        const note = e % 2 === 0
          ? { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: n, progress: e + 1, total: events + 1 } }
          : { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text(80) } };
        body += `event: message\nid: ${n}-${e}\ndata: ${JSON.stringify(note)}\n\n`;
      }
      body += `event: message\nid: ${n}-r\ndata: ${response}\n\n`;
    }
    const entry = {
      startedDateTime: new Date(t).toISOString(), time: 5,
      request: {
        method: 'POST', url: 'https://mcp.example.test/v2/mcp', httpVersion: 'HTTP/2', cookies: [], queryString: [], headersSize: -1, bodySize: -1,
        headers: [
          { name: 'content-type', value: 'application/json' }, { name: 'accept', value: 'application/json, text/event-stream' },
          { name: 'mcp-protocol-version', value: '2026-07-28' }, { name: 'mcp-method', value: method },
          ...(name !== '' ? [{ name: 'mcp-name', value: name }] : []), { name: 'authorization', value: 'Bearer bench-token' },
        ],
        postData: { mimeType: 'application/json', text: JSON.stringify(request) },
      },
      response: {
        status: 200, statusText: 'OK', httpVersion: 'HTTP/2', cookies: [], redirectURL: '', headersSize: -1, bodySize: -1,
        headers: [{ name: 'content-type', value: sse ? 'text/event-stream' : 'application/json' }, { name: 'cache-control', value: 'no-store' }],
        content: { size: body.length, mimeType: sse ? 'text/event-stream' : 'application/json', text: body },
      },
      cache: {}, timings: { send: 0, wait: 4, receive: 1 }, connection: String(client),
    };
    await write((n > 0 ? ',\n' : '') + JSON.stringify(entry));
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'finish');
  renameSync(`${path}.tmp`, path);
  return KEY;
}
