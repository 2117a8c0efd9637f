import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';

const autoBook = () => {
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return buildMockBook(imported.exchanges);
};

describe('a recorded stream answer made the client\'s', () => {
  it('keeps the recorded events in order with their times and names, the progress token and the id swapped for the client\'s', () => {
    const m = new MockMatcher(autoBook());
    const o = m.handle({ jsonrpc: '2.0', id: 'call-9', method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 3 }, _meta: { progressToken: 'p-9' } } });
    if (o.kind !== 'answer') throw new Error(JSON.stringify(o));
    expect(o.recorded.stream).toBe(true);
    const sent = o.messages.map((x) => JSON.parse(x.text) as { id?: unknown; method?: string; params?: { progressToken?: unknown } });
    expect(sent.map((x) => x.method ?? 'result')).toEqual(['notifications/message', 'notifications/progress', 'notifications/progress', 'notifications/progress', 'result']);
    expect(sent.filter((x) => x.method === 'notifications/progress').map((x) => x.params?.progressToken)).toEqual(['p-9', 'p-9', 'p-9']);
    expect(sent[4].id).toBe('call-9');
    expect(o.messages.every((x) => x.event === 'message')).toBe(true);
    const at = o.messages.map((x) => x.at);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('keeps the recorded progress token when the client sent none', () => {
    const m = new MockMatcher(autoBook());
    const o = m.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 3 } } });
    if (o.kind !== 'answer') throw new Error(JSON.stringify(o));
    // The client sent no token: the recorded one stays (the client ignores it, as it would a stray).
    expect(o.messages.map((x) => JSON.parse(x.text).params?.progressToken).filter((t) => t !== undefined)).toEqual([16, 16, 16]);
  });
});
