// Relay records are shown first and written next. Each batch taken is numbered into the
// capture session from numbers reserved ahead (capture/seq-blocks.ts), handed to the owner to
// be laid into its session (whole: there are no bodies in storage to read back yet), and
// written afterwards, a chunk per transaction. A backlog batch waits while its run of drains
// is read (`hold`, released at the end of the run or at its memory bound: capture/
// backlog-drains.ts) and the owner has listed what it was handed (`quiet`: built, not
// necessarily checked, so the writes run beside the trailing checks): a 20k backlog is
// listed in the time its analysis takes, not its storage's. A pushed record is written at once,
// held by nothing: the relay keeps no copy of it, so it must not wait in memory. Whatever
// is written is reported as stored (the owner may then keep it lean, the other tabs are
// told); a write storage refuses is reported with its copies (the page holds them). Nothing
// is lost meanwhile: the relay keeps a drained record until the page acknowledges it, and
// the feed acknowledges only what `take(…).written` said committed.
//
// Two lanes: a backlog batch looks its ids up in storage (a read, which queues behind the
// chunk being written); a pushed (live) batch never touches storage before it is laid: its
// ids are looked up in memory (the copies laid and not yet written, then the session the
// owner holds, `known`), so it is listed while a backlog is being stored. The session
// captures go to is read once and kept, as the service worker keeps it, until a
// `capture-session` notice says it changed (`sessionChanged`): read per batch, it cost a
// live record 3–37 ms while a backlog was written (the read waits for IndexedDB's thread,
// busy committing the backlog's chunks).
//
// Race, written down: takes of one lane are numbered one at a time, in the order they come;
// a take holding an id that a take of the other lane is numbering waits for that one; and a
// copy of an id laid but not yet written is compared in memory (`supersedes`) and keeps its
// number, so the same id is never numbered twice by this worker. Another writer (a second
// tab draining the same backlog; a push has one writer, capture/push-writer.ts) may number it too: the first
// write wins, and the loser's copy is merged into what won (keeping that number) and
// reported as collided, so its owner reloads the session from storage. Later copies of a
// collided id are merged too.
import type { ExchangeRecord } from '../protocol.js';
import { storageErrorInfo, supersedes, type CaptureStore, type ReservedCopy, type StorageErrorInfo, type StoredExchange } from '../storage/index.js';
import { newIdCount, planCopies } from '../storage/merge-plan.js';
import { IdClaims } from './id-claims.js';
import { SeqBlocks } from './seq-blocks.js';
import { bySession, outcome, type Outcome, type Taken } from './take-outcome.js';

export type { Taken } from './take-outcome.js';

export interface WriteBehindDeps {
  store: Pick<CaptureStore, 'currentSession' | 'reserveSeqs' | 'lookupExchanges' | 'writeReserved' | 'mergeExchanges'>;
  /** The copies of `session` the owner holds, when it holds that session (else null: storage
   *  is asked). A live take looks its ids up here instead of in storage. */
  known?(session: string): ((id: string) => StoredExchange | undefined) | null;
  /** Numbered copies, not yet written: lay them in, whole. */
  laid(records: StoredExchange[]): void;
  /** Copies now committed (the objects `laid` had, or the stored copies after a collision). */
  stored(records: StoredExchange[]): void;
  /** Storage refused these copies (quota…); `session` is null when none could be read. */
  refused(records: readonly ExchangeRecord[], session: string | null, error: StorageErrorInfo): void;
  /** Another writer stored some of these first: what was laid for them has other numbers. */
  collided(session: string, ids: string[]): void;
  /** Resolves once what was laid is listed, not necessarily checked (writes wait for it: the list comes first). */
  quiet?(): Promise<void>;
}

/** Copies written per transaction: a backlog batch's lookup waits for at most one chunk in flight, and
 *  larger ones were measured to make it wait longer without storing a backlog faster. */
const WRITE_CHUNK = 200;

/** A copy waiting to be written, with the takes waiting for it (a later copy of the same id
 *  replaces an earlier one still queued, and answers for both). */
interface Queued {
  item: ReservedCopy;
  outs: Outcome[];
  /** From a backlog drain: waits for `hold` and `quiet`. */
  backlog: boolean;
}

export class WriteBehind {
  readonly #deps: WriteBehindDeps;
  /** Laid and not yet committed: the newest copy per id, with whether it was numbered new. */
  readonly #unwritten = new Map<string, ReservedCopy>();
  /** To write next, per id (the newest copy), with the takes waiting for it. */
  readonly #queue = new Map<string, Queued>();
  /** The ids in `#queue` that are not held back as backlog (written first, whenever they come):
   *  kept apart so picking them is not a walk over a backlog of 100k queued copies. */
  readonly #pushed = new Set<string>();
  /** Ids another writer stored first: their later copies are merged, never put. */
  readonly #foreign = new Set<string>();
  /** The lanes: backlog takes, and pushed (live) takes, each numbered one at a time. */
  #chain: Promise<unknown> = Promise.resolve();
  #liveChain: Promise<unknown> = Promise.resolve();
  /** Ids being numbered, with the take numbering them (the other lane waits for it). */
  readonly #numbering = new IdClaims();
  readonly #seqs: SeqBlocks;
  #writing: Promise<void> | null = null;
  /** The session captures go to, once read (dropped when told it changed, or when the read failed). */
  #session: Promise<string> | null = null;
  #stopped = false;
  #holds = 0;
  /** Takes not laid yet: a chunk waits for them (a read of storage would queue behind it). */
  #waiting = 0;
  #release: (() => void) | null = null;

  constructor(deps: WriteBehindDeps) {
    this.#deps = deps;
    this.#seqs = new SeqBlocks(deps.store);
  }

  /**
   * Takes a batch: numbered after every batch of its lane taken before it, then laid, then
   * written. `backlog`: from a drain (its writes wait for `hold` and `quiet`); else written at once.
   */
  take(records: readonly ExchangeRecord[], opts: { backlog?: boolean } = {}): Taken {
    const backlog = opts.backlog ?? false;
    let written: Promise<boolean> = Promise.resolve(true);
    this.#waiting += 1;
    const laid = (backlog ? this.#chain : this.#liveChain).then(async () => {
      written = (await this.#takeNow(records, backlog)).written;
    }).finally(() => {
      this.#waiting -= 1;
    });
    if (backlog) this.#chain = laid.catch(() => undefined);
    else this.#liveChain = laid.catch(() => undefined);
    return { laid, written: laid.then(() => written, () => false) };
  }

  /** Resolves once nothing is being numbered or written. */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all([this.#chain, this.#liveChain]);
      if (!this.#writing) return;
      await this.#writing;
    }
  }

  /** The session was cleared (its numbering restarted): numbers held for it are dropped. */
  forgetNumbers(session: string): void {
    this.#seqs.forget(session);
  }

  /** Captures go to another session from now on (Clear with preserve log): it is read again. */
  sessionChanged(): void {
    this.#session = null;
  }

  #currentSession(): Promise<string> {
    if (this.#session) return this.#session;
    const read = this.#deps.store.currentSession().then((s) => s.id);
    this.#session = read;
    read.catch(() => {
      if (this.#session === read) this.#session = null; // tried again by the next batch
    });
    return read;
  }

  stop(): void {
    this.#stopped = true;
    this.#release?.();
    for (const q of this.#queue.values()) this.#settle(q, false);
    this.#queue.clear();
    this.#pushed.clear();
  }

  // Resolves once laid, to the promise of the batch's writes (wrapped: a promise would flatten).
  async #takeNow(records: readonly ExchangeRecord[], backlog: boolean): Promise<{ written: Promise<boolean> }> {
    if (this.#stopped || records.length === 0) return { written: Promise.resolve(!this.#stopped) };
    let done: () => void = () => undefined;
    const mine = new Promise<void>((r) => { done = r; });
    const ids = records.map((r) => r.id);
    try {
      await this.#numbering.claim(ids, mine);
      return await this.#number(records, backlog);
    } finally {
      this.#numbering.release(ids, mine);
      done();
    }
  }

  async #number(records: readonly ExchangeRecord[], backlog: boolean): Promise<{ written: Promise<boolean> }> {
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
        // The session the service worker records into (kept until told it changed, as the
        // service worker keeps it).
        session = await this.#currentSession();
        const held = backlog ? null : this.#deps.known?.(session) ?? null;
        const olds = held ? rest.map((r) => held(r.id)) : await this.#deps.store.lookupExchanges(rest);
        const numbers = await this.#seqs.take(session, newIdCount(olds, rest));
        let n = 0;
        const plan = planCopies(session, olds, rest, () => numbers[n++]!);
        reserved = plan.written.map((copy) => ({ copy, fresh: plan.fresh.has(copy.id) }));
      } catch (err) {
        refused = true;
        this.#deps.refused(rest, session, storageErrorInfo(err));
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
    const out = outcome(items.length);
    for (const item of items) {
      const had = this.#queue.get(item.copy.id);
      const q: Queued = { item, outs: had ? [...had.outs, out] : [out], backlog: backlog && (had?.backlog ?? true) };
      this.#queue.set(item.copy.id, q);
      if (!q.backlog) this.#pushed.add(item.copy.id);
    }
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

  // Everything queued, a chunk per transaction, one at a time: pushed copies first and
  // whenever they come; backlog copies once no drain holds them and the owner caught up.
  async #write(): Promise<void> {
    while (this.#queue.size > 0 && !this.#stopped) {
      // A take numbers in a transaction of its own, which would queue behind the chunks.
      while (this.#waiting > 0) await Promise.all([this.#chain, this.#liveChain]);
      let chunk = this.#chunk(false);
      if (chunk.length === 0) {
        if (this.#holds > 0) await new Promise<void>((r) => { this.#release = r; });
        this.#release = null;
        await this.#deps.quiet?.();
        // What was laid meanwhile is analysed first: a live exchange never waits for a backlog.
        chunk = this.#chunk(true);
        if (chunk.length === 0) continue;
      }
      await this.#writeChunk(chunk);
    }
  }

  // The next chunk to write, taken out of the queue: pushed copies only, or any.
  #chunk(backlogToo: boolean): Queued[] {
    const out: Queued[] = [];
    if (backlogToo) {
      for (const q of this.#queue.values()) {
        out.push(q);
        if (out.length === WRITE_CHUNK) break;
      }
    } else {
      for (const id of this.#pushed) {
        out.push(this.#queue.get(id)!);
        if (out.length === WRITE_CHUNK) break;
      }
    }
    for (const q of out) {
      this.#queue.delete(q.item.copy.id);
      this.#pushed.delete(q.item.copy.id);
    }
    return out;
  }

  #settle(q: Queued, ok: boolean): void {
    for (const out of q.outs) {
      out.ok &&= ok && !this.#stopped;
      out.left -= 1;
      if (out.left === 0) out.resolve(out.ok);
    }
  }

  async #writeChunk(queued: Queued[]): Promise<void> {
    const chunk = queued.map((q) => q.item);
    // Copies of an id another writer stored first are merged, never put (see #mergeLost).
    const items = chunk.filter((i) => !this.#foreign.has(i.copy.id));
    const foreign = chunk.filter((i) => this.#foreign.has(i.copy.id));
    let ok = true;
    try {
      const collided = new Set(await this.#deps.store.writeReserved(items));
      const mine = items.filter((i) => !collided.has(i.copy.id));
      for (const i of mine) {
        // Written once: a later copy of the id replaces it (`put`), it is not new any more.
        if (!this.#forget(i)) { const later = this.#unwritten.get(i.copy.id); if (later) later.fresh = false; }
      }
      if (mine.length) this.#deps.stored(mine.map((i) => i.copy));
      const lost = [...foreign, ...items.filter((i) => collided.has(i.copy.id))];
      if (lost.length) await this.#mergeLost(lost);
    } catch (err) {
      ok = false;
      const error = storageErrorInfo(err);
      // Not written: the next copy of each id is numbered again by storage.
      for (const i of chunk) this.#forget(i);
      for (const [session, list] of bySession(chunk)) this.#deps.refused(list.map((i) => i.copy), session, error);
    }
    for (const q of queued) this.#settle(q, ok);
  }

  // Copies of ids another writer stored first: merged into what it stored, then the owner
  // reloads the session (the numbers it laid them under are not storage's).
  async #mergeLost(lost: ReservedCopy[]): Promise<void> {
    for (const i of lost) {
      this.#foreign.add(i.copy.id);
      this.#forget(i);
    }
    for (const [session, list] of bySession(lost)) {
      const written = await this.#deps.store.mergeExchanges(session, list.map((i) => i.copy));
      if (written.length) this.#deps.stored(written);
      this.#deps.collided(session, list.map((i) => i.copy.id));
    }
  }

  // Drops `i` from the unwritten copies if it is still the newest of its id; true if it was.
  #forget(i: ReservedCopy): boolean {
    if (this.#unwritten.get(i.copy.id) !== i) return false;
    this.#unwritten.delete(i.copy.id);
    return true;
  }
}
