// A short human reading of a parsed filter for the status bar, e.g.
// `method is tools/call, not name echo, rounds > 2, contains "timeout"`.
import type { FilterTerm, HasFlag } from './filter-terms.js';

const HAS_TEXT: Record<HasFlag, string> = {
  state: 'state',
  findings: 'findings',
  errors: 'errors',
  legacy: 'legacy traffic',
  ambiguous: 'ambiguous rounds',
  task: 'a task',
  origin: 'Console traffic',
};

/** A value as shown: quoted when it has whitespace or is empty, so word boundaries stay visible. */
function shown(v: unknown): string {
  const s = String(v);
  return s === '' || /\s|"/.test(s) ? JSON.stringify(s) : s;
}

function one(t: FilterTerm): string {
  const not = t.negate ? 'not ' : '';
  switch (t.kind) {
    case 'text':
      return `${t.negate ? 'without' : 'contains'} ${JSON.stringify(String(t.text))}`;
    case 'method': case 'name': case 'rule': case 'id': {
      if (t.negate) return `not ${t.kind} ${shown(t.pattern)}`;
      return `${t.kind} ${String(t.pattern).includes('*') ? 'matches' : 'is'} ${shown(t.pattern)}`;
    }
    case 'status': case 'era':
      return t.negate ? `not ${t.kind} ${shown(t.value)}` : `${t.kind} is ${shown(t.value)}`;
    case 'severity':
      return `${t.negate ? 'no' : 'has'} ${shown(t.value)} findings`;
    case 'task':
      return t.negate ? `task not ${shown(t.value)}` : `task is ${shown(t.value)}`;
    case 'origin':
      return t.negate ? `Console origin not ${shown(t.value)}` : `Console origin ${shown(t.value)}`;
    case 'has':
      return `${t.negate ? 'no' : 'has'} ${HAS_TEXT[t.value] ?? shown(t.value)}`;
    case 'rounds': case 'exchange':
      return `${not}${t.kind} ${t.op ?? '='} ${shown(t.value)}`;
    default:
      return `${not}unknown term`;
  }
}

/**
 * A short human description of the terms, joined with ", " (every term must hold).
 * An empty filter gives "" (the status bar shows nothing).
 */
export function describeFilter(terms: readonly FilterTerm[]): string {
  return terms.map(one).join(', ');
}
