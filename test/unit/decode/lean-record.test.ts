// The worker's lean copy of a stored exchange (worker/decode/lean-record.ts): no body
// texts, the same sizes, and the same answers wherever a stored copy is compared.
import { describe, expect, it } from 'vitest';
import { bodySizesOf, eventCount, isLean, leanCopy } from '../../../worker/decode/lean-record.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { supersedes } from '../../../worker/storage/index.js';

const streamed = (events: number, state: ExchangeRecord['state'] = 'streaming'): ExchangeRecord => ({
  v: 1, id: 'x1', seq: 3, source: 'sw', startedAt: 1, state,
  request: { method: 'POST', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'content-type', value: 'application/json' }], body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' },
  response: {
    status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], receivedAt: 2,
    events: Array.from({ length: events }, (_, i) => ({ t: 3 + i, data: `{"n":${i}}` })), tail: 'data: {"par',
  },
});

describe('a lean copy', () => {
  it('drops every body text, keeps their sizes, and leaves the record it was made from whole', () => {
    const r = streamed(4);
    const before = structuredClone(r);
    const lean = leanCopy(r);
    expect(r).toEqual(before);
    expect(isLean(lean)).toBe(true);
    expect(lean.request.body).toBeUndefined();
    expect(lean.response?.events).toBeUndefined();
    expect(lean.response?.tail).toBeUndefined();
    expect(lean.request.headers).toEqual(r.request.headers);
    expect(bodySizesOf(lean)).toEqual(bodySizesOf(r));
    expect(bodySizesOf(r)).toEqual({ request: r.request.body!.length, response: undefined, events: 4, tail: 11 });
    expect(leanCopy(lean)).toBe(lean);
  });

  it('counts the events it no longer holds, and none for a response that is not a stream', () => {
    expect(eventCount(leanCopy(streamed(5)))).toBe(5);
    const plain: ExchangeRecord = { ...streamed(0), response: { status: 200, headers: [], receivedAt: 2, body: '{}' } };
    expect(eventCount(plain)).toBeNull();
    expect(eventCount(leanCopy(plain))).toBeNull();
  });

  it('is superseded exactly when the whole record it came from is', () => {
    for (const stored of [streamed(3), streamed(3, 'complete'), { ...streamed(0), response: undefined }]) {
      for (const incoming of [streamed(2), streamed(3), streamed(4), streamed(1, 'complete'), streamed(0, 'pending')]) {
        expect(supersedes(incoming, leanCopy(stored))).toBe(supersedes(incoming, stored));
        expect(supersedes(leanCopy(incoming), stored)).toBe(supersedes(incoming, stored));
      }
    }
  });
});
