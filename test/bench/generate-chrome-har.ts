// A third capture generator, written unlike the other two on purpose (the ingest target is
// measured "on a generator other than ours"): a HAR as Chrome DevTools saves one. Pretty
// printed (two-space indent, one field a line), a `pages` list, full request and response
// header sets with HTTP/2 pseudo-headers, cookies, `timings` with every phase, `_initiator`,
// `_priority`, `_resourceType`, server address and connection ids, and bodies as Chrome
// keeps them: JSON answers as text, event streams base64-encoded. The traffic differs too:
// one long-lived client session per tab, opaque server-side `requestState` tokens (no key
// reads them), a tools/list and a resources/read now and then, JSON-RPC errors, and
// notifications answered 202 with no body. Deterministic for a given size.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** mulberry32, seeded differently from the other generators. */
function rng(seed: number) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Call { id: number; tool: string; rounds: number; round: number; state: string | null; tab: number; seq: number }

const ORIGIN = 'https://tools.example.org';
const URL_ = `${ORIGIN}/api/mcp`;

/** Writes `exchanges` HAR entries to `path`, pretty printed as Chrome saves them. */
export async function generateChromeHar(path: string, exchanges: number): Promise<void> {
  const rand = rng(2026);
  const out = createWriteStream(path);
  const write = async (s: string) => { if (!out.write(s)) await once(out, 'drain'); };
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const hex = (n: number) => { let s = ''; while (s.length < n) s += Math.floor(rand() * 16).toString(16); return s; };
  const opaque = () => Buffer.from(hex(96), 'hex').toString('base64');
  const tabs = 5;
  const t0 = Date.UTC(2026, 11, 1, 9, 30);
  const pages = Array.from({ length: tabs }, (_, i) => ({
    startedDateTime: new Date(t0 + i * 1000).toISOString(), id: `page_${i + 1}`, title: `${ORIGIN}/workspace/${i + 1}`,
    pageTimings: { onContentLoad: 412.3 + i, onLoad: 980.1 + i },
  }));
  const head = JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages, entries: [] } }, null, 2);
  // Everything up to the entries' opening bracket, as JSON.stringify indents it.
  await write(head.slice(0, head.lastIndexOf('"entries": [') + '"entries": ['.length));
  const tools = ['deploy_service', 'rotate_credentials', 'merge_branches', 'export_report', 'schedule_job', 'lookup'];
  const active: Call[] = [];
  let t = t0 + 10_000;
  let callNo = 0;
  for (let n = 0; n < exchanges; n++) {
    t += 2 + Math.floor(rand() * 40);
    const tab = Math.floor(rand() * tabs);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'workspace-web', version: `3.${tab}.0` },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
    };
    const r = rand();
    let request: Record<string, unknown>;
    let answer: Record<string, unknown> | null;
    let sse = false;
    let mcpName = '';
    if (r < 0.04) {
      request = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: n - 1, reason: 'user navigated away' } };
      answer = null;
    } else if (r < 0.08) {
      request = { jsonrpc: '2.0', id: n, method: 'tools/list', params: { _meta: meta } };
      answer = { jsonrpc: '2.0', id: n, result: { resultType: 'complete', tools: tools.map((name) => ({ name, description: `Runs ${name.replace('_', ' ')} against the workspace.`, inputSchema: { type: 'object', properties: { target: { type: 'string' }, dryRun: { type: 'boolean' } }, required: ['target'] } })) } };
    } else if (r < 0.12) {
      const uri = `file:///workspace/${tab}/notes-${Math.floor(rand() * 500)}.md`;
      request = { jsonrpc: '2.0', id: n, method: 'resources/read', params: { uri, _meta: meta } };
      mcpName = uri;
      answer = rand() < 0.2
        ? { jsonrpc: '2.0', id: n, error: { code: -32002, message: 'Resource not found', data: { uri } } }
        : { jsonrpc: '2.0', id: n, result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/markdown', text: `# Notes\n\n${hex(200 + Math.floor(rand() * 1200))}\n` }] } };
    } else {
      while (active.length < 10) active.push({ id: callNo++, tool: pick(tools), rounds: rand() < 0.4 ? 1 : 2 + Math.floor(rand() * 4), round: 0, state: null, tab, seq: 0 });
      const i = Math.floor(rand() * active.length);
      const call = active[i];
      mcpName = call.tool;
      const params: Record<string, unknown> = { name: call.tool, arguments: { target: `svc-${call.id % 97}`, dryRun: call.id % 3 === 0 }, _meta: { ...meta, 'io.modelcontextprotocol/clientInfo': { name: 'workspace-web', version: `3.${call.tab}.0` } } };
      if (call.round > 0) {
        params.inputResponses = { [`confirm_${call.round - 1}`]: { action: rand() < 0.9 ? 'accept' : 'decline', content: { approve: true, comment: hex(16) } } };
        params.requestState = call.state;
      }
      const id = `${call.tab}:${call.id}:${++call.seq}`;
      request = { jsonrpc: '2.0', id, method: 'tools/call', params };
      sse = rand() < 0.5;
      if (call.round === call.rounds - 1) {
        answer = rand() < 0.05
          ? { jsonrpc: '2.0', id, error: { code: -32603, message: 'Upstream timed out' } }
          : { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: `${call.tool} finished: ${hex(40 + Math.floor(rand() * 400))}` }], isError: false } };
        active.splice(i, 1);
      } else {
        call.state = opaque();
        answer = { jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests: { [`confirm_${call.round}`]: { method: 'elicitation/create', params: { mode: 'form', message: `Step ${call.round + 1}: go ahead with ${call.tool}?`, requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' }, comment: { type: 'string' } }, required: ['approve'] } } } }, requestState: call.state } };
        call.round++;
      }
    }
    const method = String(request.method);
    const reqText = JSON.stringify(request);
    let body = answer === null ? '' : JSON.stringify(answer);
    if (sse && answer !== null) body = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"${n}","progress":0.5}}\n\nevent: message\ndata: ${body}\n\n`;
    const wait = 5 + rand() * 120;
    const receive = rand() * 3;
    const status = answer === null ? 202 : 200;
    const mime = answer === null ? 'x-unknown' : sse ? 'text/event-stream' : 'application/json';
    const cookie = `sid=${hex(24)}; theme=dark`;
    const entry = {
      _initiator: { type: 'script', stack: { callFrames: [{ functionName: 'send', scriptId: '41', url: `${ORIGIN}/assets/client-3f2a.js`, lineNumber: 1, columnNumber: 18233 }] } },
      _priority: 'High',
      _resourceType: 'fetch',
      cache: {},
      connection: String(41000 + tab),
      pageref: `page_${tab + 1}`,
      request: {
        method: 'POST', url: URL_, httpVersion: 'http/2.0',
        headers: [
          { name: ':authority', value: 'tools.example.org' }, { name: ':method', value: 'POST' }, { name: ':path', value: '/api/mcp' }, { name: ':scheme', value: 'https' },
          { name: 'accept', value: 'application/json, text/event-stream' }, { name: 'accept-encoding', value: 'gzip, deflate, br, zstd' },
          { name: 'accept-language', value: 'en-GB,en;q=0.9' }, { name: 'content-length', value: String(Buffer.byteLength(reqText)) },
          { name: 'content-type', value: 'application/json' }, { name: 'cookie', value: cookie },
          { name: 'mcp-method', value: method }, ...(mcpName ? [{ name: 'mcp-name', value: mcpName }] : []),
          { name: 'mcp-protocol-version', value: '2026-07-28' }, { name: 'origin', value: ORIGIN },
          { name: 'priority', value: 'u=1, i' }, { name: 'referer', value: `${ORIGIN}/workspace/${tab + 1}` },
          { name: 'sec-ch-ua', value: '"Chromium";v="156", "Not.A/Brand";v="99"' }, { name: 'sec-ch-ua-mobile', value: '?0' },
          { name: 'sec-ch-ua-platform', value: '"Linux"' }, { name: 'sec-fetch-dest', value: 'empty' }, { name: 'sec-fetch-mode', value: 'cors' },
          { name: 'sec-fetch-site', value: 'same-origin' }, { name: 'user-agent', value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36' },
        ],
        queryString: [],
        cookies: [{ name: 'sid', value: cookie.slice(4, 28), path: '/', domain: 'tools.example.org', expires: '1969-12-31T23:59:59.999Z', httpOnly: true, secure: true, sameSite: 'Lax' }],
        headersSize: -1, bodySize: Buffer.byteLength(reqText),
        postData: { mimeType: 'application/json', text: reqText },
      },
      response: {
        status, statusText: '', httpVersion: 'http/2.0',
        headers: [
          { name: 'cache-control', value: 'no-store' }, ...(answer === null ? [] : [{ name: 'content-type', value: sse ? 'text/event-stream' : 'application/json; charset=utf-8' }]),
          { name: 'date', value: new Date(t).toUTCString() }, { name: 'server', value: 'envoy' }, { name: 'strict-transport-security', value: 'max-age=63072000' },
          { name: 'vary', value: 'Origin' }, { name: 'x-envoy-upstream-service-time', value: String(Math.floor(wait)) }, { name: 'x-request-id', value: hex(32) },
        ],
        cookies: [],
        content: body === ''
          ? { size: 0, mimeType: mime }
          : sse
            ? { size: Buffer.byteLength(body), mimeType: mime, text: Buffer.from(body).toString('base64'), encoding: 'base64' }
            : { size: Buffer.byteLength(body), mimeType: mime, text: body },
        redirectURL: '', headersSize: -1, bodySize: -1, _transferSize: 180 + Buffer.byteLength(body), _error: null, _fetchedViaServiceWorker: false,
      },
      serverIPAddress: '203.0.113.7',
      startedDateTime: new Date(t).toISOString(),
      time: 0.4 + 0.3 + wait + receive,
      timings: { blocked: 0.4, dns: -1, ssl: -1, connect: -1, send: 0.3, wait, receive, _blocked_queueing: 0.2, _workerStart: -1, _workerReady: -1, _workerFetchStart: -1, _workerRespondWithSettled: -1 },
    };
    // Each entry indented as it sits in the whole document (three levels deep).
    await write((n > 0 ? ',\n      ' : '\n      ') + JSON.stringify(entry, null, 2).replace(/\n/g, '\n      '));
  }
  await write('\n    ]\n  }\n}');
  out.end();
  await once(out, 'finish');
}
