// The Console's page of raw exchanges, kept in place across re-reads: each summary the worker
// sends again unchanged stays the page's own object, so the keyed rows bound to it are not
// touched; only new and changed rows are. Summaries are flat records of primitives.
import type { ExchangeSummary } from '../../worker/facade.js';

/** Whether two summaries show the same thing (every field, compared by value). */
export function sameSummary(a: ExchangeSummary, b: ExchangeSummary): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof ExchangeSummary)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}

/**
 * The fresh page, with every summary equal to one in `old` (by id) replaced by that old
 * object; `old` itself when the two pages show the same rows in the same order.
 */
export function keepUnchanged(old: readonly ExchangeSummary[], fresh: readonly ExchangeSummary[]): readonly ExchangeSummary[] {
  const byId = new Map<string, ExchangeSummary>();
  for (const x of old) byId.set(x.id, x);
  let same = old.length === fresh.length;
  const out = fresh.map((x, i) => {
    const was = byId.get(x.id);
    const kept = was !== undefined && sameSummary(was, x) ? was : x;
    if (kept !== old[i]) same = false;
    return kept;
  });
  return same ? old : out;
}
