// worker/mock/http-answer.ts: a served answer's HTTP head and body parts, and its clock, as
// the CLI's endpoint and the relay's mocks both send them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { answerClock, httpAnswer, isMockTiming } from '../../../worker/mock/http-answer.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';

const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
if (!imported.ok) throw new Error(imported.error.message);
const book = buildMockBook(imported.exchanges);
const slowReport = () => {
  const o = new MockMatcher(book).handle({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 3 }, _meta: { progressToken: 'p' } } });
  if (o.kind !== 'answer') throw new Error(JSON.stringify(o));
  return o;
};

describe('a served answer over HTTP', () => {
  it('under recorded timing sends a stream as one frame per event at its recorded time, without the recording\'s connection headers', () => {
    const o = slowReport();
    const a = httpAnswer(o, 'recorded');
    expect(a.stream).toBe(true);
    expect(a.headers['content-type']).toBe('text/event-stream');
    for (const h of ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'mcp-session-id']) expect(a.headers).not.toHaveProperty(h);
    expect(a.parts.map((p) => p.at)).toEqual(o.messages.map((m) => m.at));
    expect(a.parts.every((p) => p.text.startsWith('event: message\n') || p.text.startsWith('data: '))).toBe(true);
    // The recording spaced the events (the demo sleeps between progress steps).
    expect(a.parts.at(-1)!.at).toBeGreaterThan(a.parts[0].at);
  });

  it('under fast timing sends the same frames as one part', () => {
    const o = slowReport();
    const recorded = httpAnswer(o, 'recorded');
    const fast = httpAnswer(o, 'fast');
    expect(fast.parts).toHaveLength(1);
    expect(fast.parts[0].text).toBe(recorded.parts.map((p) => p.text).join(''));
    expect(fast.headers).toEqual(recorded.headers);
  });

  it('knows the two timings and no other', () => {
    expect(['recorded', 'fast', 'slow', 5, undefined].map(isMockTiming)).toEqual([true, true, false, false, false]);
  });

  it('waits the recorded gaps under recorded timing, and not at all under fast', async () => {
    const time = async (timing: 'recorded' | 'fast') => {
      const wait = answerClock(timing);
      const start = performance.now();
      await wait(60);
      await wait(30); // already past: no wait
      await wait(120);
      return performance.now() - start;
    };
    expect(await time('recorded')).toBeGreaterThanOrEqual(115);
    expect(await time('fast')).toBeLessThan(60);
  });
});
