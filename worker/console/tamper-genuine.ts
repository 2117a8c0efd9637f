// Whether a tampered token that the server accepted changed what it did: its answer set
// against the answer the genuine token got on the same round. M11 (mrtr:232-233) makes
// integrity protection a MUST only where the state influences authorization, resource
// access or business logic; a server may leave it out where tampering can do nothing worse
// than fail the request. An answer identical to the genuine one is the only evidence from
// outside that tampering did nothing, so the comparison is strict (see compareWithGenuine).
import { diffResults } from './result-diff.js';
import { summarize } from './round-summary.js';
import type { RoundReading } from './types.js';

/** Same: the tampered retry got exactly the genuine retry's answer. Else what differs. */
export type GenuineComparison = { same: true } | { same: false; difference: string };

/**
 * Compares the `result` objects of two answers, keys in any order. Nothing in them is
 * ignored: the JSON-RPC id differs by construction but is outside `result`; a timestamp, a
 * fresh requestState (which may carry the changed data on to the next round) or a new
 * nonce all count as a difference, so "same" is never given to a server whose answer moved.
 */
export function compareWithGenuine(tampered: RoundReading, genuine: RoundReading): GenuineComparison {
  if (genuine.kind !== 'complete' && genuine.kind !== 'input_required')
    return { same: false, difference: `the genuine token got no result to compare with (${summarize(genuine)})` };
  if (tampered.kind !== genuine.kind)
    return { same: false, difference: `the genuine token got ${summarize(genuine)}` };
  const { changes, omitted } = diffResults(genuine.result, tampered.result, { ignore: [], ignoreTimestampValues: false, limit: 3 });
  if (changes.length === 0) return { same: true };
  const shown = changes.map((c) => `${c.path || 'result'} ${c.kind}${c.before !== undefined && c.after !== undefined ? ` from ${clip(c.before)} to ${clip(c.after)}` : ''}`);
  const more = changes.length + omitted - shown.length;
  return { same: false, difference: `its answer differs from the genuine token's: ${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}` };
}

function clip(json: string): string {
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}
