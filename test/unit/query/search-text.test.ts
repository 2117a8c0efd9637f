// The text free-text terms search, and its per-exchange bound.
import { describe, expect, it } from 'vitest';
import type { DecodedExchange, ExchangeRecord } from '../../../worker/protocol.js';
import { SEARCH_TEXT_PER_EXCHANGE, searchText } from '../../../worker/query/index.js';

function record(seq: number, body: string | undefined, response: ExchangeRecord['response']): ExchangeRecord {
  return {
    v: 1, id: `x-${seq}`, seq, source: 'import', startedAt: 0, state: 'complete',
    request: { method: 'POST', url: 'http://localhost/mcp', headers: [], ...(body === undefined ? {} : { body }) },
    ...(response ? { response } : {}),
  };
}

describe('searchText', () => {
  it('joins request bodies, response bodies, event data and the unterminated tail', () => {
    const text = searchText([
      record(0, 'REQ-A', { status: 200, headers: [], receivedAt: 0, body: 'RES-A' }),
      record(1, 'REQ-B', { status: 200, headers: [], receivedAt: 0, events: [{ t: 0, data: 'EV-1' }, { t: 1, data: 'EV-2' }], tail: 'TAIL' }),
    ]);
    expect(text.split('\n')).toEqual(['REQ-A', 'RES-A', 'REQ-B', 'EV-1', 'EV-2', 'TAIL']);
  });

  it('bounds a 50 MB body to the per-exchange budget, keeping room for the answer', () => {
    const huge = 'x'.repeat(50 * 1024 * 1024);
    const text = searchText([record(0, huge, { status: 200, headers: [], receivedAt: 0, body: 'ANSWER' })]);
    expect(text.length).toBeLessThanOrEqual(SEARCH_TEXT_PER_EXCHANGE + 1);
    expect(text.endsWith('\nANSWER')).toBe(true);
  });

  it('gives the response what the request left unused, and cuts a huge stream', () => {
    const events = Array.from({ length: 100_000 }, (_, i) => ({ t: i, data: `event-${i}-${'y'.repeat(50)}` }));
    const text = searchText([record(0, 'small', { status: 200, headers: [], receivedAt: 0, events })], [], { perExchange: 1000 });
    expect(text.startsWith('small\nevent-0-')).toBe(true);
    expect(text.replace(/\n/g, '').length).toBe(1000);
  });

  it('falls back to the decoded messages when the bodies were released', () => {
    const decoded: DecodedExchange = {
      seq: 0, era: '2026-07-28', problems: [], responseEmpty: false,
      sent: [{ exchange: 0, index: 0, direction: 'client-to-server', stream: 'post-body', t: 0, kind: 'request', id: 1, method: 'tools/call', params: { name: 'deploy' } }],
      received: [{ exchange: 0, index: 0, direction: 'server-to-client', stream: 'post-json', t: 0, kind: 'result', id: 1, result: { note: 'Released' } }],
    };
    const text = searchText([record(0, undefined, { status: 200, headers: [], receivedAt: 0 })], [decoded]);
    expect(text).toContain('tools/call');
    expect(text).toContain('"deploy"');
    expect(text).toContain('Released');
  });
});
