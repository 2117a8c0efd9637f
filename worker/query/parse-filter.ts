// Reads the typed filter box (`method:tools/call status:error rule:mrtr/* -name:echo "a b"`)
// into terms. Pure and total: any string gives terms or one error with its offset, never a
// throw, so the UI can re-parse on every keystroke.
import type { ConversationStatus, OriginKind, Severity } from '../protocol.js';
import {
  ERA_VALUES, FILTER_KEYS, HAS_VALUES, ORIGIN_VALUES, SEVERITY_VALUES, STATUS_VALUES, TASK_STATUS_VALUES,
  type CompareOp, type FilterParse, type FilterTerm, type HasFlag,
} from './filter-terms.js';

// Raised only inside this file and always caught by parseFilter, which turns it into data:
// it unwinds from deep in a term without threading a result through every reader.
class FilterSyntaxError {
  constructor(readonly message: string, readonly at: number) {}
}

const WS = /\s/;
// A key is letters, digits, `_` and `-` after a letter, then `:`, all unquoted.
const KEY = /([A-Za-z][A-Za-z0-9_-]*):/y;
const COMPARISON = /^(<=|>=|<|>|=)?([0-9]+)$/;

interface Word {
  value: string;
  end: number;
  /** Some part of the word was inside quotes. */
  quoted: boolean;
}

/**
 * Reads one shell-like word from `start`: unquoted characters up to whitespace, and
 * `"…"` segments (which may hold whitespace; `\"` and `\\` escape inside them).
 */
function readWord(text: string, start: number): Word {
  let value = '';
  let quoted = false;
  let i = start;
  while (i < text.length && !WS.test(text[i])) {
    if (text[i] !== '"') {
      value += text[i++];
      continue;
    }
    quoted = true;
    const open = i++;
    for (;;) {
      if (i >= text.length) throw new FilterSyntaxError('This quote is never closed: add a closing " (write \\" for a quote inside quotes).', open);
      const c = text[i];
      if (c === '"') { i++; break; }
      if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) { value += text[i + 1]; i += 2; continue; }
      value += c;
      i++;
    }
  }
  return { value, end: i, quoted };
}

function unknownKey(key: string, at: number): FilterSyntaxError {
  const known = 'method, name, status, rule, severity, era, has, rounds (or round), exchange, id, task, origin';
  return new FilterSyntaxError(`Unknown filter key "${key}:". Known keys: ${known}. To search for text with a colon in it, put it in quotes.`, at);
}

function oneOf<T extends string>(key: string, raw: string, allowed: readonly T[], at: number): T {
  const v = raw.toLowerCase();
  const hit = allowed.find((a) => a === v);
  if (hit === undefined) throw new FilterSyntaxError(`${key}: takes one of ${allowed.join(', ')}; "${raw}" is not one of them.`, at);
  return hit;
}

function comparison(key: string, raw: string, at: number): { op: CompareOp; value: number } {
  const m = COMPARISON.exec(raw);
  const value = m ? Number(m[2]) : NaN;
  if (!m || !Number.isSafeInteger(value)) {
    throw new FilterSyntaxError(`${key}: takes a whole number, optionally after <, <=, =, >= or > (e.g. ${key}:>2); "${raw}" is not one.`, at);
  }
  return { op: (m[1] ?? '=') as CompareOp, value };
}

/** One `key:value` term; `at` is where the term starts, `valueAt` where its value starts. */
function keyed(key: string, raw: string, negate: boolean, at: number, valueAt: number): FilterTerm {
  switch (key) {
    case 'method': case 'name': case 'rule': case 'id':
      return { kind: key, pattern: raw, negate, at };
    case 'status':
      return { kind: 'status', value: oneOf<ConversationStatus>(key, raw, STATUS_VALUES, valueAt), negate, at };
    case 'severity':
      return { kind: 'severity', value: oneOf<Severity>(key, raw, SEVERITY_VALUES, valueAt), negate, at };
    case 'era': {
      const era = Object.hasOwn(ERA_VALUES, raw.toLowerCase()) ? ERA_VALUES[raw.toLowerCase()] : undefined;
      if (era === undefined) throw new FilterSyntaxError(`era: takes one of ${Object.keys(ERA_VALUES).join(', ')}; "${raw}" is not one of them.`, valueAt);
      return { kind: 'era', value: era, negate, at };
    }
    case 'has':
      return { kind: 'has', value: oneOf<HasFlag>(key, raw, HAS_VALUES, valueAt), negate, at };
    case 'task':
      return { kind: 'task', value: oneOf<string>(key, raw, TASK_STATUS_VALUES, valueAt), negate, at };
    case 'origin':
      // "re-send" as the Console's button spells it.
      return { kind: 'origin', value: oneOf<OriginKind>(key, raw.toLowerCase() === 're-send' ? 'resend' : raw, ORIGIN_VALUES, valueAt), negate, at };
    case 'round': case 'rounds':
      return { kind: 'rounds', ...comparison(key, raw, valueAt), negate, at };
    case 'exchange':
      return { kind: 'exchange', ...comparison(key, raw, valueAt), negate, at };
    default:
      throw unknownKey(key, at);
  }
}

/** Reads one term starting at `start` (not whitespace). */
function term(text: string, start: number): { term: FilterTerm; end: number } {
  let i = start;
  const negate = text[i] === '-';
  if (negate) {
    i++;
    if (i >= text.length || WS.test(text[i])) {
      throw new FilterSyntaxError('A "-" must be followed by the term it negates, e.g. -name:echo (quote it, "-", to search for a dash).', start);
    }
  }
  KEY.lastIndex = i;
  const key = KEY.exec(text);
  if (key) {
    const name = key[1].toLowerCase();
    if (!(FILTER_KEYS as readonly string[]).includes(name)) {
      throw unknownKey(key[1], i);
    }
    const valueAt = KEY.lastIndex;
    const word = readWord(text, valueAt);
    if (word.value === '') {
      throw new FilterSyntaxError(`${name}: needs a value right after the colon, e.g. ${example(name)}.`, valueAt);
    }
    return { term: keyed(name, word.value, negate, start, valueAt), end: word.end };
  }
  const word = readWord(text, i);
  if (word.value === '') throw new FilterSyntaxError('Empty quotes match everything: put the text to search for between them.', i);
  return { term: { kind: 'text', text: word.value, negate, at: start }, end: word.end };
}

function example(key: string): string {
  const examples: Record<string, string> = {
    method: 'method:tools/call', name: 'name:"my tool"', rule: 'rule:mrtr/*', id: 'id:c1', status: 'status:error',
    severity: 'severity:warning', era: 'era:legacy', has: 'has:state', task: 'task:input_required', origin: 'origin:tamper', round: 'round:>2', rounds: 'rounds:>2', exchange: 'exchange:12',
  };
  return examples[key] ?? `${key}:value`;
}

/**
 * Parses filter text into terms (AND-ed). Grammar: terms separated by whitespace; a term is
 * `[-]key:value` or `[-]word`; values and words may be quoted (`name:"my tool"`). Returns
 * the first problem with its 0-based offset instead of throwing.
 */
export function parseFilter(text: string): FilterParse {
  if (typeof text !== 'string') return { ok: false, error: { message: 'The filter must be text.', at: 0 } };
  const terms: FilterTerm[] = [];
  let i = 0;
  try {
    while (i < text.length) {
      if (WS.test(text[i])) { i++; continue; }
      const got = term(text, i);
      terms.push(got.term);
      i = got.end;
    }
  } catch (e) {
    // Only our own syntax errors are expected; anything else is a bug and propagates.
    if (e instanceof FilterSyntaxError) return { ok: false, error: { message: e.message, at: e.at } };
    throw e;
  }
  return { ok: true, terms };
}
