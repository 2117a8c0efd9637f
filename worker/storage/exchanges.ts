// Exchange records: progressive writes from the tap, whole records from the relay and
// imports (stored in chunks, storage/chunks.ts). Every write is its own short transaction,
// so a killed service worker leaves each exchange at its last completed step, never
// half-written. Reads are in storage/reads.ts.
import type { ExchangeRecord, ExchangeState, SseEventRecord } from '../protocol.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import type { Connection } from './connection.js';
import { StorageError, toStorageError } from './errors.js';
import type { StoredExchange } from './schema.js';
import { isFinal, planMerge } from './merge-plan.js';
import { Chunks, committed, EXCHANGE_STORES, storeCopies, storedCopies } from './chunks.js';

export { isFinal, planMerge, supersedes, type MergePlan } from './merge-plan.js';

/** What the tap knows when a request starts; storage assigns `seq` and `v`. */
export type NewExchange = Omit<ExchangeRecord, 'seq' | 'v' | 'session'> & { session: string };

/** The response head, written when it arrives. */
export type ResponseHead = Pick<NonNullable<ExchangeRecord['response']>, 'status' | 'statusText' | 'headers' | 'receivedAt'>;

/** The final step of an exchange. */
export interface ExchangeEnd {
  state: Extract<ExchangeState, 'complete' | 'aborted' | 'failed'>;
  endedAt: number;
  error?: string;
  /** Whole body text (non-event-stream responses). */
  body?: string;
  /** Unterminated tail of an event stream, kept verbatim. */
  tail?: string;
}

async function write<T>(doing: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toStorageError(err, doing);
  }
}

/** Adds a new exchange, giving it the next `seq` of its session (created if missing). */
export function addExchange(conn: Connection, rec: NewExchange): Promise<StoredExchange> {
  return write('recording a request', async () => {
    const db = await conn.get();
    const tx = db.transaction(['exchanges', 'sessions'], 'readwrite');
    const sessions = tx.objectStore('sessions');
    const session = (await sessions.get(rec.session)) ?? {
      id: rec.session, name: rec.session, createdAt: rec.startedAt, nextSeq: 0,
    };
    const stored: StoredExchange = { ...rec, v: PROTOCOL_VERSION, seq: session.nextSeq };
    session.nextSeq += 1;
    await Promise.all([sessions.put(session), tx.objectStore('exchanges').add(stored), tx.done]);
    return stored;
  });
}

/**
 * Adds a tapped Console send, or fills in the record the Console saved under its id before
 * sending (`pending`): the tap's copy takes its place, keeping its seq and session. Null,
 * and nothing written, when the stored copy is already final (the Console's own copy,
 * written because its answer came first): that copy stands.
 */
export function fillExchange(conn: Connection, rec: NewExchange): Promise<StoredExchange | null> {
  return write('recording a Console send', async () => {
    const db = await conn.get();
    const tx = db.transaction([...EXCHANGE_STORES, 'sessions'], 'readwrite');
    tx.done.catch(() => undefined);
    const chunks = new Chunks(tx);
    const place = await chunks.locate(rec.id);
    const old = place?.rec;
    if (old && isFinal(old)) {
      await tx.done;
      return null;
    }
    let seq: number;
    let session: string;
    if (old) {
      seq = old.seq;
      session = old.session;
    } else {
      const sessions = tx.objectStore('sessions');
      const s = (await sessions.get(rec.session)) ?? { id: rec.session, name: rec.session, createdAt: rec.startedAt, nextSeq: 0 };
      seq = s.nextSeq;
      session = s.id;
      s.nextSeq += 1;
      await sessions.put(s);
    }
    const stored: StoredExchange = { ...rec, v: PROTOCOL_VERSION, seq, session };
    await (place ? chunks.replace(place, stored) : tx.objectStore('exchanges').put(stored));
    await Promise.all([chunks.flush(), tx.done]);
    return stored;
  });
}

/** Writes a whole record as given, where its id is stored or as a new one (tests, the Console). */
export function putExchange(conn: Connection, rec: StoredExchange): Promise<void> {
  return putExchanges(conn, [rec]);
}

/**
 * Merges whole records made elsewhere (the relay) into `session`, in one transaction, in
 * the order given: an unknown id is added with the session's next `seq`; a known id is
 * replaced only when the incoming copy `supersedes` the stored one, and keeps its stored
 * `seq` and session. The incoming `seq` and `session` are ignored (they are the other
 * process's numbering, and would collide with this session's). One transaction makes it
 * safe for two pages merging the same record at once. Resolves to what was written.
 */
export function mergeExchanges(conn: Connection, session: string, records: readonly ExchangeRecord[]): Promise<StoredExchange[]> {
  return write('saving relayed exchanges', async () => {
    if (records.length === 0) return [];
    const db = await conn.get();
    const tx = db.transaction([...EXCHANGE_STORES, 'sessions'], 'readwrite');
    return committed(tx, async () => {
      const sessions = tx.objectStore('sessions');
      // Every stored copy is read before anything is written: one round trip per batch
      // instead of two per record (a relay backlog batch holds thousands).
      const [stored, olds] = await Promise.all([sessions.get(session), storedCopies(tx, records)]);
      const plan = planMerge(session, stored, olds, records);
      const writes: Promise<unknown>[] = [storeCopies(tx, plan.written.map((copy) => ({ copy, fresh: false })))];
      if (plan.fresh.size > 0) writes.push(sessions.put(plan.session));
      await Promise.all(writes);
      return plan.written;
    });
  });
}

/** Writes many whole records in one transaction (an import), in chunks; all or none. A
 *  record whose id is stored replaces that copy. */
export function putExchanges(conn: Connection, recs: readonly StoredExchange[]): Promise<void> {
  return write('saving imported exchanges', async () => {
    if (recs.length === 0) return;
    const db = await conn.get();
    const tx = db.transaction(EXCHANGE_STORES, 'readwrite');
    await committed(tx, () => storeCopies(tx, recs.map((copy) => ({ copy, fresh: false }))));
  });
}

/**
 * Read-modify-write of one exchange in a single transaction. Resolves to the updated
 * record, or throws a `not-found` StorageError when the id is unknown.
 */
export function updateExchange(
  conn: Connection,
  id: string,
  change: (rec: StoredExchange) => StoredExchange | void,
): Promise<StoredExchange> {
  return write('updating an exchange', async () => {
    const db = await conn.get();
    const tx = db.transaction(EXCHANGE_STORES, 'readwrite');
    const chunks = new Chunks(tx);
    const place = await chunks.locate(id);
    if (!place) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new StorageError('not-found', `No exchange with id ${id} is stored (was the session cleared?).`);
    }
    const next = change(place.rec) ?? place.rec;
    await chunks.replace(place, next);
    await Promise.all([chunks.flush(), tx.done]);
    return next;
  });
}

export function setResponseHead(conn: Connection, id: string, head: ResponseHead, streaming: boolean): Promise<StoredExchange> {
  return updateExchange(conn, id, (rec) => {
    rec.response = { ...head, ...(streaming ? { events: [] } : {}) };
    rec.state = 'streaming';
  });
}

/** Appends events (in arrival order) to an event-stream response. */
export function appendEvents(conn: Connection, id: string, events: readonly SseEventRecord[]): Promise<StoredExchange> {
  return updateExchange(conn, id, (rec) => {
    if (!rec.response) throw new StorageError('unknown', `Exchange ${id} has events but no response head.`);
    (rec.response.events ??= []).push(...events);
  });
}

export function endExchange(conn: Connection, id: string, end: ExchangeEnd): Promise<StoredExchange> {
  return updateExchange(conn, id, (rec) => {
    rec.state = end.state;
    rec.endedAt = end.endedAt;
    if (end.error !== undefined) rec.error = end.error;
    if (rec.response) {
      if (end.body !== undefined) rec.response.body = end.body;
      if (end.tail !== undefined && end.tail !== '') rec.response.tail = end.tail;
    }
  });
}

/** Deletes every exchange of a session and restarts its numbering. */
export function clearExchanges(conn: Connection, session: string): Promise<void> {
  return write('clearing a session', async () => {
    const db = await conn.get();
    const tx = db.transaction([...EXCHANGE_STORES, 'sessions'], 'readwrite');
    const range = IDBKeyRange.bound([session, -Infinity], [session, Infinity]);
    const nos = await tx.objectStore('chunkIds').index('by-session').getAllKeys(session);
    const deletes = nos.flatMap((no) => [tx.objectStore('chunks').delete(no), tx.objectStore('chunkIds').delete(no)]);
    let cursor = await tx.objectStore('exchanges').index('by-session-time').openCursor(range);
    while (cursor) {
      await cursor.delete();
      cursor = await cursor.continue();
    }
    await Promise.all(deletes);
    const s = await tx.objectStore('sessions').get(session);
    if (s) await tx.objectStore('sessions').put({ ...s, nextSeq: 0 });
    await tx.done;
  });
}
