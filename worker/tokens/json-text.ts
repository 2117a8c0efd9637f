// JSON parsing for token payloads. Two hazards shape it:
// - Depth. JSON.parse copes with [[[…]]] 100k deep, but structured clone (postMessage,
//   IndexedDB) and JSON.stringify recurse and overflow the stack from a few thousand
//   levels, so a reading holding such a payload would break whoever receives it. Payloads
//   nested deeper than MAX_DEPTH are rebuilt with the deep parts replaced by a marker.
// - Prototypes. JSON.parse makes `__proto__` an own data property, so its output is safe
//   to read. Rebuilt objects use Object.fromEntries (define, never assign) for the same
//   reason; never merge payload objects into existing ones.

/** Deepest nesting kept in a reading; deeper values become ELIDED. */
export const MAX_DEPTH = 64;
export const ELIDED = `[elided: nested deeper than ${MAX_DEPTH} levels]`;

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** First non-JSON-whitespace char code of `text`, or -1. */
export function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isJsonSpace(c)) return c;
  }
  return -1;
}

/** True when `text` holds more than `n` opening brackets (`{` or `[`), strings included. */
function moreBracketsThan(text: string, n: number): boolean {
  let count = 0;
  for (const ch of ['{', '[']) {
    for (let i = text.indexOf(ch); i >= 0; i = text.indexOf(ch, i + 1)) if (++count > n) return true;
  }
  return false;
}

/** True when brackets in `text` (outside strings) nest deeper than `limit`. One pass, no allocation. */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped char
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return false;
}

// Recursion is bounded by `limit`, so this cannot overflow.
function prune(v: unknown, depth: number, limit = MAX_DEPTH, marker = ELIDED): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= limit) return marker;
  if (Array.isArray(v)) return v.map((x) => prune(x, depth + 1, limit, marker));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, prune(x, depth + 1, limit, marker)]));
}

/**
 * `value`, parsed from `text`, with everything nested deeper than `limit` replaced by
 * `[elided: nested deeper than ${limit} levels]`; `value` itself when it is not that deep.
 * For other parsed JSON that must stay cloneable (decoded JSON-RPC messages).
 */
export function limitDepth(text: string, value: unknown, limit: number): unknown {
  if (text.length <= 2 * limit || typeof value !== 'object' || value === null) return value;
  // Hot path (every decoded body): nesting deeper than `limit` needs more than `limit`
  // opening brackets, and counting them with indexOf is far cheaper than the full scan.
  if (!moreBracketsThan(text, limit) || !nestsDeeperThan(text, limit)) return value;
  return prune(value, 0, limit, `[elided: nested deeper than ${limit} levels]`);
}

/** JSON.parse that never throws: `{ value }`, or undefined when `text` is not JSON. */
export function parseJsonValue(text: string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Each level costs at least two characters, so short text cannot be too deep; and it
  // needs more opening brackets than levels, which indexOf counts far faster than the scan.
  if (text.length > 2 * MAX_DEPTH && typeof value === 'object' && value !== null && moreBracketsThan(text, MAX_DEPTH) && nestsDeeperThan(text, MAX_DEPTH)) {
    value = prune(value, 0);
  }
  return { value };
}

/** Parses text that must be a JSON object or array; null otherwise. The first-char check skips JSON.parse for most non-JSON. */
export function parseJsonContainer(text: string): Record<string, unknown> | unknown[] | null {
  const c = firstNonSpace(text);
  if (c !== 123 && c !== 91) return null;
  const r = parseJsonValue(text);
  return r !== undefined && typeof r.value === 'object' && r.value !== null ? (r.value as Record<string, unknown> | unknown[]) : null;
}

/** Parses text that must be a JSON object (not an array); null otherwise. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  if (firstNonSpace(text) !== 123) return null;
  const v = parseJsonContainer(text);
  return v !== null && !Array.isArray(v) ? v : null;
}
