// Diffing a replayed final answer against the recorded one, with an editable ignore list of
// path globs. Paths read like JavaScript: `result.content[0].text`, and keys that are not
// identifiers in brackets: `result._meta["io.modelcontextprotocol/serverInfo"].version`.
// In a glob, `*` matches within one segment (`*At`, `[*]`) and `**` any number of segments.
import type { JsonChange } from '../diff/round-diff.js';

/** One change in a diffed answer (the round diff's shape, so the page renders both alike). */
export type { JsonChange };

/**
 * What replay ignores unless told otherwise: the JSON-RPC id, tokens, and timestamps
 * (by name here, and by value: two ISO-8601 date-times always compare equal, see diffResults).
 */
export const DEFAULT_IGNORE: readonly string[] = Object.freeze([
  'id',
  '**.requestState',
  '**.progressToken',
  '**.timestamp',
  '**.*At',
  '**.*_at',
  '**.date',
  '**.time',
]);

/** Options for diffResults. */
export interface DiffOptions {
  ignore?: readonly string[];
  /** Two strings that are both ISO-8601 date-times compare equal (default true). */
  ignoreTimestampValues?: boolean;
  /** Stop after this many changes (default 200). */
  limit?: number;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A path's text from its segments. */
export function pathText(segs: readonly (string | number)[]): string {
  let out = '';
  for (const s of segs) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENT.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Splits a path or glob into segments; null when it cannot be read (an unclosed bracket…). */
export function parsePath(text: string): string[] | null {
  const segs: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '.') {
      i++;
      continue;
    }
    if (text[i] === '[') {
      if (text[i + 1] === '"') {
        let j = i + 2;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        if (text[j + 1] !== ']') return null;
        try {
          segs.push(JSON.parse(text.slice(i + 1, j + 1)) as string);
        } catch {
          return null;
        }
        i = j + 2;
      } else {
        const j = text.indexOf(']', i);
        if (j < 0) return null;
        segs.push(text.slice(i + 1, j));
        i = j + 1;
      }
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
    segs.push(text.slice(i, j));
    i = j;
  }
  return segs;
}

/** Checks an ignore list: the entries that cannot be read, with why (for the editor). */
export function checkIgnoreList(globs: readonly string[]): { glob: string; problem: string }[] {
  return globs.filter((g) => parsePath(g) === null || g.trim() === '').map((glob) => ({ glob, problem: 'cannot read this path (check brackets and quotes)' }));
}

function segmentMatches(pattern: string, seg: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return pattern === seg;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(seg);
}

function globMatches(glob: readonly string[], path: readonly string[], gi = 0, pi = 0): boolean {
  if (gi === glob.length) return pi === path.length;
  if (glob[gi] === '**') {
    for (let k = pi; k <= path.length; k++) if (globMatches(glob, path, gi + 1, k)) return true;
    return false;
  }
  return pi < path.length && segmentMatches(glob[gi], path[pi]) && globMatches(glob, path, gi + 1, pi + 1);
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The changes from `recorded` to `replayed`, leaving out ignored paths (and their subtrees). */
export function diffResults(recorded: unknown, replayed: unknown, opts: DiffOptions = {}): { changes: JsonChange[]; omitted: number } {
  const globs = (opts.ignore ?? DEFAULT_IGNORE).map(parsePath).filter((g): g is string[] => g !== null);
  const stamps = opts.ignoreTimestampValues ?? true;
  const limit = opts.limit ?? 200;
  const changes: JsonChange[] = [];
  let omitted = 0;
  const add = (c: JsonChange) => (changes.length < limit ? changes.push(c) : omitted++);
  const walk = (a: unknown, b: unknown, segs: (string | number)[], depth: number) => {
    const strSegs = segs.map(String);
    if (segs.length > 0 && globs.some((g) => globMatches(g, strSegs))) return;
    const path = pathText(segs);
    const aObj = typeof a === 'object' && a !== null;
    const bObj = typeof b === 'object' && b !== null;
    if (aObj && bObj && Array.isArray(a) === Array.isArray(b) && depth < 64) {
      if (Array.isArray(a) && Array.isArray(b)) {
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (i >= a.length) add({ path: pathText([...segs, i]), kind: 'added', after: JSON.stringify(b[i]) });
          else if (i >= b.length) add({ path: pathText([...segs, i]), kind: 'removed', before: JSON.stringify(a[i]) });
          else walk(a[i], b[i], [...segs, i], depth + 1);
        }
        return;
      }
      const ao = a as Record<string, unknown>;
      const bo = b as Record<string, unknown>;
      const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
      for (const k of keys) {
        const inA = Object.prototype.hasOwnProperty.call(ao, k);
        const inB = Object.prototype.hasOwnProperty.call(bo, k);
        const sub = [...segs, k];
        if (globs.some((g) => globMatches(g, sub.map(String)))) continue;
        if (!inB) add({ path: pathText(sub), kind: 'removed', before: JSON.stringify(ao[k]) });
        else if (!inA) add({ path: pathText(sub), kind: 'added', after: JSON.stringify(bo[k]) });
        else walk(ao[k], bo[k], sub, depth + 1);
      }
      return;
    }
    if (stamps && typeof a === 'string' && typeof b === 'string' && ISO.test(a) && ISO.test(b)) return;
    const ja = JSON.stringify(a);
    const jb = JSON.stringify(b);
    if (ja !== jb) add({ path, kind: 'changed', ...(a !== undefined ? { before: ja } : {}), ...(b !== undefined ? { after: jb } : {}) });
  };
  walk(recorded, replayed, [], 0);
  return { changes, omitted };
}
