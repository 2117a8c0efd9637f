// Relay records shown before they are written ("write-behind", worker/capture/write-behind.ts)
// are merged in two transactions instead of one:
//   reserveExchanges: decides what mergeExchanges would write (numbering, `supersedes`) and
//     advances the session's numbering, without writing the records: one small transaction
//     per batch, whatever its size;
//   writeReserved: writes those copies later, in chunks (storage/chunks.ts), a transaction
//     per call.
// Why: in Chromium each put costs ~80–150 µs whatever its size (the request, not the bytes),
// so storing a 20k backlog takes seconds; the relay keeps every drained record until the
// page acknowledges it stored it, so nothing is lost by showing first and writing next.
//
// Race, written down: between the two steps another writer may store one of the ids (a
// second tab draining the same backlog reserves its own numbers for it). A copy reserved
// as new is therefore never written over a stored copy: the id someone stored first is
// reported as collided, and that transaction still commits the rest.
import type { ExchangeRecord } from '../protocol.js';
import type { Connection } from './connection.js';
import { toStorageError } from './errors.js';
import { planMerge } from './exchanges.js';
import { committed, EXCHANGE_STORES, storeCopies, storedCopies } from './chunks.js';
import type { StoredExchange } from './schema.js';

/** What a reservation decided: the copies to write, and which of them are new ids. */
export interface Reservation {
  copies: StoredExchange[];
  fresh: Set<string>;
}

/** A copy to write, and whether its id was reserved new (written with `add`). */
export interface ReservedCopy {
  copy: StoredExchange;
  fresh: boolean;
}

/**
 * Numbers `records` into `session` as mergeExchanges would, in one transaction that writes
 * only the session's numbering. The copies are to be written by writeReserved.
 */
export async function reserveExchanges(conn: Connection, session: string, records: readonly ExchangeRecord[]): Promise<Reservation> {
  try {
    if (records.length === 0) return { copies: [], fresh: new Set() };
    const db = await conn.get();
    const tx = db.transaction([...EXCHANGE_STORES, 'sessions'], 'readwrite');
    tx.done.catch(() => undefined);
    const sessions = tx.objectStore('sessions');
    const [stored, olds] = await Promise.all([sessions.get(session), storedCopies(tx, records)]);
    const plan = planMerge(session, stored, olds, records);
    if (plan.fresh.size > 0) await sessions.put(plan.session);
    await tx.done;
    return { copies: plan.written, fresh: plan.fresh };
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
