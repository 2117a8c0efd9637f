// worker/services/sessions.ts `exchanges`: a page of the raw exchange list carries a mark of
// the records it shows; asked again with that mark, it answers "unchanged" (no summaries)
// until the records change, check progress apart.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../worker/services/context.js';
import { createSessionsService } from '../../../worker/services/sessions.js';
import type { StoredExchange } from '../../../worker/storage/index.js';

const call = (id: string, seq: number, session: string, over: Partial<StoredExchange> = {}): StoredExchange => ({
  v: 1, id, seq, session, source: 'relay', startedAt: seq, state: 'complete',
  request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [], body: JSON.stringify({ jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name: 'echo' } }) },
  response: { status: 200, headers: [], receivedAt: seq, body: JSON.stringify({ jsonrpc: '2.0', id: seq, result: {} }) },
  ...over,
});

async function setup() {
  const ctx = createContext();
  const { id: session } = await ctx.store.currentSession();
  const service = createSessionsService(ctx);
  await ctx.modelOf(session); // loaded, so records laid in are held (an unloaded one is only reported)
  const page = async (since?: string | null) => {
    const got = await service.exchanges(session, { offset: -2, limit: 2, since });
    if (!got.ok) throw new Error(got.error.message);
    return got.value;
  };
  return { ctx, session, service, page };
}

describe('a page of the exchange list, marked', () => {
  it('answers "unchanged" to its own mark while the records stay as they were, checks run or not', async () => {
    const { ctx, session, page } = await setup();
    try {
      await ctx.owner.apply([call('a', 0, session), call('b', 1, session), call('c', 2, session)]);
      const first = await page();
      expect(first.items?.map((x) => [x.id, x.method, x.name])).toEqual([['b', 'tools/call', 'echo'], ['c', 'tools/call', 'echo']]);
      expect(first.mark).not.toBeNull();
      // What a check-progress build does: a new build of the same records.
      const model = await ctx.modelOf(session);
      await ctx.analysed();
      await model.checkMore(() => [], 0, { whole: true });
      const again = await page(first.mark);
      expect(again).toEqual({ total: 3, mark: first.mark, items: null });
    } finally {
      ctx.store.close();
    }
  });

  it('sends the summaries again, under a new mark, once a record is added or changes', async () => {
    const { ctx, session, page } = await setup();
    try {
      await ctx.owner.apply([call('a', 0, session), call('b', 1, session, { state: 'pending', response: undefined })]);
      const first = await page();
      expect(first.items?.map((x) => [x.id, x.state, x.status])).toEqual([['a', 'complete', 200], ['b', 'pending', null]]);
      await ctx.owner.apply([call('b', 1, session)]);
      const changed = await page(first.mark);
      expect(changed.mark).not.toBe(first.mark);
      expect(changed.items?.map((x) => [x.id, x.state, x.status])).toEqual([['a', 'complete', 200], ['b', 'complete', 200]]);
      await ctx.owner.apply([call('c', 2, session)]);
      const added = await page(changed.mark);
      expect(added.items?.map((x) => x.id)).toEqual(['b', 'c']);
      expect(added.total).toBe(3);
    } finally {
      ctx.store.close();
    }
  });

  it('a mark of another range or of a session forgotten (cleared) is not taken for this page', async () => {
    const { ctx, session, service, page } = await setup();
    try {
      await ctx.owner.apply([call('a', 0, session), call('b', 1, session), call('c', 2, session)]);
      const first = await page();
      const other = await service.exchanges(session, { offset: 0, limit: 2, since: first.mark });
      expect(other.ok && other.value.items?.map((x) => x.id)).toEqual(['a', 'b']);
      // A clear: the worker drops its model; the session is read again from storage, anew.
      // Its new model is at the same version once one record is laid in: the mark tells them apart.
      service.forget(session);
      await ctx.modelOf(session);
      await ctx.owner.apply([call('z', 0, session)]);
      const after = await page(first.mark);
      expect(after.mark).not.toBe(first.mark);
      expect(after.items?.map((x) => x.id)).toEqual(['z']);
    } finally {
      ctx.store.close();
    }
  });
});
