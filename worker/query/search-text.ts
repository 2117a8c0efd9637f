// The text that free-text filter terms search: a conversation's request bodies, response
// bodies and event data. Bounded per exchange so that one 50 MB body costs at most
// SEARCH_TEXT_PER_EXCHANGE characters, not a 50 MB copy (and a lowercased second copy).
import type { DecodedExchange, ExchangeRecord, RpcMessage } from '../protocol.js';

/**
 * Characters kept per exchange (64 Ki). The request body gets at most half; the response
 * (body, event data in order, then the unterminated tail) gets the rest, including what the
 * request left unused; parts are joined with a newline each. Text beyond the bound is not
 * searchable.
 */
export const SEARCH_TEXT_PER_EXCHANGE = 64 * 1024;

/** Options for searchText. */
export interface SearchTextOptions {
  /** Characters kept per exchange (default SEARCH_TEXT_PER_EXCHANGE). */
  perExchange?: number;
}

/** Appends slices of texts to `out` until `budget` characters are used; returns what is left. */
function take(out: string[], texts: Iterable<string | undefined>, budget: number): number {
  for (const s of texts) {
    if (budget <= 0) break;
    if (!s) continue;
    const part = s.length > budget ? s.slice(0, budget) : s;
    out.push(part);
    budget -= part.length;
  }
  return budget;
}

function* eventData(r: ExchangeRecord): Generator<string | undefined> {
  const res = r.response;
  if (!res) return;
  if (res.body !== undefined) yield res.body;
  for (const e of res.events ?? []) yield e.data;
  yield res.tail;
}

/**
 * Decoded messages as JSON, for records whose bodies were released after decoding.
 * Hazard: stringifying one huge message is a transient full-size copy before the slice.
 */
function* messageText(messages: readonly RpcMessage[]): Generator<string> {
  for (const m of messages) {
    const payload = m.params ?? m.result ?? m.error;
    const text = payload === undefined ? undefined : safeStringify(payload);
    yield [m.method, text].filter(Boolean).join(' ');
  }
}

function safeStringify(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch {
    // Cyclic or BigInt values cannot come from JSON.parse; skip rather than fail a search.
    return undefined;
  }
}

function hasResponseText(r: ExchangeRecord): boolean {
  const res = r.response;
  return !!res && (res.body !== undefined || res.events !== undefined || res.tail !== undefined);
}

/**
 * The searchable text of some exchanges (normally one conversation's), in record order,
 * one part per line. `decoded[i]` belongs to `records[i]` (as in Analysis) and is only read
 * when the record's body text is gone (`releaseBodies`). Each exchange contributes at most
 * `perExchange` characters; see SEARCH_TEXT_PER_EXCHANGE for how it is split.
 */
export function searchText(
  records: readonly ExchangeRecord[],
  decoded: readonly (DecodedExchange | undefined)[] = [],
  opts: SearchTextOptions = {},
): string {
  const limit = Math.max(0, Math.floor(opts.perExchange ?? SEARCH_TEXT_PER_EXCHANGE));
  const out: string[] = [];
  records.forEach((r, i) => {
    const d = decoded[i];
    const requestBudget = Math.floor(limit / 2);
    const requestText = r.request.body !== undefined ? [r.request.body] : d ? messageText(d.sent) : [];
    const unused = take(out, requestText, requestBudget);
    const responseText = hasResponseText(r) ? eventData(r) : d ? messageText(d.received) : [];
    take(out, responseText, limit - requestBudget + unused);
  });
  // join copies into one new string, so the slices above do not keep huge bodies alive
  // through the result (the records themselves are held by the caller anyway).
  return out.join('\n');
}
