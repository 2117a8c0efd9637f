// Chunked storage: up to CHUNK_RECORDS exchanges of one session in one IndexedDB value
// (`chunks`), found by id through a directory of each chunk's ids (`chunkIds`, whose unique
// multi-entry index is the id → chunk index). In Chromium a request costs ~80–150 µs on disk
// whatever its size, so a backlog stored a value per record spent its time on requests; a
// chunk costs two. The per-exchange store (`exchanges`) stays for the tap's progressive
// writes and for everything a version 1 database holds. An id lives in one place only:
// every write below looks in both before it adds.
//
// All of it runs inside a caller's transaction over EXCHANGE_STORES, so a write is still
// all or nothing, and two writers (two tabs) are serialised by the database.
import { unwrap, type IDBPTransaction, type StoreNames } from 'idb';
import type { ChunkRecord, MrtrSchema, StoredExchange } from './schema.js';

/** Records per chunk: a micro-bench measured 9–18 µs a record at 200, against 126–669 one per value. */
export const CHUNK_RECORDS = 200;

/** Fewer new records than this in one write are stored a value each (a live push, a Console
 *  send): a chunk of one costs as much, and each later step of it would rewrite the chunk. */
export const CHUNK_MIN = 8;

/** Up to this many single-record values, a write lists their keys instead of asking per id. */
export const KEY_LIST_LIMIT = 50_000;

/** The stores a read or write of exchanges spans. */
export const EXCHANGE_STORES: StoreNames<MrtrSchema>[] = ['exchanges', 'chunks', 'chunkIds'];

export type ExchangeTx<M extends IDBTransactionMode = IDBTransactionMode> = IDBPTransaction<MrtrSchema, StoreNames<MrtrSchema>[], M>;

/** Where a stored exchange lies. */
export type Place =
  | { kind: 'single'; rec: StoredExchange }
  | { kind: 'chunk'; no: number; chunk: ChunkRecord; at: number; rec: StoredExchange };

/** Chunks read in one transaction, each read once (several ids of a chunk share it, and
 *  changes to it add up until `flush` writes each changed chunk once). */
export class Chunks<M extends IDBTransactionMode> {
  readonly #got = new Map<number, Promise<ChunkRecord | undefined>>();
  readonly #changed = new Map<number, ChunkRecord>();
  constructor(readonly tx: ExchangeTx<M>) {}

  read(no: number): Promise<ChunkRecord | undefined> {
    let got = this.#got.get(no);
    if (!got) {
      got = this.tx.objectStore('chunks').get(no);
      this.#got.set(no, got);
    }
    return got;
  }

  /** Where `id` is stored, if anywhere. */
  async locate(id: string): Promise<Place | undefined> {
    const [single, no] = await Promise.all([
      this.tx.objectStore('exchanges').get(id),
      this.tx.objectStore('chunkIds').index('by-id').getKey(id),
    ]);
    if (single) return { kind: 'single', rec: single };
    if (no === undefined) return undefined;
    const chunk = await this.read(no);
    const at = chunk ? chunk.records.findIndex((r) => r.id === id) : -1;
    if (!chunk || at < 0) return undefined;
    return { kind: 'chunk', no, chunk, at, rec: chunk.records[at]! };
  }

  /** Replaces the copy at `place` (written by `flush` for a chunk, at once for a single). */
  replace(this: Chunks<'readwrite'>, place: Place, rec: StoredExchange): Promise<unknown> {
    if (place.kind === 'single') return this.tx.objectStore('exchanges').put(rec);
    place.chunk.records[place.at] = rec;
    this.#changed.set(place.no, place.chunk);
    return Promise.resolve();
  }

  flush(this: Chunks<'readwrite'>): Promise<unknown> {
    const puts = [...this.#changed].map(([no, chunk]) => this.tx.objectStore('chunks').put(chunk, no));
    this.#changed.clear();
    return Promise.all(puts);
  }
}

/** A copy to write, and whether its id must be new (`add`: a stored copy is not replaced). */
export interface CopyToStore {
  copy: StoredExchange;
  fresh: boolean;
}

// The ids of `ids` stored a value each: listed in one request while that store is small.
async function singleIds(tx: ExchangeTx, ids: readonly string[]): Promise<Set<string>> {
  const store = tx.objectStore('exchanges');
  if (ids.length >= 64 && (await store.count()) <= KEY_LIST_LIMIT) {
    const keys = new Set(await store.getAllKeys());
    return new Set(ids.filter((id) => keys.has(id)));
  }
  const got = await Promise.all(ids.map((id) => store.getKey(id)));
  return new Set(ids.filter((_, i) => got[i] !== undefined));
}

// Adds a chunk's directory entry; null when one of its ids is already in another chunk
// (the unique index refuses it; the refusal is caught on its request, so the transaction
// goes on).
function addDirectory(tx: ExchangeTx<'readwrite'>, session: string, ids: string[]): Promise<number | null> {
  const req = unwrap(tx.objectStore('chunkIds')).add({ session, ids });
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result as number);
    req.onerror = (e) => {
      if (req.error?.name !== 'ConstraintError') return reject(req.error ?? new Error('IndexedDB add failed'));
      e.preventDefault();
      e.stopPropagation();
      resolve(null);
    };
  });
}

/**
 * Stores whole copies in the caller's transaction: a copy of an id already stored replaces
 * it where it lies, unless the copy is `fresh` (then it is not written, and its id is in
 * the answer: someone else stored it first); new ids go into chunks of CHUNK_RECORDS (a
 * value each when fewer than CHUNK_MIN). Later copies of an id in `items` win.
 */
export async function storeCopies(tx: ExchangeTx<'readwrite'>, items: readonly CopyToStore[]): Promise<string[]> {
  const newest = new Map<string, CopyToStore>();
  for (const i of items) newest.set(i.copy.id, i);
  const all = [...newest.values()];
  const chunks = new Chunks(tx);
  const collided: string[] = [];
  const writes: Promise<unknown>[] = [];
  const inSingles = await singleIds(tx, all.map((i) => i.copy.id));
  const rest: CopyToStore[] = [];
  for (const i of all) {
    if (!inSingles.has(i.copy.id)) rest.push(i);
    else if (i.fresh) collided.push(i.copy.id);
    else writes.push(tx.objectStore('exchanges').put(i.copy));
  }
  // Copies of ids held in a chunk replace them there; what is left is new.
  const placeInChunks = async (list: readonly CopyToStore[]): Promise<CopyToStore[]> => {
    const places = await Promise.all(list.map((i) => chunks.locate(i.copy.id)));
    const left: CopyToStore[] = [];
    list.forEach((i, n) => {
      const place = places[n];
      if (!place) left.push(i);
      else if (i.fresh) collided.push(i.copy.id);
      else writes.push(chunks.replace(place, i.copy));
    });
    return left;
  };
  if (rest.length < CHUNK_MIN) {
    for (const i of await placeInChunks(rest)) writes.push(tx.objectStore('exchanges').add(i.copy));
  } else {
    for (const group of groups(rest)) {
      const session = group[0]!.copy.session;
      let left = group;
      let no = await addDirectory(tx, session, left.map((i) => i.copy.id));
      if (no === null) {
        left = await placeInChunks(group);
        no = left.length > 0 ? await addDirectory(tx, session, left.map((i) => i.copy.id)) : null;
        if (no === null && left.length > 0) throw new Error('An exchange id is stored in two chunks.');
      }
      if (no !== null) writes.push(tx.objectStore('chunks').put({ session, records: left.map((i) => i.copy) }, no));
    }
  }
  writes.push(chunks.flush());
  await Promise.all(writes);
  return collided;
}

// Copies in runs of one session, at most CHUNK_RECORDS each, in the order given.
function groups(items: readonly CopyToStore[]): CopyToStore[][] {
  const bySession = new Map<string, CopyToStore[][]>();
  const out: CopyToStore[][] = [];
  for (const i of items) {
    const runs = bySession.get(i.copy.session) ?? [];
    if (runs.length === 0) bySession.set(i.copy.session, runs);
    const last = runs[runs.length - 1];
    if (last && last.length < CHUNK_RECORDS) last.push(i);
    else {
      const run = [i];
      runs.push(run);
      out.push(run);
    }
  }
  return out;
}

/** The keys of a session's chunks, in the order they were written. */
export function sessionChunks(tx: ExchangeTx, session: string): Promise<number[]> {
  return tx.objectStore('chunkIds').index('by-session').getAllKeys(session);
}

// The ids of `ids` held in a chunk: the directory is listed in one request while it is small.
async function chunkedIds(tx: ExchangeTx, ids: readonly string[]): Promise<Set<string>> {
  const dir = tx.objectStore('chunkIds');
  if ((await dir.count()) <= KEY_LIST_LIMIT / CHUNK_RECORDS) {
    const held = new Set<string>();
    for (const entry of await dir.getAll()) for (const id of entry.ids) held.add(id);
    return new Set(ids.filter((id) => held.has(id)));
  }
  const got = await Promise.all(ids.map((id) => dir.index('by-id').getKey(id)));
  return new Set(ids.filter((_, i) => got[i] !== undefined));
}

/**
 * The stored copy of each record's id (undefined for a new id), wherever it lies. A backlog
 * drained into a fresh session is nearly all new ids: asking for each cost a request per
 * record, so while the stores are small their keys are listed and only the ids held are read.
 */
export async function storedCopies(tx: ExchangeTx, records: readonly { id: string }[]): Promise<(StoredExchange | undefined)[]> {
  const chunks = new Chunks(tx);
  const read = (id: string) => chunks.locate(id).then((p) => p?.rec);
  const ids = records.map((r) => r.id);
  if (ids.length < 64) return Promise.all(ids.map(read));
  const [singles, chunked] = await Promise.all([singleIds(tx, ids), chunkedIds(tx, ids)]);
  return Promise.all(ids.map((id) => (singles.has(id) || chunked.has(id) ? read(id) : undefined)));
}

/**
 * Runs `work` in `tx` and waits for the commit; a failure of any request aborts the whole
 * transaction (a refused chunk must not leave its directory entry behind).
 */
export async function committed<T>(tx: ExchangeTx<'readwrite'>, work: () => Promise<T>): Promise<T> {
  tx.done.catch(() => undefined);
  try {
    const out = await work();
    await tx.done;
    return out;
  } catch (err) {
    try { tx.abort(); } catch { /* already finished */ }
    throw err;
  }
}
