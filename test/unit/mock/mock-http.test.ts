// cli/mock/http-server.ts: `mock --timing` over HTTP. A streamed answer's events go out as
// late as recorded under `recorded` (the default), in one write under `fast`.
import { afterEach, describe, expect, it } from 'vitest';
import { startMockHttp, type MockHttpServer } from '../../../cli/mock/http-server.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import { STREAMED_CALL, streamedRecords, timedStream } from '../../support/stream-timing.js';

const GAP = 150;
const servers: MockHttpServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(timing: 'recorded' | 'fast'): Promise<string> {
  const server = await startMockHttp(new MockMatcher(buildMockBook(streamedRecords(GAP))), { port: 0, timing, log: () => undefined });
  servers.push(server);
  return server.url;
}
const call = JSON.stringify({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { ...STREAMED_CALL, _meta: { progressToken: 'mine' } } });

describe('the mock\'s HTTP endpoint and --timing', () => {
  it('sends a stream\'s events as late as recorded under recorded timing, and all at once under fast', async () => {
    const recorded = await timedStream(await serve('recorded'), call);
    const fast = await timedStream(await serve('fast'), call);
    for (const got of [recorded, fast]) {
      expect(got.contentType).toBe('text/event-stream');
      expect(got.messages.map((m) => m.params?.progressToken ?? m.id)).toEqual(['mine', 'mine', 'c1']);
    }
    // Recorded GAP and 2 GAP after the first event (itself recorded at the head's time).
    expect(recorded.times[1]).toBeGreaterThanOrEqual(0.8 * GAP);
    expect(recorded.times[2]).toBeGreaterThanOrEqual(0.8 * 2 * GAP);
    expect(fast.times[2] - fast.times[0]).toBeLessThan(GAP);
  });
});
