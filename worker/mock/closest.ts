// For a request the mock cannot answer: the recorded request closest to it, and how they
// differ as JSON paths (worker/diff), so the message says what to change, not just "no".
import { diffJson, type JsonChange } from '../diff/round-diff.js';
import { comparableParams, type MockBook, type RecordedCall } from './book.js';

/** The nearest recorded request and the differences from it to the client's. */
export interface Closest {
  call: RecordedCall;
  round: number;
  changes: JsonChange[];
  omitted: number;
}

/** How many recorded requests a mismatch compares at most (a mismatch must stay cheap on a
 *  10k-exchange capture; same-method requests come first). */
const MAX_COMPARED = 5000;

/** The recorded request whose method and params (without `_meta` and the token) differ
 *  least from the client's; `retry`: compare against rounds after the first too. */
export function closestRequest(book: MockBook, method: string, params: Record<string, unknown> | undefined, retry: boolean): Closest | null {
  const mine = { method, params: { ...comparableParams(params, method), ...(retry ? { inputResponses: params?.inputResponses ?? null } : {}) } };
  const sameMethod = book.calls.filter((c) => c.method === method);
  const pool = (sameMethod.length > 0 ? sameMethod : book.calls).slice(0, MAX_COMPARED);
  let best: Closest | null = null;
  for (const call of pool) {
    for (const [i, r] of call.rounds.entries()) {
      if (i > 0 && !retry) break;
      const theirs = { method: call.method, params: { ...comparableParams(r.params, call.method), ...(retry ? { inputResponses: r.responses } : {}) } };
      const { changes, omitted } = diffJson(theirs, mine, 20);
      const n = changes.length + omitted + (retry && i === 0 ? 1 : 0);
      if (best === null || n < best.changes.length + best.omitted) best = { call, round: i, changes, omitted };
    }
  }
  return best;
}

/** The differences from one given recorded request (the one a token was issued by). */
export function closestTo(call: RecordedCall, round: number, method: string, params: Record<string, unknown> | undefined): Closest {
  const r = call.rounds[round];
  const { changes, omitted } = diffJson({ method: call.method, params: comparableParams(r.params, call.method) }, { method, params: comparableParams(params, method) }, 20);
  return { call, round, changes, omitted };
}

/** "tools/call confirm_action (conversation c3, round 1, capture entry 3)". */
export function nameOf(call: RecordedCall, round: number): string {
  return `${call.method}${call.name !== null ? ` ${call.name}` : ''} (conversation ${call.id}, round ${round + 1}, capture entry ${call.rounds[round].seq})`;
}

/** The differences as one line: `/params/arguments/action: "a" → "b"; …`. */
export function describeChanges(changes: readonly JsonChange[], omitted: number, max = 5): string {
  const shown = changes.slice(0, max).map((c) =>
    c.kind === 'added' ? `${c.path || '/'}: not in the recording, sent ${c.after}` : c.kind === 'removed' ? `${c.path || '/'}: recorded ${c.before}, not sent` : `${c.path || '/'}: recorded ${c.before}, sent ${c.after}`,
  );
  const more = changes.length - shown.length + omitted;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
