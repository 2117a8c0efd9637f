// Reads of exchange records, wherever they lie: a value each (the tap's records, and all a
// version 1 database held) or in chunks (storage/chunks.ts).
import type { Connection } from './connection.js';
import { toStorageError } from './errors.js';
import type { StoredExchange } from './schema.js';
import { Chunks, EXCHANGE_STORES, sessionChunks } from './chunks.js';

/**
 * Where to resume paging: the last single-record value of the previous page (`startedAt`,
 * `id`), or the last chunk read (`chunk`).
 */
export type PageCursor = { startedAt: number; id: string } | { chunk: number };

export interface ExchangePage {
  items: StoredExchange[];
  /** Pass back as `after` to get the next page; null when this was the last. */
  next: PageCursor | null;
}

export async function getExchange(conn: Connection, id: string): Promise<StoredExchange | undefined> {
  try {
    const tx = (await conn.get()).transaction(EXCHANGE_STORES);
    const place = await new Chunks(tx).locate(id);
    return place?.rec;
  } catch (err) {
    throw toStorageError(err, 'reading an exchange');
  }
}

/** Exchanges by id, in the order asked (undefined where there is none), in one transaction;
 *  a chunk holding several of them is read once. */
export async function getExchanges(conn: Connection, ids: readonly string[]): Promise<(StoredExchange | undefined)[]> {
  try {
    const tx = (await conn.get()).transaction(EXCHANGE_STORES);
    const chunks = new Chunks(tx);
    const got = await Promise.all(ids.map((id) => chunks.locate(id).then((p) => p?.rec)));
    await tx.done;
    return got;
  } catch (err) {
    throw toStorageError(err, 'reading exchanges');
  }
}

/**
 * One page of a session's exchanges: first those stored a value each, in start-time order
 * (ties broken by id), then each chunk whole (a page in that part is one chunk, whatever
 * `limit`), in the order the chunks were written.
 */
export async function pageExchanges(
  conn: Connection,
  session: string,
  opts: { after?: PageCursor | null; limit?: number } = {},
): Promise<ExchangePage> {
  const limit = Math.max(1, opts.limit ?? 200);
  const after = opts.after ?? null;
  try {
    const tx = (await conn.get()).transaction(EXCHANGE_STORES);
    if (after === null || !('chunk' in after)) {
      const items: StoredExchange[] = [];
      const range = IDBKeyRange.bound([session, after ? after.startedAt : -Infinity], [session, Infinity]);
      let cursor = await tx.objectStore('exchanges').index('by-session-time').openCursor(range);
      // Equal start times sort by primary key inside the index; skip what the last page had.
      while (cursor && after && cursor.value.startedAt === after.startedAt && cursor.primaryKey <= after.id) {
        cursor = await cursor.continue();
      }
      while (cursor && items.length < limit) {
        items.push(cursor.value);
        cursor = await cursor.continue();
      }
      const last = items[items.length - 1];
      if (cursor && last) return { items, next: { startedAt: last.startedAt, id: last.id } };
      const first = (await sessionChunks(tx, session))[0];
      return { items, next: first === undefined ? null : { chunk: first - 1 } };
    }
    const nos = await sessionChunks(tx, session);
    const at = nos.findIndex((no) => no > after.chunk);
    if (at < 0) return { items: [], next: null };
    const no = nos[at]!;
    const chunk = await tx.objectStore('chunks').get(no);
    return { items: chunk?.records ?? [], next: at + 1 < nos.length ? { chunk: no } : null };
  } catch (err) {
    throw toStorageError(err, 'reading a page of exchanges');
  }
}

export async function countExchanges(conn: Connection, session: string): Promise<number> {
  try {
    const tx = (await conn.get()).transaction(EXCHANGE_STORES);
    const [singles, entries] = await Promise.all([
      tx.objectStore('exchanges').index('by-session-time').count(IDBKeyRange.bound([session, -Infinity], [session, Infinity])),
      tx.objectStore('chunkIds').index('by-session').getAll(session),
    ]);
    return entries.reduce((n, e) => n + e.ids.length, singles);
  } catch (err) {
    throw toStorageError(err, 'counting exchanges');
  }
}
