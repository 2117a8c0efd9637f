// Merging relayed records (worker/storage/exchanges.ts mergeExchanges) asks the database
// for every stored copy before writing any, so a backlog batch of thousands costs one round
// trip, not two per record; and it still merges as before: new ids numbered in order, an
// older or equal copy not written, a later copy in the same batch over an earlier one.
// The database is stood in for by one that answers each request on a later task, as
// IndexedDB does, and logs the requests in the order they were issued.
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { Connection } from '../../../worker/storage/connection.js';
import { mergeExchanges } from '../../../worker/storage/exchanges.js';
import type { StoredExchange } from '../../../worker/storage/index.js';

function database(stored: StoredExchange[]) {
  const rows = new Map<string, unknown>(stored.map((r) => [r.id, r]));
  const sessions = new Map<string, unknown>([['s', { id: 's', name: 'Session 1', createdAt: 0, nextSeq: 5 }]]);
  const log: string[] = [];
  const later = <T>(v: T) => new Promise<T>((resolve) => setTimeout(() => resolve(v), 0));
  let open = 0;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { settle = resolve; });
  const request = <T>(name: string, run: () => T): Promise<T> => {
    log.push(name);
    open++;
    return later(run()).finally(() => {
      if (--open === 0) setTimeout(() => { if (open === 0) settle(); }, 0);
    });
  };
  const store = (map: Map<string, unknown>, name: string) => ({
    get: (id: string) => request(`${name}.get ${id}`, () => structuredClone(map.get(id))),
    put: (v: { id: string }) => request(`${name}.put ${v.id}`, () => void map.set(v.id, structuredClone(v))),
    count: () => request(`${name}.count`, () => map.size),
    getAllKeys: () => request(`${name}.getAllKeys`, () => [...map.keys()]),
  });
  const tx = { done, objectStore: (name: string) => (name === 'exchanges' ? store(rows, name) : store(sessions, name)) };
  const conn = { get: async () => ({ transaction: () => tx }) } as unknown as Connection;
  return { conn, rows, sessions, log };
}

const rec = (id: string, state: ExchangeRecord['state'], startedAt = 1): ExchangeRecord =>
  ({ v: 1, id, seq: 99, source: 'relay', startedAt, state, request: { method: 'POST', url: 'http://t/mcp', headers: [] } });

describe('merging relayed records', () => {
  it('asks for every stored copy before writing any, and merges them as one record at a time would', async () => {
    const kept = { ...rec('old-final', 'complete'), seq: 0, session: 's' } as StoredExchange;
    const growing = { ...rec('old-pending', 'pending'), seq: 1, session: 's' } as StoredExchange;
    const { conn, rows, sessions, log } = database([kept, growing]);
    const written = await mergeExchanges(conn, 's', [
      rec('a', 'pending'), rec('old-final', 'complete'), rec('old-pending', 'complete'), rec('b', 'complete'), rec('a', 'complete'), rec('a', 'streaming'),
    ]);

    const lastGet = log.findLastIndex((l) => l.includes('.get '));
    const firstPut = log.findIndex((l) => l.includes('.put '));
    expect(firstPut).toBeGreaterThan(lastGet);

    expect(written.map((r) => `${r.id} ${r.state} ${r.seq}`)).toEqual(['a pending 5', 'old-pending complete 1', 'b complete 6', 'a complete 5']);
    expect((rows.get('a') as StoredExchange).state).toBe('complete');
    expect((rows.get('old-final') as StoredExchange)).toEqual(kept);
    expect((rows.get('old-pending') as StoredExchange).state).toBe('complete');
    expect((sessions.get('s') as { nextSeq: number }).nextSeq).toBe(7);
  });

  it('reads only the stored copies of a big batch of mostly new ids, listing the stored keys once instead of asking per id', async () => {
    const kept = { ...rec('old-final', 'complete'), seq: 0, session: 's' } as StoredExchange;
    const growing = { ...rec('old-pending', 'pending'), seq: 1, session: 's' } as StoredExchange;
    const { conn, rows, log } = database([kept, growing]);
    const fresh = Array.from({ length: 200 }, (_, i) => rec(`new-${i}`, 'complete', 10 + i));
    const written = await mergeExchanges(conn, 's', [...fresh.slice(0, 100), rec('old-final', 'complete'), rec('old-pending', 'complete'), ...fresh.slice(100)]);
    expect(log.filter((l) => l.startsWith('exchanges.get ')).sort()).toEqual(['exchanges.get old-final', 'exchanges.get old-pending']);
    expect(log.filter((l) => l === 'exchanges.getAllKeys')).toHaveLength(1);
    // Merged as before: new ids numbered in order after the session's last, the final copy kept.
    expect(written).toHaveLength(201);
    expect(written[0]!.seq).toBe(5);
    expect(written.at(-1)!.seq).toBe(204);
    expect((rows.get('old-final') as StoredExchange)).toEqual(kept);
    expect((rows.get('old-pending') as StoredExchange).state).toBe('complete');
  });
});
