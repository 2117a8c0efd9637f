// Which records of a capture are analysed when one exchange appears more than once: shared
// by the engine's whole-capture entry point (analysis.ts) and the CLI's batch (batch.ts).
import type { ExchangeRecord } from '../protocol.js';

/**
 * Hazard: one exchange can arrive twice (a live record re-sent as it progresses, a merged
 * capture), sharing a seq with its earlier copy. Threading both would give two
 * conversations the same id and claim one request twice, so the last copy of a seq wins,
 * as a JSONL line re-written for an id does. Which records to keep, in order; null when
 * there are no repeats (no copy then).
 */
export function lastOfEachSeq(records: readonly ExchangeRecord[]): boolean[] | null {
  const last: number[] = [];
  let repeats = false;
  records.forEach((r, i) => {
    if (last[r.seq] !== undefined) repeats = true;
    last[r.seq] = i;
  });
  return repeats ? records.map((r, i) => last[r.seq] === i) : null;
}
