// Issue 32's proof on an independent peer: the official SDK v2 client drives tmcp's two-round
// book_room (accepted, declined) and room_rates through the recording proxy; a mock of that
// recording gives the same client the same results with no mismatch; and lint finds no
// error-severity finding in tmcp's recorded traffic.
import { afterEach, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import { summarize } from '../../../worker/mock/summary.js';
import { startMockHttp } from '../../../cli/mock/http-server.js';
import { connectClient } from '../../support/mock-flows.js';
import { startRecordingProxy } from '../../peers/recording-proxy.js';
import { serveTmcp } from '../../peers/tmcp-server.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** book_room accepted (the client's fill picks the first room), declined, then room_rates. */
async function bookingFlows(url: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [guest, decline] of [['Ada', false], ['Bo', true]] as const) {
    const client = await connectClient(url, { decline });
    try {
      out.push(await client.callTool({ name: 'book_room', arguments: { guest } }));
      if (!decline) out.push(await client.callTool({ name: 'room_rates', arguments: {} }));
    } finally {
      await client.close();
    }
  }
  return out;
}

async function recordTmcp() {
  const tmcp = await serveTmcp();
  stops.push(() => tmcp.close());
  const proxy = await startRecordingProxy({ target: tmcp.url });
  stops.push(() => proxy.close());
  const results = await bookingFlows(proxy.url);
  await proxy.settled();
  const imported = importCapture(JSON.stringify(proxy.har()));
  if (!imported.ok) throw new Error(imported.error.message);
  return { results, exchanges: imported.exchanges };
}

describe('tmcp recorded through the SDK v2 client', () => {
  it('served back as a mock gives the client the same results, every recorded call used, no mismatch', async () => {
    const { results, exchanges } = await recordTmcp();
    expect(JSON.stringify(results[0])).toContain('Booked for Ada: single room, 2 nights, 160 EUR.');
    expect(JSON.stringify(results[1])).toContain('single: 80 EUR');
    expect(JSON.stringify(results[2])).toContain('No room for Bo (decline).');
    expect(JSON.stringify(exchanges)).toContain('input_required');
    const matcher = new MockMatcher(buildMockBook(exchanges), { strict: true });
    const log: string[] = [];
    const server = await startMockHttp(matcher, { port: 0, timing: 'fast', log: (l) => void log.push(l) });
    stops.push(() => server.close());
    expect(await bookingFlows(server.url)).toEqual(results);
    expect(log).toEqual([]);
    const summary = summarize(matcher, 'tmcp', server.answered());
    expect(summary.mismatches).toEqual([]);
    expect(summary.unused).toEqual([]);
    expect(summary.partlyUsed).toEqual([]);
    expect(summary.used).toBe(summary.calls);
  }, 60_000);

  it('lints without an error-severity finding', async () => {
    const { exchanges } = await recordTmcp();
    const analysis = await analyze(exchanges);
    expect(analysis.findings.filter((f) => f.severity === 'error').map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
    // What it does find are SHOULDs about the token's content (an expiry, the principal and the
    // request it is bound to), which tmcp leaves to the application's requestStateCodec.
    expect([...new Set(analysis.findings.map((f) => `${f.severity} ${f.rule}`))].sort()).toEqual([
      'warning state/no-expiry', 'warning state/no-principal-binding', 'warning state/no-request-binding',
    ]);
  }, 60_000);
});
