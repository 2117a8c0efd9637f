// A session cleared through the page: the worker forgets what it cached and tells whoever
// holds numbers for it (the relay feed's blocks reserved ahead), so a live exchange after the
// clear is not numbered from before it (capture/seq-blocks.ts).
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { createContext, Listeners } from '../../../worker/services/context.js';
import { createLifeService } from '../../../worker/services/life.js';
import { RelayFeed } from '../../../worker/capture/relay-feed.js';
import { createSessionsService } from '../../../worker/services/sessions.js';
import { CaptureStore } from '../../../worker/storage/index.js';
import { WriteBehind } from '../../../worker/capture/write-behind.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';

const rec = (id: string, at: number): ExchangeRecord => ({ v: 1, id, seq: 0, source: 'relay', startedAt: at, state: 'complete', request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [] } });

describe('clearing a session', () => {
  it('tells the listeners of `cleared` when the page says it cleared a session', () => {
    const cleared = new Listeners<string>();
    const heard: string[] = [];
    cleared.hear((s) => heard.push(s));
    const sessions = new Map();
    const service = createSessionsService({ sessions, cleared } as unknown as Parameters<typeof createSessionsService>[0]);
    service.forget('s1');
    expect(heard).toEqual(['s1']);
  });

  it('numbers a relay record after the clear from the restarted count, not from a block held before it', async () => {
    const store = new CaptureStore('session-clear-1');
    const { id: session } = await store.currentSession();
    const laid: StoredExchange[][] = [];
    const behind = new WriteBehind({ store, laid: (r) => { laid.push([...r]); }, stored: () => undefined, refused: () => undefined, collided: () => undefined, quiet: async () => undefined });
    await behind.take([rec('a', 1)]).laid;
    await behind.idle();
    expect(laid.flat().map((r) => r.seq)).toEqual([0]);
    await store.clearExchanges(session);
    behind.forgetNumbers(session);
    const tapped = async (id: string) => (await store.addExchange({ id, session, source: 'sw', startedAt: 2, state: 'pending', request: { method: 'POST', url: 'http://t/mcp', headers: [] } })).seq;
    await behind.take([rec('b', 3)]).laid;
    await behind.idle();
    const b = laid.flat().find((r) => r.id === 'b')!.seq;
    // The tap numbers from the restarted count too: none of its numbers may be b's.
    const taps = [await tapped('tap-1'), await tapped('tap-2')];
    expect(b).toBe(0);
    expect(taps).not.toContain(b);
    behind.stop();
    store.close();
  });
});

describe('the relay feed hears a clear', () => {
  it('drops the numbers it holds for a session the page cleared (life.ts wires the feed to `cleared`)', async () => {
    // An EventSource that never opens: the feed starts, drains nothing, sends nothing.
    class Silent { onopen = null; onmessage = null; onerror = null; close(): void {} }
    // And a notice channel that hears nothing: a real one would hear other test files' notices.
    class Deaf { onmessage = null; postMessage(): void {} close(): void {} }
    vi.stubGlobal('EventSource', Silent);
    vi.stubGlobal('BroadcastChannel', Deaf);
    const forgot = vi.spyOn(RelayFeed.prototype, 'forgetNumbers');
    try {
      const ctx = createContext();
      await createLifeService(ctx).init({ demoServer: 'http://127.0.0.1:1/demo/mcp', capture: 'http://127.0.0.1:1/' });
      createSessionsService(ctx).forget('s9');
      expect(forgot).toHaveBeenCalledWith('s9');
    } finally {
      forgot.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});
