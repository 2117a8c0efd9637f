// The engine's records by seq, each with its decoding and the stamp of its version, and the
// changes put since the last step. `apply` decodes what changed and sorts it by what
// threading can do with it: append it, file its new answer in place, or re-thread.
//
// Hazard: records carry no version number, so a version is told by its stamp (`stampOf`),
// which reads body sizes, not texts: a lean copy has the stamp of the record it was made
// from. A record object changed in place and put again has no old version left to compare
// with: it re-threads.
import type { DecodedExchange, ExchangeRecord } from '../protocol.js';
import { decodeExchange, releaseBodies } from '../decode/exchange.js';
import { bodySizesOf, leanCopy } from '../decode/lean-record.js';
import { threadSignature, usesLegacyLinking } from './thread-state.js';

/** One record as analysed: the copy held, its decoding, and its version's stamp. */
export interface Entry { record: ExchangeRecord; decoded: DecodedExchange; stamp: string }

/** What identifies one version of a record (records carry no version number). */
export function stampOf(r: ExchangeRecord): string {
  const q = r.response;
  // Sizes, not texts: a lean copy has the same stamp as the record it was made from.
  const n = bodySizesOf(r);
  // Joined, not written as one template: V8 keeps a concatenation as a tree of its pieces
  // (~400 bytes a record, kept as long as the record is analysed); a join is one flat
  // string of the same text (~100 bytes).
  return [r.id, r.state, r.startedAt, r.endedAt, n.request, q?.status, q?.receivedAt, n.response, n.events, n.tail].map(String).join('|');
}

/** What one `apply` changed, sorted by what threading must do with it. */
export interface EntryChanges {
  /** Entries at seqs that had none. */
  added: Entry[];
  /** Seqs whose version changed (new ones included). */
  touched: number[];
  /** Seqs whose entry was removed. */
  removed: number[];
  /** Entries threaded before whose rounds changed (an answer arrived): filed in place if they can be. */
  reanswers: { old: Entry; now: Entry }[];
  /** A change only a re-thread can take (a removal, a record changed in place). */
  rethread: boolean;
}

/** How the table keeps records: see EngineOptions (engine/engine-options.ts). */
export interface EntryTableOptions { lean?: boolean; releaseBodies?: boolean }

/** The records the engine analyses, by seq, and the changes put since the last `apply`. */
export class EntryTable {
  readonly #opts: EntryTableOptions;
  readonly #entries: (Entry | undefined)[] = [];
  readonly #pending = new Map<number, { record: ExchangeRecord; decoded?: DecodedExchange } | null>();
  /** `records()`, until the next change is applied. */
  #records: readonly ExchangeRecord[] | null = null;
  /** Entries held. */
  #count = 0;
  #legacy = false;

  constructor(opts: EntryTableOptions = {}) {
    this.#opts = opts;
  }

  /** Adds or replaces records (by seq). `decoded[i]`, when given, is `decodeExchange(records[i])`. */
  put(records: Iterable<ExchangeRecord>, decoded?: readonly DecodedExchange[]): void {
    let i = 0;
    for (const record of records) this.#pending.set(record.seq, { record, decoded: decoded?.[i++] });
  }

  /** Removes records by seq. */
  remove(seqs: Iterable<number>): void {
    for (const s of seqs) this.#pending.set(s, null);
  }

  /** Changes are put and not applied yet. */
  get pending(): boolean {
    return this.#pending.size > 0;
  }

  /** Some record ever applied takes part in legacy linking (which only a re-thread places). */
  get legacy(): boolean {
    return this.#legacy;
  }

  /** One past the highest seq ever held (seqs below it may have no entry). */
  get length(): number {
    return this.#entries.length;
  }

  /** How many entries are held. */
  get count(): number {
    return this.#count;
  }

  /** The records from the `offset`-th (by ascending seq) on, `limit` of them at most, walking
   *  from the nearer end instead of listing every record (the Console's newest 200, read
   *  after each change, found the list rebuilt at every stored chunk). */
  page(offset: number, limit: number): ExchangeRecord[] {
    const from = Math.max(0, offset);
    const end = Math.min(this.#count, from + Math.max(0, limit));
    if (from >= end) return [];
    if (this.#records) return this.#records.slice(from, end);
    const out: ExchangeRecord[] = [];
    if (from < this.#count - end) {
      for (let s = 0, i = 0; s < this.#entries.length && i < end; s++) {
        const e = this.#entries[s];
        if (e === undefined) continue;
        if (i >= from) out.push(e.record);
        i += 1;
      }
      return out;
    }
    for (let s = this.#entries.length - 1, i = this.#count - 1; s >= 0 && i >= from; s--) {
      const e = this.#entries[s];
      if (e === undefined) continue;
      if (i < end) out.push(e.record);
      i -= 1;
    }
    return out.reverse();
  }

  /** The entry at a seq, if any. */
  at(seq: number): Entry | undefined {
    return this.#entries[seq];
  }

  /** Every entry, by ascending seq. */
  all(): Entry[] {
    return this.#entries.filter((e): e is Entry => e !== undefined);
  }

  /** The seqs that hold an entry, ascending. */
  seqs(): number[] {
    const seqs: number[] = [];
    for (let s = 0; s < this.#entries.length; s++) if (this.#entries[s]) seqs.push(s);
    return seqs;
  }

  /** Every record, by ascending seq. */
  // Kept until a change is applied: builds that only check (a backlog checked in slices)
  // and the page's reads after each would otherwise walk every entry again (at 100k, 1.2 s
  // of a 12 s profile while a backlog was checked and stored).
  records(): readonly ExchangeRecord[] {
    if (this.#records) return this.#records;
    const out: ExchangeRecord[] = [];
    for (const e of this.#entries) if (e) out.push(e.record);
    return (this.#records = out);
  }

  /** The copy held (lean when `lean`) of this very version of a record, once applied;
   *  undefined while that version is only put, or another is held. */
  keptCopy(record: ExchangeRecord): ExchangeRecord | undefined {
    const e = this.#entries[record.seq];
    return e !== undefined && e.record.id === record.id && e.stamp === stampOf(record) ? e.record : undefined;
  }

  /** Applies every change put: decodes new versions, drops removed records, and says what changed. */
  apply(): EntryChanges {
    const out: EntryChanges = { added: [], touched: [], removed: [], reanswers: [], rethread: false };
    const lean = this.#opts.lean === true;
    if (this.#pending.size > 0) this.#records = null;
    for (const [seq, p] of this.#pending) {
      const prev = this.#entries[seq];
      if (p === null) {
        if (prev) {
          this.#entries[seq] = undefined;
          this.#count -= 1;
          out.rethread = true;
          out.removed.push(seq);
        }
        continue;
      }
      const stamp = stampOf(p.record);
      if (prev && prev.stamp === stamp && prev.record !== p.record) {
        prev.record = lean ? leanCopy(p.record) : p.record; // the same version, read again
        continue;
      }
      if (prev && prev.record === p.record && prev.stamp === stamp) continue;
      const decoded = p.decoded ?? decodeExchange(p.record);
      if (this.#opts.releaseBodies === true) releaseBodies(p.record);
      const e: Entry = { record: lean ? leanCopy(p.record) : p.record, decoded, stamp };
      if (usesLegacyLinking(p.record, decoded)) this.#legacy = true;
      if (prev === undefined) {
        out.added.push(e);
        this.#count += 1;
      }
      else if (prev.record === p.record) out.rethread = true;
      else if (threadSignature(prev.record, prev.decoded) !== threadSignature(e.record, e.decoded)) out.reanswers.push({ old: prev, now: e });
      this.#entries[seq] = e;
      out.touched.push(seq);
    }
    this.#pending.clear();
    return out;
  }
}
