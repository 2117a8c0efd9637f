// The page's backlog drains read ahead (worker/capture/backlog-drains.ts) against a real
// relay (server/relay/backlog.ts) cut into drains of 2 KiB: more drains than the relay
// remembers (its last 32), read under a bound of unwritten bytes that is small (the reading
// waits for storage) or large (only the cap on drains not yet acknowledged stops it). Every
// record is stored once, every drain acknowledged, and the relay's file ends empty.
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonlLine } from '../../../worker/capture/jsonl.js';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import { fakeCaptureStore } from '../../support/fake-capture-store.js';
import { backlogRecord as rec, send, startRelay, type RelayHarness } from './relay-harness.js';

const N = 240; // about six records a drain: 40 drains

// The page's fetch, through the harness (its page cookie and origin, as a browser sends them).
function pageFetch(h: RelayHarness): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url));
    const r = await send(h.port, {
      method: init?.method ?? 'GET', path: u.pathname + u.search,
      headers: { origin: h.origin, ...(init?.body ? { 'content-type': 'application/json' } : {}) }, body: init?.body as string | undefined,
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(r.headers)) if (typeof v === 'string') headers.set(k, v);
    return new Response(r.text, { status: r.status, headers });
  }) as typeof fetch;
}

describe('backlog drains read ahead against the relay', () => {
  const started: RelayHarness[] = [];
  afterEach(async () => {
    for (const h of started.splice(0)) await h.close();
  });

  for (const [what, readAheadBytes] of [['a small bound', 8 * 1024], ['a bound larger than the backlog', 64 << 20]] as const) {
    it(`stores every record once and empties the file, under ${what}`, async () => {
      const h = await startRelay({ backlogBatchBytes: 2048 });
      started.push(h);
      let text = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: '2026-12-07T00:00:00.000Z' }) + '\n';
      for (let i = 0; i < N; i++) text += jsonlLine(rec(i, 'complete'));
      await writeFile(h.jsonl, text, { mode: 0o600 });
      const stored = new Map<string, number>();
      const drains = new Set<string>();
      const store = fakeCaptureStore(async (items) => {
        await new Promise((r) => setTimeout(r, 1));
        for (const i of items) stored.set(i.copy.id, (stored.get(i.copy.id) ?? 0) + 1);
        return [];
      });
      const fetch = pageFetch(h);
      const acks: number[] = [];
      const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
      const feed = new RelayFeed({
        store, base: h.origin, openEvents: () => events, readAheadBytes,
        fetch: (async (url: string | URL | Request, init?: RequestInit) => {
          const res = await fetch(url, init);
          const drain = res.headers.get('mrtr-drain');
          if (drain) drains.add(drain);
          if (new URL(String(url)).pathname.endsWith('/ack')) acks.push(res.status);
          return res;
        }) as typeof globalThis.fetch,
        laid: () => undefined, stored: () => undefined, collided: () => undefined, announce: () => undefined,
      });
      feed.start();
      events.onopen!(new Event('open'));
      await new Promise((r) => setTimeout(r, 10));
      await feed.idle();
      feed.stop();
      expect(drains.size).toBeGreaterThan(32);
      expect(acks.length).toBe(drains.size);
      expect(acks.every((s) => s === 200)).toBe(true);
      expect(stored.size).toBe(N);
      expect([...stored.values()].every((n) => n === 1)).toBe(true);
      expect(await readFile(h.jsonl, 'utf8')).toBe('');
    }, 60_000);
  }
});
