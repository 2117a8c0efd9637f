// Reading a Console send's answer (worker/console/exchange.ts): when a proxy answered in
// its own words (the relay's 502 `{"error": "… ECONNREFUSED …"}`), that cause is what the
// panel shows, never only "no answer to id".
import { describe, expect, it } from 'vitest';
import { consoleRecord, proxyError, readRound } from '../../../worker/console/exchange.js';

const relayRefusal = 'Could not reach target "t1" at http://127.0.0.1:9/mcp: connect ECONNREFUSED 127.0.0.1:9. Is that server running, and is the URL right?';

function answered(status: number, body: string) {
  const req = { url: 'http://127.0.0.1:5173/relay/api/forward/t1', method: 'POST' as const, headers: [], body: '{"jsonrpc":"2.0","id":7,"method":"tools/call"}' };
  return consoleRecord(req, { status, headers: [{ name: 'content-type', value: 'application/json' }], body, receivedAt: 1, endedAt: 2 }, { id: 'r1', seq: 0 });
}

describe('a Console send\'s answer', () => {
  it('says why the relay could not forward it: its 502 body names the cause', () => {
    const r = readRound(answered(502, JSON.stringify({ error: relayRefusal })), 7);
    expect(r).toEqual({ kind: 'failed', status: 502, message: `HTTP 502: ${relayRefusal}` });
    expect(r.kind === 'failed' && r.message).toContain('ECONNREFUSED');
  });

  it('reads only a proxy\'s own error body as a cause, never a JSON-RPC message or other text', () => {
    expect(proxyError(JSON.stringify({ error: 'Unknown target "x"' }))).toBe('Unknown target "x"');
    expect(proxyError(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }))).toBeNull();
    expect(proxyError(JSON.stringify({ error: '' }))).toBeNull();
    expect(proxyError('<html>Bad Gateway</html>')).toBeNull();
    expect(proxyError(undefined)).toBeNull();
  });

  it('still says an answer is missing when the body is JSON-RPC for another id', () => {
    const r = readRound(answered(200, JSON.stringify({ jsonrpc: '2.0', id: 8, result: {} })), 7);
    expect(r).toEqual({ kind: 'failed', status: 200, message: 'HTTP 200 with no answer to id 7' });
  });
});
