// The proof the issue asks for: the official SDK v2 client runs its multi-round flows against
// a mock built from a capture of a real server, recorded in the test through the recording
// proxy, and gets the same results as it got from the real server; the mock logs nothing.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { serveDemo } from '../../peers/serve-demo.js';
import { startRecordingProxy } from '../../peers/recording-proxy.js';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { MockMatcher } from '../../../worker/mock/matcher.js';
import { summarize } from '../../../worker/mock/summary.js';
import { startMockHttp, type MockHttpServer } from '../../../cli/mock/http-server.js';
import { connectClient, demoFlows, tripFlows, variantFlows } from '../../support/mock-flows.js';

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The official SDK v2 server of the peers (plan_trip), as its own process; stopped after the test. */
async function startTripServer(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/peers/sdk-trip-server.ts'], { stdio: ['pipe', 'pipe', 'inherit'] });
  stops.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  return (JSON.parse(out.split('\n')[0]) as { url: string }).url;
}

/** Runs `flows` against a server (the demo by default) through the recording proxy; returns
 *  the results and the capture. */
async function record(flows: (url: string) => Promise<unknown[]>, target?: string) {
  let url = target;
  if (url === undefined) {
    const demo = await serveDemo();
    stops.push(() => demo.close());
    url = demo.url;
  }
  const proxy = await startRecordingProxy({ target: url });
  stops.push(() => proxy.close());
  const results = await flows(proxy.url);
  await proxy.settled();
  const imported = importCapture(JSON.stringify(proxy.har()));
  if (!imported.ok) throw new Error(imported.error.message);
  return { results, exchanges: imported.exchanges };
}

async function mockOf(exchanges: Parameters<typeof buildMockBook>[0], strict = false): Promise<{ server: MockHttpServer; matcher: MockMatcher; log: string[] }> {
  const matcher = new MockMatcher(buildMockBook(exchanges), { strict });
  const log: string[] = [];
  const server = await startMockHttp(matcher, { port: 0, timing: 'fast', log: (l) => void log.push(l) });
  stops.push(() => server.close());
  return { server, matcher, log };
}

describe('mock served to the official SDK v2 client', () => {
  it('gives the demo\'s flows (every tool, the prompt, the resource, all their rounds) the same results as the demo gave, with no mismatch logged', async () => {
    const { results, exchanges } = await record(demoFlows);
    const { server, matcher, log } = await mockOf(exchanges);
    const again = await demoFlows(server.url);
    expect(again).toEqual(results);
    expect(log).toEqual([]);
    const summary = summarize(matcher, 'demo', server.answered());
    expect(summary.mismatches).toEqual([]);
    expect(summary.unused).toEqual([]);
    expect(summary.partlyUsed).toEqual([]);
    expect(summary.used).toBe(summary.calls);
  }, 60_000);

  it('gives the SDK v2 server\'s three-round plan_trip (form; sampling and roots at once; form), accepted and declined, the same results as that server gave', async () => {
    const { results, exchanges } = await record(tripFlows, await startTripServer());
    expect(JSON.stringify(results[0])).toContain('Booked for Ada: 3 nights in Lisbon.');
    expect(JSON.stringify(results[1])).toContain('No trip for Bo (decline).');
    const { server, log } = await mockOf(exchanges);
    expect(await tripFlows(server.url)).toEqual(results);
    expect(log).toEqual([]);
  }, 60_000);

  it('chooses between recorded variants of one call (accepted, declined) by the client\'s answers, whichever order they come in', async () => {
    const { results, exchanges } = await record(variantFlows);
    expect(JSON.stringify(results[0])).toContain('Done: \\"ship it\\"');
    expect(JSON.stringify(results[1])).toContain('was not confirmed (decline)');
    const first = await mockOf(exchanges);
    expect(await variantFlows(first.server.url)).toEqual(results);
    // Declined first: round 1 is served from the first recorded run (the accepted one), and
    // the decline still gets the declined answer in round 2.
    const second = await mockOf(exchanges);
    const declinedFirst: unknown[] = [];
    for (const decline of [true, false]) {
      const client = await connectClient(second.server.url, { decline });
      try {
        declinedFirst.push(await client.callTool({ name: 'confirm_action', arguments: { action: 'ship it' } }));
      } finally {
        await client.close();
      }
    }
    expect(declinedFirst).toEqual([results[1], results[0]]);
    expect(second.log).toEqual([]);
  }, 60_000);

  it('answers a client that does not echo the token (under --strict) or answers the wrong key with the named JSON-RPC error', async () => {
    const { exchanges } = await record(variantFlows);
    const { server, log } = await mockOf(exchanges, true);
    const client = await connectClient(server.url);
    const send = (params: Record<string, unknown>) => client.request({ method: 'tools/call', params }, { allowInputRequired: true }) as Promise<{ requestState?: string }>;
    const base = { name: 'confirm_action', arguments: { action: 'ship it' } };
    try {
      await send(base);
      await expect(send({ ...base, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }))
        .rejects.toMatchObject({ code: -32602, message: expect.stringContaining('does not echo the requestState issued in tools/call confirm_action') });
      const first = await send(base);
      await expect(send({ ...base, inputResponses: { confirmed: { action: 'accept', content: { confirm: true } } }, requestState: first.requestState }))
        .rejects.toMatchObject({ code: -32099, message: expect.stringContaining('inputResponses lacks "confirm"') });
    } finally {
      await client.close();
    }
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^mismatch: Invalid requestState: the retry does not echo/);
  }, 60_000);
});
