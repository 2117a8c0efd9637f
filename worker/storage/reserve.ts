// Relay records shown before they are written ("write-behind", worker/capture/write-behind.ts)
// are numbered and written in separate steps instead of one merge transaction:
//   reserveSeqs: hands a writer a block of a session's numbers (advances `nextSeq`), in a
//     transaction over `sessions` alone, so it never queues behind a write of exchanges;
//     the writer numbers new ids from its blocks in memory (capture/seq-blocks.ts);
//   lookupExchanges: the stored copies of a backlog batch's ids (a read, whatever its size);
//   writeReserved: writes the numbered copies later, in chunks (storage/chunks.ts), a
//     transaction per call.
// Why: in Chromium each put costs ~80–150 µs whatever its size (the request, not the bytes),
// so storing a 20k backlog takes seconds; the relay keeps every drained record until the
// page acknowledges it stored it, so nothing is lost by showing first and writing next. And
// a live record numbered in a transaction over the exchanges waited for the backlog chunk
// being written before it could be listed.
//
// Race, written down: numbers are unique because every writer takes them from `nextSeq` in
// a transaction (the tap one at a time, a merge per batch, this a block at a time), and a
// block's unused numbers are simply never used (gaps, never repeats, across reloads and
// tabs). Between numbering and writing another writer may store one of the ids (a second
// tab draining the same backlog numbers it too). A copy numbered as new is therefore never
// written over a stored copy: the id someone stored first is reported as collided, and that
// transaction still commits the rest.
import type { Connection } from './connection.js';
import { toStorageError } from './errors.js';
import { committed, EXCHANGE_STORES, storeCopies, storedCopies } from './chunks.js';
import type { StoredExchange } from './schema.js';

/** A copy to write, and whether its id was numbered new (written with `add`). */
export interface ReservedCopy {
  copy: StoredExchange;
  fresh: boolean;
}

/** A block of a session's numbers: `first` up to (not including) `end`; `restarted`: the
 *  session's numbering went back since `after` (it was cleared), so older blocks are void. */
export interface SeqBlock {
  first: number;
  end: number;
  restarted: boolean;
}

/**
 * Takes `count` numbers of `session` (created as a bare record if missing, as a merge
 * would), in one transaction over `sessions` only. `after`: the end of the caller's last
 * block of it, to tell whether the numbering restarted (a clear) since.
 */
export async function reserveSeqs(conn: Connection, session: string, count: number, after = 0): Promise<SeqBlock> {
  try {
    const db = await conn.get();
    const tx = db.transaction('sessions', 'readwrite');
    tx.done.catch(() => undefined);
    const s = (await tx.store.get(session)) ?? { id: session, name: session, createdAt: Date.now(), nextSeq: 0 };
    const first = s.nextSeq;
    await tx.store.put({ ...s, nextSeq: first + count });
    await tx.done;
    return { first, end: first + count, restarted: first < after };
  } catch (err) {
    throw toStorageError(err, 'numbering relayed exchanges');
  }
}

/** The stored copy of each record's id (undefined for a new id), in one read transaction. */
export async function lookupExchanges(conn: Connection, records: readonly { id: string }[]): Promise<(StoredExchange | undefined)[]> {
  try {
    if (records.length === 0) return [];
    const tx = (await conn.get()).transaction(EXCHANGE_STORES);
    const got = await storedCopies(tx, records);
    await tx.done;
    return got;
  } catch (err) {
    throw toStorageError(err, 'numbering relayed exchanges');
  }
}

/**
 * Writes reserved copies in one transaction: a fresh id only where nothing is stored under
 * it, the rest over their stored copies. Resolves to the ids someone else stored first
 * (their copies were not written); throws a StorageError (nothing written) when the
 * transaction fails otherwise.
 */
export async function writeReserved(conn: Connection, items: readonly ReservedCopy[]): Promise<string[]> {
  try {
    if (items.length === 0) return [];
    const db = await conn.get();
    const tx = db.transaction(EXCHANGE_STORES, 'readwrite');
    return await committed(tx, () => storeCopies(tx, items));
  } catch (err) {
    throw toStorageError(err, 'saving relayed exchanges');
  }
}
