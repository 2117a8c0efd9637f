// Pure helpers of the JSON tree view: the path of a node (written as the round and replay
// diffs write it, `result.content[0].text`), the children of a value, and which nodes a
// search hits. Kept apart from the component so the path syntax has one definition.

/** A key that can follow a dot unquoted; anything else is written `["…"]`. */
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of `key` under `parent` ('' is the whole value). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (PLAIN_KEY.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

/** True for the values the tree can open (objects and arrays). */
export function isBranch(v: unknown): v is Record<string, unknown> | unknown[] {
  return typeof v === 'object' && v !== null;
}

/** The children of a branch as [key, value] pairs, in document order. */
export function childrenOf(v: Record<string, unknown> | unknown[]): [string | number, unknown][] {
  return Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
}

/** A primitive written as JSON (strings quoted and escaped), for display and search. */
export function primitiveText(v: unknown): string {
  if (v === undefined) return 'undefined';
  return JSON.stringify(v) ?? String(v);
}

/** What a closed branch holds, drawn between its brackets: `3 keys`, `2 items`. */
export function branchSummary(v: Record<string, unknown> | unknown[]): string {
  const n = Array.isArray(v) ? v.length : Object.keys(v).length;
  return Array.isArray(v) ? `${n} item${n === 1 ? '' : 's'}` : `${n} key${n === 1 ? '' : 's'}`;
}

/** How many nodes a value has, counting no further than `cap` (a small value opens whole). */
export function countNodes(value: unknown, cap: number): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n < cap) {
    const v = stack.pop();
    n++;
    if (isBranch(v)) for (const [, c] of childrenOf(v)) stack.push(c);
  }
  return n;
}

export interface SearchHits {
  /** Paths whose key or primitive value contains the query. */
  hits: Set<string>;
  /** Paths of the branches that hold a hit (opened so the hit shows). */
  around: Set<string>;
}

/** Which nodes contain `query` (case-insensitive) in their key or primitive value. */
export function searchTree(value: unknown, query: string, limit = 10_000): SearchHits {
  const hits = new Set<string>();
  const around = new Set<string>();
  const q = query.trim().toLowerCase();
  if (q === '') return { hits, around };
  // Iterative walk: a hostile body nested thousands deep must not overflow the stack. Each
  // entry links to its parent's entry, so marking the branches around a hit stops at the
  // first one already marked (linear, however deep).
  type Entry = { v: unknown; path: string; key: string; up: Entry | null };
  const stack: Entry[] = [{ v: value, path: '', key: '', up: null }];
  while (stack.length > 0 && hits.size < limit) {
    const e = stack.pop()!;
    const own = e.key.toLowerCase().includes(q) || (!isBranch(e.v) && primitiveText(e.v).toLowerCase().includes(q));
    if (own) {
      hits.add(e.path);
      for (let p = e.up; p !== null && !around.has(p.path); p = p.up) around.add(p.path);
    }
    if (isBranch(e.v)) {
      const kids = childrenOf(e.v);
      for (let i = kids.length - 1; i >= 0; i--) {
        const [k, c] = kids[i];
        stack.push({ v: c, path: childPath(e.path, k), key: typeof k === 'number' ? '' : k, up: e });
      }
    }
  }
  return { hits, around };
}
