// Round-to-round diffs: what changed between a round's request and the round it continues
// (params, inputResponses) and between the token payloads they echoed. Structural JSON
// comparison: a list of leaf changes with JSON-pointer-like paths, so the page can render
// them as rows without parsing anything. Pure, no DOM; the CLI can use it too.

/** One difference between two JSON values. */
export interface JsonChange {
  /** Path from the compared root, e.g. `/arguments/name` or `/items/2`; '' is the root. */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** JSON text of the old value (absent for `added`). */
  before?: string;
  /** JSON text of the new value (absent for `removed`). */
  after?: string;
}

/** A section of a round diff: the changes, or `same` when there are none. */
export interface DiffSection {
  label: 'params' | 'inputResponses' | 'token payload';
  changes: JsonChange[];
  /** Changes beyond `limit` that were left out. */
  omitted: number;
}

/** What a round changed against its parent round. */
export interface RoundDiff {
  /** Index of the round compared against. */
  against: number;
  sections: DiffSection[];
}

/** The inputs for one side of a round diff. */
export interface RoundSide {
  params: Record<string, unknown> | undefined;
  /** The decoded payload of the token this round echoed (or null when none/unreadable). */
  tokenPayload: unknown;
}

// Keys of params that change every round by design, or that get their own section.
const PARAMS_OWN_SECTION = new Set(['inputResponses', 'requestState']);
const MAX_VALUE_TEXT = 400;
const DEFAULT_LIMIT = 200;
const TOO_DEEP = '[nested too deep to compare]';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON text of a value, cut to a readable length (the detail pane has the whole body). */
function text(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > MAX_VALUE_TEXT ? `${s.slice(0, MAX_VALUE_TEXT)}… (${s.length} chars)` : s;
}

function escapeSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The leaf-level differences from `a` to `b`. Objects compare by key (own keys, in `b`'s
 * order then keys only in `a`), arrays by index; any other pair compares by value.
 * Hazard: hostile captures nest deeply, so recursion stops at `depth`; two distinct
 * containers below it are reported as one change marked too deep to compare.
 */
export function diffJson(a: unknown, b: unknown, limit = DEFAULT_LIMIT, depth = 32): { changes: JsonChange[]; omitted: number } {
  const changes: JsonChange[] = [];
  let omitted = 0;
  const push = (c: JsonChange) => {
    if (changes.length < limit) changes.push(c);
    else omitted += 1;
  };
  const walk = (x: unknown, y: unknown, path: string, d: number): void => {
    if (x === y) return;
    if (d > 0 && isPlainObject(x) && isPlainObject(y)) {
      for (const k of Object.keys(y)) {
        const p = `${path}/${escapeSegment(k)}`;
        if (!Object.hasOwn(x, k)) push({ path: p, kind: 'added', after: text(y[k]) });
        else walk(x[k], y[k], p, d - 1);
      }
      for (const k of Object.keys(x)) if (!Object.hasOwn(y, k)) push({ path: `${path}/${escapeSegment(k)}`, kind: 'removed', before: text(x[k]) });
      return;
    }
    if (d > 0 && Array.isArray(x) && Array.isArray(y)) {
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const p = `${path}/${i}`;
        if (i >= x.length) push({ path: p, kind: 'added', after: text(y[i]) });
        else if (i >= y.length) push({ path: p, kind: 'removed', before: text(x[i]) });
        else walk(x[i], y[i], p, d - 1);
      }
      return;
    }
    if (d <= 0 && typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
      push({ path, kind: 'changed', before: TOO_DEEP, after: TOO_DEEP });
      return;
    }
    const tx = text(x);
    const ty = text(y);
    if (tx !== ty) push({ path, kind: 'changed', before: tx, after: ty });
  };
  walk(a, b, '', depth);
  return { changes, omitted };
}

function withoutOwnSections(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!params) return out;
  for (const k of Object.keys(params)) if (!PARAMS_OWN_SECTION.has(k)) out[k] = params[k];
  return out;
}

function section(label: DiffSection['label'], a: unknown, b: unknown, limit: number): DiffSection {
  const { changes, omitted } = diffJson(a, b, limit);
  return { label, changes, omitted };
}

/**
 * Diffs a round against the round it continues: the params (without `inputResponses`
 * and `requestState`), the `inputResponses`, and the decoded payloads of the echoed
 * tokens. Every section is present; an empty `changes` list means "no change".
 */
export function diffRounds(against: number, prev: RoundSide, next: RoundSide, limit = DEFAULT_LIMIT): RoundDiff {
  return {
    against,
    sections: [
      section('params', withoutOwnSections(prev.params), withoutOwnSections(next.params), limit),
      section('inputResponses', prev.params?.inputResponses ?? null, next.params?.inputResponses ?? null, limit),
      section('token payload', prev.tokenPayload ?? null, next.tokenPayload ?? null, limit),
    ],
  };
}
