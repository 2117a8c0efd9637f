// Decides whether one conversation passes a parsed filter. Total over its input: terms may
// have crossed the worker boundary from anywhere, so a malformed term never throws (it
// matches nothing) and a subject's text is read at most once, and only when needed.
import type { Conversation, Finding } from '../protocol.js';
import type { CompareOp, FilterSubject, FilterTerm } from './filter-terms.js';
import { callRounds } from '../thread/experiments.js';

/**
 * True when `text` matches `pattern`, where `*` matches any run of characters (including
 * none) and everything else is literal; case-insensitive. Iterative with one backtrack
 * point, so a hostile pattern costs at most O(pattern × text), never exponential.
 */
export function globMatch(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1;
  let mark = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === t[ti]) { pi++; ti++; continue; }
    if (pi < p.length && p[pi] === '*') { star = pi++; mark = ti; continue; }
    if (star < 0) return false;
    pi = star + 1;
    ti = ++mark;
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

function compare(actual: number, op: CompareOp, value: number): boolean {
  switch (op) {
    case '<': return actual < value;
    case '<=': return actual <= value;
    case '=': return actual === value;
    case '>=': return actual >= value;
    case '>': return actual > value;
    default: return false;
  }
}

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number';

function hasFlag(flag: unknown, c: Conversation, findings: readonly Finding[]): boolean {
  switch (flag) {
    case 'state': return c.rounds.some((r) => r.stateSent !== null || r.stateIssued !== null);
    case 'findings': return findings.length > 0;
    case 'errors': return findings.some((f) => f.severity === 'error') || c.rounds.some((r) => r.outcome === 'error');
    case 'legacy': return c.era === 'legacy' || c.rounds.some((r) => (r.legacy?.length ?? 0) > 0);
    case 'ambiguous': return c.rounds.some((r) => r.link === 'ambiguous');
    case 'task': return c.task !== undefined;
    case 'origin': return c.rounds.some((r) => r.origin !== undefined);
    default: return false;
  }
}

/** The term's own test, before negation. Malformed terms are false. */
function holds(t: FilterTerm, s: FilterSubject, lowered: () => string): boolean {
  const c = s.conversation;
  switch (t.kind) {
    case 'text': return str(t.text) && lowered().includes(t.text.toLowerCase());
    case 'method': return str(t.pattern) && globMatch(t.pattern, c.method);
    case 'name': return str(t.pattern) && c.name !== null && globMatch(t.pattern, c.name);
    case 'id': return str(t.pattern) && globMatch(t.pattern, c.id);
    case 'rule': return str(t.pattern) && s.findings.some((f) => globMatch(t.pattern, f.rule));
    case 'status': return c.status === t.value;
    case 'severity': return s.findings.some((f) => f.severity === t.value);
    case 'era': return c.era === t.value;
    case 'has': return hasFlag(t.value, c, s.findings);
    case 'task': return c.task?.status === t.value;
    // Any round: a captured conversation with an edit branch is found by origin:edit.
    case 'origin': return c.rounds.some((r) => r.origin === t.value);
    // The call's own rounds, as its row counts them (the Console's experiments apart).
    case 'rounds': return num(t.value) && compare(callRounds(c.rounds).own.length, t.op, t.value);
    case 'exchange': return num(t.value) && c.exchanges.some((x) => compare(x, t.op, t.value));
    default: return false;
  }
}

/**
 * True when the subject passes every term (AND; `negate` inverts one term). Free-text terms
 * are checked last, so `subject.text()` runs only when all other terms pass, and only once.
 * A malformed term (unknown kind, wrong field types) never matches, negated or not.
 */
export function matchesFilter(terms: readonly FilterTerm[], subject: FilterSubject): boolean {
  if (!Array.isArray(terms)) return false;
  let text: string | undefined;
  const lowered = () => (text ??= String(subject.text()).toLowerCase());
  const wellFormed = terms.filter((t): t is FilterTerm => typeof t === 'object' && t !== null && typeof t.kind === 'string');
  if (wellFormed.length !== terms.length) return false;
  for (const pass of [false, true]) {
    for (const t of wellFormed) {
      if ((t.kind === 'text') !== pass) continue;
      if (!isSound(t)) return false;
      if (holds(t, subject, lowered) === Boolean(t.negate)) return false;
    }
  }
  return true;
}

/** A term whose fields have the types its kind needs (so negation cannot turn garbage into a match). */
function isSound(t: FilterTerm): boolean {
  switch (t.kind) {
    case 'text': return str(t.text);
    case 'method': case 'name': case 'rule': case 'id': return str(t.pattern);
    case 'status': case 'severity': case 'era': case 'has': case 'task': case 'origin': return str(t.value);
    case 'rounds': case 'exchange': return num(t.value) && ['<', '<=', '=', '>=', '>'].includes(t.op);
    default: return false;
  }
}

/** The findings about one conversation, for building FilterSubjects from an analysis. */
export function findingsByConversation(findings: readonly Finding[]): Map<string, Finding[]> {
  const out = new Map<string, Finding[]>();
  for (const f of findings) {
    if (f.conversation === null) continue;
    const list = out.get(f.conversation);
    if (list) list.push(f);
    else out.set(f.conversation, [f]);
  }
  return out;
}
