// Relay records are shown first and written next. Each batch taken is numbered into the
// capture session in one small transaction (storage/reserve.ts), handed to the owner to be
// laid into its session (whole: there are no bodies in storage to read back yet), and
// written afterwards, a chunk per transaction, once the owner has analysed what it was
// handed (`quiet`): a 20k backlog is listed in the time its analysis takes, not its
// storage's. Whatever is written is reported as stored (the owner may then keep it lean,
// the other tabs are told); a write storage refuses is reported with its copies (the page
// holds them). Nothing is lost meanwhile: the relay keeps a drained record until the page
// acknowledges it, and the feed acknowledges only what `taken(...).written` said committed.
//
// Race, written down: takes are numbered one at a time, in the order they come, and a copy
// of an id laid but not yet written is compared in memory (`supersedes`) and keeps its
// number, so the same id is never numbered twice by this worker. Another writer (a second
// tab draining the same backlog) may number it too: the first write wins, and the loser's
// copy is merged into what won (keeping that number) and reported as collided, so its
// owner reloads the session from storage. Later copies of a collided id are merged too.
import type { ExchangeRecord } from '../protocol.js';
import { StorageError, supersedes, type CaptureStore, type ReservedCopy, type StorageErrorInfo, type StoredExchange } from '../storage/index.js';

export interface WriteBehindDeps {
  store: Pick<CaptureStore, 'currentSession' | 'reserveExchanges' | 'writeReserved' | 'mergeExchanges'>;
  /** Numbered copies, not yet written: lay them in, whole. */
  laid(records: StoredExchange[]): void;
  /** Copies now committed (the objects `laid` had, or the stored copies after a collision). */
  stored(records: StoredExchange[]): void;
  /** Storage refused these copies (quota…); `session` is null when none could be read. */
  refused(records: readonly ExchangeRecord[], session: string | null, error: StorageErrorInfo): void;
  /** Another writer stored some of these first: what was laid for them has other numbers. */
  collided(session: string, ids: string[]): void;
  /** Resolves once what was laid is analysed (writes wait for it: the list comes first). */
  quiet?(): Promise<void>;
}

/** Copies written per transaction: small enough that a read of the page's waits little. */
const WRITE_CHUNK = 200;

function errorInfo(err: unknown): StorageErrorInfo {
  return err instanceof StorageError ? err.toInfo() : { kind: 'unknown', message: err instanceof Error ? err.message : String(err) };
}

/** One batch taken: laid once numbered, written later. */
export interface Taken {
  /** Resolves once the batch is laid (or refused). */
  laid: Promise<void>;
  /** Resolves true once every copy of the batch is committed; false when any was refused. */
  written: Promise<boolean>;
}

interface Outcome {
  ok: boolean;
  resolve: (ok: boolean) => void;
  promise: Promise<boolean>;
}

function outcome(): Outcome {
  let resolve: (ok: boolean) => void = () => undefined;
  const promise = new Promise<boolean>((r) => { resolve = r; });
  return { ok: true, resolve, promise };
}

export class WriteBehind {
  readonly #deps: WriteBehindDeps;
  /** Laid and not yet committed: the newest copy per id, with whether it was numbered new. */
  readonly #unwritten = new Map<string, ReservedCopy>();
  /** To write next, per id (the newest copy), with the outcome each belongs to. */
  #queue = new Map<string, ReservedCopy>();
  #next: Outcome | null = null;
  /** Ids another writer stored first: their later copies are merged, never put. */
  readonly #foreign = new Set<string>();
  #chain: Promise<unknown> = Promise.resolve();
  #writing: Promise<void> | null = null;
  #stopped = false;
  #holds = 0;
  /** Takes not laid yet: a chunk waits for them (a live exchange is not queued behind a backlog). */
  #waiting = 0;
  #release: (() => void) | null = null;

  constructor(deps: WriteBehindDeps) {
    this.#deps = deps;
  }

  /** Takes a batch: numbered after every batch taken before it, then laid, then written. */
  take(records: readonly ExchangeRecord[]): Taken {
    let written: Promise<boolean> = Promise.resolve(true);
    this.#waiting += 1;
    const laid = this.#chain.then(async () => {
      written = (await this.#takeNow(records)).written;
    }).finally(() => {
      this.#waiting -= 1;
    });
    this.#chain = laid.catch(() => undefined);
    return { laid, written: laid.then(() => written, () => false) };
  }

  /** Resolves once nothing is being numbered or written. */
  async idle(): Promise<void> {
    for (;;) {
      await this.#chain;
      if (!this.#writing) return;
      await this.#writing;
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#release?.();
    this.#queue.clear();
    this.#next?.resolve(false);
    this.#next = null;
  }

  // Resolves once laid, to the promise of the batch's writes (wrapped: a promise would flatten).
  async #takeNow(records: readonly ExchangeRecord[]): Promise<{ written: Promise<boolean> }> {
    if (this.#stopped || records.length === 0) return { written: Promise.resolve(!this.#stopped) };
    // Stable by start time: new ids are numbered in the order their clients sent them.
    const sorted = [...records].sort((a, b) => a.startedAt - b.startedAt);
    const known: ReservedCopy[] = [];
    const rest: ExchangeRecord[] = [];
    for (const r of sorted) {
      const have = this.#unwritten.get(r.id);
      if (!have) {
        rest.push(r);
      } else if (supersedes(r, have.copy)) {
        const next: ReservedCopy = { copy: { ...r, v: have.copy.v, seq: have.copy.seq, session: have.copy.session }, fresh: have.fresh };
        this.#unwritten.set(r.id, next);
        known.push(next);
      }
    }
    let session: string | null = null;
    let reserved: ReservedCopy[] = [];
    let refused = false;
    if (rest.length > 0) {
      try {
        // The session the service worker records into, re-read per batch so a switch of
        // session (settings) is followed as the service worker follows it.
        session = (await this.#deps.store.currentSession()).id;
        const r = await this.#deps.store.reserveExchanges(session, rest);
        reserved = r.copies.map((copy) => ({ copy, fresh: r.fresh.has(copy.id) }));
      } catch (err) {
        refused = true;
        this.#deps.refused(rest, session, errorInfo(err));
      }
    }
    // Copies of one id in the same reservation: only the newest is laid and written.
    for (const item of reserved) {
      const had = this.#unwritten.get(item.copy.id);
      if (had?.fresh) item.fresh = true;
      this.#unwritten.set(item.copy.id, item);
    }
    const items = [...known, ...reserved].filter((i) => this.#unwritten.get(i.copy.id) === i);
    if (items.length === 0) return { written: Promise.resolve(!refused) };
    this.#deps.laid(items.map((i) => i.copy));
    for (const i of items) this.#queue.set(i.copy.id, i);
    const out = (this.#next ??= outcome());
    this.#kick();
    return { written: refused ? out.promise.then(() => false) : out.promise };
  }

  /** Holds writes back until the returned function is called (a drain being read: its
   *  records are listed first, written after). Holds nest. */
  hold(): () => void {
    this.#holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
      if (this.#holds === 0) this.#release?.();
    };
  }

  #kick(): void {
    this.#writing ??= this.#write().finally(() => {
      this.#writing = null;
      if (this.#queue.size > 0 && !this.#stopped) this.#kick();
    });
  }

  // Everything queued, in chunks, one transaction at a time, after the owner caught up.
  async #write(): Promise<void> {
    while (this.#queue.size > 0 && !this.#stopped) {
      if (this.#holds > 0) await new Promise<void>((r) => { this.#release = r; });
      this.#release = null;
      await this.#deps.quiet?.();
      const items = [...this.#queue.values()];
      const out = this.#next!;
      this.#queue = new Map();
      this.#next = null;
      for (let i = 0; i < items.length && !this.#stopped; i += WRITE_CHUNK) {
        // A take numbers in a transaction of its own, which would queue behind the chunks,
        // and what it laid is analysed first: a live exchange never waits for a backlog.
        while (this.#waiting > 0) await this.#chain;
        if (i > 0) await this.#deps.quiet?.();
        out.ok = (await this.#writeChunk(items.slice(i, i + WRITE_CHUNK))) && out.ok;
      }
      out.resolve(out.ok && !this.#stopped);
    }
  }

  async #writeChunk(chunk: ReservedCopy[]): Promise<boolean> {
    // A fresh copy whose earlier copy was written meanwhile is a known id now.
    const items = chunk.map((i) => (this.#foreign.has(i.copy.id) ? null : i)).filter((i): i is ReservedCopy => i !== null);
    const foreign = chunk.filter((i) => this.#foreign.has(i.copy.id));
    try {
      const collided = new Set(await this.#deps.store.writeReserved(items));
      const mine = items.filter((i) => !collided.has(i.copy.id));
      for (const i of mine) {
        if (this.#unwritten.get(i.copy.id) === i) this.#unwritten.delete(i.copy.id);
        // Written once: a later copy of the id replaces it (`put`), it is not new any more.
        else { const later = this.#unwritten.get(i.copy.id); if (later) later.fresh = false; }
      }
      if (mine.length) this.#deps.stored(mine.map((i) => i.copy));
      const lost = [...foreign, ...items.filter((i) => collided.has(i.copy.id))];
      if (lost.length) await this.#mergeLost(lost);
      return true;
    } catch (err) {
      const error = errorInfo(err);
      const bySession = new Map<string, StoredExchange[]>();
      for (const i of chunk) {
        // Not written: the next copy of the id is numbered again by storage.
        if (this.#unwritten.get(i.copy.id) === i) this.#unwritten.delete(i.copy.id);
        const list = bySession.get(i.copy.session) ?? [];
        list.push(i.copy);
        bySession.set(i.copy.session, list);
      }
      for (const [session, list] of bySession) this.#deps.refused(list, session, error);
      return false;
    }
  }

  // Copies of ids another writer stored first: merged into what it stored, then the owner
  // reloads the session (the numbers it laid them under are not storage's).
  async #mergeLost(lost: ReservedCopy[]): Promise<void> {
    const bySession = new Map<string, ReservedCopy[]>();
    for (const i of lost) {
      this.#foreign.add(i.copy.id);
      if (this.#unwritten.get(i.copy.id) === i) this.#unwritten.delete(i.copy.id);
      const list = bySession.get(i.copy.session) ?? [];
      list.push(i);
      bySession.set(i.copy.session, list);
    }
    for (const [session, list] of bySession) {
      const written = await this.#deps.store.mergeExchanges(session, list.map((i) => i.copy));
      if (written.length) this.#deps.stored(written);
      this.#deps.collided(session, list.map((i) => i.copy.id));
    }
  }
}
