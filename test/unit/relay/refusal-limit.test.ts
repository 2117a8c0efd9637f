// Refused requests recorded within a bound per window, the rest summarised as one record:
// any web page can make a browser send them (20,000 no-cors fetches once added 177 MB).
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { RefusalLimit } from '../../../server/relay/refusal-limit.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { parseJsonl, send, startRelay, type RelayHarness } from './relay-harness.js';

const refusal = (i: number, pad = 0): ExchangeRecord => ({
  v: 1, id: `x${i}`, seq: 0, source: 'relay', startedAt: i, state: 'failed', refused: `no ${i}`,
  request: { method: 'GET', url: `http://127.0.0.1/relay/<wrong-token>/t${'p'.repeat(pad)}`, headers: [{ name: 'cookie', value: 'c' }] },
  response: { status: 403, headers: [], receivedAt: i, body: '{}' },
});

describe('RefusalLimit', () => {
  it('records the first refusals of a window, then one summary of how many more there were', () => {
    let t = 0;
    const got: ExchangeRecord[] = [];
    const limit = new RefusalLimit((r) => got.push(r), { windowMs: 1000, count: 3, bytes: 1e6, now: () => t });
    for (let i = 0; i < 10; i++) limit.add(refusal(i));
    expect(got.map((r) => r.id)).toEqual(['x0', 'x1', 'x2']);
    t = 1500;
    limit.add(refusal(10));
    expect(got).toHaveLength(5);
    expect(got[3].refused).toMatch(/^7 more refused requests within 1 s were not recorded \(at most 3 refusals or \d+ KiB of them are recorded per 1 s\); the last: no 9$/);
    expect(got[3].request.headers).toEqual([]);
    expect(got[4].id).toBe('x10');
  });

  it('bounds the bytes of a window as well as the count', () => {
    const got: ExchangeRecord[] = [];
    const limit = new RefusalLimit((r) => got.push(r), { windowMs: 1e9, count: 1000, bytes: 5000, now: () => 0 });
    for (let i = 0; i < 10; i++) limit.add(refusal(i, 2000));
    expect(got).toHaveLength(2);
    limit.flush();
    expect(got[2].refused).toMatch(/^8 more refused requests/);
  });
});

describe('relay refusals', () => {
  let h: RelayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('records at most the bound of a flood of wrong-token requests, and a summary of the rest', async () => {
    h = await startRelay({ refusals: { count: 5, windowMs: 60_000 } });
    for (let i = 0; i < 40; i++) expect((await send(h.port, { path: `/relay/wrong-token-${i}/x/mcp`, headers: { cookie: 'session=abc', referer: 'http://evil.example/' } })).status).toBe(403);
    await h.relay.close();
    const { records } = parseJsonl(await readFile(h.jsonl, 'utf8'));
    expect(records).toHaveLength(6);
    expect(records[5].refused).toMatch(/^35 more refused requests within 60 s were not recorded/);
  });
});
