// Requests for the copy-as tests: an MCP call as the SDK client sends it, with credentials
// planted where a real capture has them.
import type { ExchangeRecord, HeaderPair } from '../../../worker/protocol.js';

/** Credentials planted in `mcpCall`; none may survive sanitising. */
export const PLANTED = {
  bearer: 'sk-live-PLANTED-bearer-0001',
  cookie: 'sid=PLANTED-cookie-0002',
  apiKey: 'PLANTED-api-key-0003',
  configured: 'PLANTED-configured-0004',
  oauth: 'PLANTED-oauth-0005',
};

/** A tools/call POST answered with an event stream. */
export function mcpCall(over: { body?: string; url?: string; method?: string; headers?: HeaderPair[]; sse?: boolean } = {}): ExchangeRecord {
  const body = over.body ?? JSON.stringify({
    jsonrpc: '2.0', id: 3, method: 'tools/call',
    params: { name: 'deploy', arguments: { note: `uses ${PLANTED.configured}` }, access_token: PLANTED.oauth },
  });
  return {
    v: 1, id: 'x-3', seq: 3, source: 'import', startedAt: 0, state: 'complete',
    request: {
      method: over.method ?? 'POST',
      url: over.url ?? `http://127.0.0.1:3000/mcp?key=${PLANTED.configured}`,
      headers: over.headers ?? [
        { name: ':authority', value: '127.0.0.1:3000' },
        { name: 'host', value: '127.0.0.1:3000' },
        { name: 'connection', value: 'keep-alive, X-Hop' },
        { name: 'keep-alive', value: 'timeout=5' },
        { name: 'X-Hop', value: 'only-this-hop' },
        { name: 'content-type', value: 'application/json' },
        { name: 'accept', value: 'application/json, text/event-stream' },
        { name: 'mcp-protocol-version', value: '2026-07-28' },
        { name: 'Mcp-Method', value: 'tools/call' },
        { name: 'Mcp-Name', value: 'deploy' },
        { name: 'Authorization', value: `Bearer ${PLANTED.bearer}` },
        { name: 'Cookie', value: PLANTED.cookie },
        { name: 'X-API-Key', value: PLANTED.apiKey },
        { name: 'accept-encoding', value: 'gzip, deflate, br' },
        { name: 'content-length', value: String(body.length) },
      ],
      body,
    },
    response: over.sse === false
      ? { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], receivedAt: 1, body: '{}' }
      : { status: 200, headers: [{ name: 'Content-Type', value: 'text/event-stream' }], receivedAt: 1, events: [{ t: 2, data: '{}' }] },
  };
}
