// A relay push is numbered before it is laid in (capture/write-behind.ts): the feed reports
// the take in flight (`arriving`), so the worker's check slices wait for it instead of
// running while it waits for its turn.
import { describe, expect, it } from 'vitest';
import { RelayFeed, type EventStream } from '../../../worker/capture/relay-feed.js';
import { recordPush } from '../../../worker/capture/relay-push.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { fakeCaptureStore } from '../../support/fake-capture-store.js';

const call = (id: string, state: ExchangeRecord['state']): ExchangeRecord => ({
  v: 1, id, seq: 0, source: 'relay', startedAt: 1_000, state, request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] },
});

describe('relay feed arrivals', () => {
  it('reports each push being numbered, resolved once it is laid in; pushes meanwhile join that take', async () => {
    const events: EventStream = { onopen: null, onmessage: null, onerror: null, close() {} };
    const laid: StoredExchange[] = [];
    const arrivals: Promise<void>[] = [];
    const feed = new RelayFeed({
      store: fakeCaptureStore(async () => []), fetch: (async () => new Response('', { status: 404 })) as typeof fetch,
      base: 'http://127.0.0.1:1/', openEvents: () => events,
      laid: (records) => void laid.push(...records), stored: () => undefined, collided: () => undefined, announce: () => undefined,
      arriving: (p) => void arrivals.push(p),
    });
    feed.start();
    const push = (r: ExchangeRecord) => events.onmessage!({ data: JSON.stringify(recordPush(r)) } as MessageEvent<string>);
    push(call('a', 'pending'));
    push(call('b', 'pending'));
    expect(arrivals).toHaveLength(1);
    expect(laid).toHaveLength(0);
    await arrivals[0];
    expect(laid.map((r) => r.id).sort()).toEqual(['a', 'b']);
    push(call('a', 'complete'));
    expect(arrivals).toHaveLength(2);
    await arrivals[1];
    expect(laid.at(-1)).toMatchObject({ id: 'a', state: 'complete' });
    feed.stop();
  });
});
