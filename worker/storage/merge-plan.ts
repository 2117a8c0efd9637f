// The merge rule for copies of one exchange made at different stages (the tap, the relay,
// a backlog): which copy is newer, and what a batch of them writes into a session, apart
// from any transaction (storage/exchanges.ts runs it inside one). Pure: no IndexedDB here.
//
// Hazard: equal or older copies must never win (re-deliveries and out-of-order arrivals are
// no-ops), and a known id keeps its stored seq and session: the seq keys the analysis.
import type { ExchangeRecord, ExchangeState } from '../protocol.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import type { SessionRecord, StoredExchange } from './schema.js';
import { eventCount } from '../decode/lean-record.js';

// How far an exchange has got: a copy at a later stage is newer.
const STAGE: Record<ExchangeState, number> = { pending: 0, streaming: 1, complete: 2, aborted: 2, failed: 2 };

/**
 * True when `incoming` is a later snapshot of the same exchange than `stored`: a later
 * state (pending → streaming → complete/aborted/failed), or the same state with more
 * events, or a response head the stored copy lacks. Equal or older copies never win, so
 * re-deliveries and out-of-order arrivals are no-ops. Two different final states: the
 * first one stored stands.
 */
export function supersedes(incoming: ExchangeRecord, stored: ExchangeRecord): boolean {
  const a = STAGE[incoming.state];
  const b = STAGE[stored.state];
  if (a !== b) return a > b;
  if (a === 2) return false;
  // Counted by eventCount: the analysis worker compares against its lean copies.
  const ea = eventCount(incoming) ?? 0;
  const eb = eventCount(stored) ?? 0;
  if (ea !== eb) return ea > eb;
  return !stored.response && incoming.response !== undefined;
}

/** True once an exchange reached a final state (complete, aborted or failed). */
export function isFinal(rec: ExchangeRecord): boolean {
  return STAGE[rec.state] === 2;
}

/** What a merge writes: each copy as stored, and the session with its numbering advanced. */
export interface MergePlan {
  written: StoredExchange[];
  /** Ids the session did not hold before (numbered from its `nextSeq`). */
  fresh: Set<string>;
  session: SessionRecord;
}

/** Copies to write, and which of their ids are new. */
export interface PlannedCopies {
  written: StoredExchange[];
  /** Ids the session did not hold before (each given a number by `next`). */
  fresh: Set<string>;
}

/**
 * The merge rule, apart from any transaction and any numbering: `olds[i]` is the stored copy
 * of `records[i]`'s id (undefined for a new id). New ids are numbered by `next`, in the order
 * given; a known id keeps its seq and session and is written only when the incoming copy
 * `supersedes` it; a later copy in the same batch is compared with the one written earlier in it.
 */
export function planCopies(
  session: string, olds: readonly (StoredExchange | undefined)[], records: readonly ExchangeRecord[], next: () => number,
): PlannedCopies {
  // The copy each id has as of this record: the stored one, or one written earlier in the batch.
  const have = new Map<string, StoredExchange | undefined>();
  const written: StoredExchange[] = [];
  const fresh = new Set<string>();
  records.forEach((rec, i) => {
    const old = have.has(rec.id) ? have.get(rec.id) : olds[i];
    if (old && !supersedes(rec, old)) return;
    const copy: StoredExchange = { ...rec, v: PROTOCOL_VERSION, seq: old ? old.seq : next(), session: old ? old.session : session };
    if (!old) fresh.add(rec.id);
    have.set(rec.id, copy);
    written.push(copy);
  });
  return { written, fresh };
}

/** How many numbers `planCopies` will ask for: the distinct ids with no stored copy. */
export function newIdCount(olds: readonly (StoredExchange | undefined)[], records: readonly ExchangeRecord[]): number {
  const ids = new Set<string>();
  records.forEach((rec, i) => { if (!olds[i]) ids.add(rec.id); });
  return ids.size;
}

/** The merge rule numbered from the session's `nextSeq` (advanced in the answer). */
export function planMerge(
  session: string, stored: SessionRecord | undefined, olds: readonly (StoredExchange | undefined)[], records: readonly ExchangeRecord[],
): MergePlan {
  const s = stored ? { ...stored } : { id: session, name: session, createdAt: Date.now(), nextSeq: 0 };
  return { ...planCopies(session, olds, records, () => s.nextSeq++), session: s };
}
