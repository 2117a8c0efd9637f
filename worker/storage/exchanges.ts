// Exchange records: progressive writes from the tap, paged reads for the worker and page.
// Every write is its own short transaction, so a killed service worker leaves each
// exchange at its last completed step, never half-written.
import type { ExchangeRecord, ExchangeState, SseEventRecord } from '../protocol.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import type { Connection } from './connection.js';
import { StorageError, toStorageError } from './errors.js';
import type { StoredExchange } from './schema.js';
import { isFinal, planMerge } from './merge-plan.js';

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

/** Where to resume paging: the last item of the previous page. */
export interface PageCursor {
  startedAt: number;
  id: string;
}

export interface ExchangePage {
  items: StoredExchange[];
  /** Pass back as `after` to get the next page; null when this was the last. */
  next: PageCursor | null;
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
    const tx = db.transaction(['exchanges', 'sessions'], 'readwrite');
    tx.done.catch(() => undefined);
    const exchanges = tx.objectStore('exchanges');
    const old = await exchanges.get(rec.id);
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
    await exchanges.put(stored);
    await tx.done;
    return stored;
  });
}

/** Writes a whole record as given (imports, relay records, tests). */
export function putExchange(conn: Connection, rec: StoredExchange): Promise<void> {
  return write('saving an exchange', async () => {
    const db = await conn.get();
    await db.put('exchanges', rec);
  });
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
    const tx = db.transaction(['exchanges', 'sessions'], 'readwrite');
    // A failed request below aborts the transaction; its `done` is awaited only on the
    // happy path, so keep that rejection from surfacing as unhandled.
    tx.done.catch(() => undefined);
    const exchanges = tx.objectStore('exchanges');
    const sessions = tx.objectStore('sessions');
    // Every read is issued at once and every write without waiting for the one before: one
    // round trip to the database per batch instead of two per record (a relay backlog
    // batch holds thousands). Requests in one transaction still run in the order issued.
    const [stored, olds] = await Promise.all([sessions.get(session), storedCopies(exchanges, records)]);
    const plan = planMerge(session, stored, olds, records);
    const puts: Promise<unknown>[] = plan.written.map((r) => exchanges.put(r));
    if (plan.fresh.size > 0) puts.push(sessions.put(plan.session));
    await Promise.all([...puts, tx.done]);
    return plan.written;
  });
}

/** Up to this many stored exchanges, a merge lists the store's keys instead of asking per id. */
export const MERGE_KEY_LIST_LIMIT = 50_000;

// The stored copy of each record's id (undefined for a new id). A backlog drained into a
// fresh session is nearly all new ids: asking for each cost a request per record (a third
// of a 2,600-record batch's merge in Chromium), so while the store is small its keys are
// listed in one request and only the ids it holds are read.
export async function storedCopies(
  exchanges: { count(): Promise<number>; getAllKeys(): Promise<IDBValidKey[]>; get(id: string): Promise<StoredExchange | undefined> },
  records: readonly ExchangeRecord[],
): Promise<(StoredExchange | undefined)[]> {
  const ask = (keep: (id: string) => boolean) =>
    Promise.all(records.map((r) => (keep(r.id) ? exchanges.get(r.id) : undefined)));
  if (records.length < 64 || (await exchanges.count()) > MERGE_KEY_LIST_LIMIT) return ask(() => true);
  const keys = new Set(await exchanges.getAllKeys());
  return ask((id) => keys.has(id));
}

/** Writes many whole records in one transaction (an import); all or none. */
export function putExchanges(conn: Connection, recs: readonly StoredExchange[]): Promise<void> {
  return write('saving imported exchanges', async () => {
    const db = await conn.get();
    const tx = db.transaction('exchanges', 'readwrite');
    // A failed put aborts the transaction; tx.done carries the error.
    for (const r of recs) tx.store.put(r).catch(() => undefined);
    await tx.done;
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
    const tx = db.transaction('exchanges', 'readwrite');
    const rec = await tx.store.get(id);
    if (!rec) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new StorageError('not-found', `No exchange with id ${id} is stored (was the session cleared?).`);
    }
    const next = change(rec) ?? rec;
    await Promise.all([tx.store.put(next), tx.done]);
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

export async function getExchange(conn: Connection, id: string): Promise<StoredExchange | undefined> {
  try {
    return await (await conn.get()).get('exchanges', id);
  } catch (err) {
    throw toStorageError(err, 'reading an exchange');
  }
}

/** Exchanges by id, in the order asked (undefined where there is none), in one transaction. */
export async function getExchanges(conn: Connection, ids: readonly string[]): Promise<(StoredExchange | undefined)[]> {
  try {
    const tx = (await conn.get()).transaction('exchanges');
    const got = await Promise.all(ids.map((id) => tx.store.get(id)));
    await tx.done;
    return got;
  } catch (err) {
    throw toStorageError(err, 'reading exchanges');
  }
}

/** One page of a session's exchanges in start-time order (ties broken by id). */
export async function pageExchanges(
  conn: Connection,
  session: string,
  opts: { after?: PageCursor | null; limit?: number } = {},
): Promise<ExchangePage> {
  const limit = Math.max(1, opts.limit ?? 200);
  const after = opts.after ?? null;
  try {
    const db = await conn.get();
    const range = IDBKeyRange.bound([session, after ? after.startedAt : -Infinity], [session, Infinity]);
    const items: StoredExchange[] = [];
    let cursor = await db.transaction('exchanges').store.index('by-session-time').openCursor(range);
    // Equal start times sort by primary key inside the index; skip what the last page had.
    while (cursor && after && cursor.value.startedAt === after.startedAt && cursor.primaryKey <= after.id) {
      cursor = await cursor.continue();
    }
    while (cursor && items.length < limit) {
      items.push(cursor.value);
      cursor = await cursor.continue();
    }
    const last = items[items.length - 1];
    return { items, next: cursor && last ? { startedAt: last.startedAt, id: last.id } : null };
  } catch (err) {
    throw toStorageError(err, 'reading a page of exchanges');
  }
}

export async function countExchanges(conn: Connection, session: string): Promise<number> {
  try {
    const db = await conn.get();
    return await db.countFromIndex('exchanges', 'by-session-time', IDBKeyRange.bound([session, -Infinity], [session, Infinity]));
  } catch (err) {
    throw toStorageError(err, 'counting exchanges');
  }
}

/** Deletes every exchange of a session and restarts its numbering. */
export function clearExchanges(conn: Connection, session: string): Promise<void> {
  return write('clearing a session', async () => {
    const db = await conn.get();
    const tx = db.transaction(['exchanges', 'sessions'], 'readwrite');
    const range = IDBKeyRange.bound([session, -Infinity], [session, Infinity]);
    let cursor = await tx.objectStore('exchanges').index('by-session-time').openCursor(range);
    while (cursor) {
      await cursor.delete();
      cursor = await cursor.continue();
    }
    const s = await tx.objectStore('sessions').get(session);
    if (s) await tx.objectStore('sessions').put({ ...s, nextSeq: 0 });
    await tx.done;
  });
}
