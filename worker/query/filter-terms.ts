// The filter language's data: the parsed terms, what they are matched against, and the
// vocabulary (keys and allowed values). Plain, cloneable data: terms may cross the worker
// boundary, so nothing here holds a function or a RegExp.
import { ORIGIN_KINDS, type Conversation, type ConversationStatus, type Era, type Finding, type OriginKind, type Severity } from '../protocol.js';

/** What `has:` can ask about. */
export type HasFlag = 'state' | 'findings' | 'errors' | 'legacy' | 'ambiguous' | 'task' | 'origin';

/** A numeric comparison, as in `rounds:>2` (a bare number means `=`). */
export type CompareOp = '<' | '<=' | '=' | '>=' | '>';

/** Fields every term carries: `negate` from a leading `-`, `at` = offset of the term in the filter text. */
interface TermBase {
  negate: boolean;
  at: number;
}

/** One parsed filter term. Terms AND together. */
export type FilterTerm =
  | (TermBase & { kind: 'text'; text: string })
  | (TermBase & { kind: 'method' | 'name' | 'rule' | 'id'; pattern: string })
  | (TermBase & { kind: 'status'; value: ConversationStatus })
  | (TermBase & { kind: 'severity'; value: Severity })
  | (TermBase & { kind: 'era'; value: Era })
  | (TermBase & { kind: 'has'; value: HasFlag })
  | (TermBase & { kind: 'task'; value: string })
  | (TermBase & { kind: 'origin'; value: OriginKind })
  | (TermBase & { kind: 'rounds' | 'exchange'; op: CompareOp; value: number });

/** The kind of a term. */
export type FilterKind = FilterTerm['kind'];

/**
 * One conversation as the filter sees it. `findings` are the findings about this
 * conversation; `text()` returns its searchable body text (see searchText) and is called
 * only when a free-text term exists and every other term already matched.
 */
export interface FilterSubject {
  conversation: Conversation;
  findings: readonly Finding[];
  text(): string;
}

/** A filter that could not be read: why, and the 0-based offset in the text where. */
export interface FilterError {
  message: string;
  at: number;
}

/** What parseFilter returns; a bad filter is data, never a throw. */
export type FilterParse = { ok: true; terms: FilterTerm[] } | { ok: false; error: FilterError };

/** Every key the language knows (as typed; `round` is an alias of `rounds`). */
export const FILTER_KEYS = ['method', 'name', 'status', 'rule', 'severity', 'era', 'has', 'round', 'rounds', 'exchange', 'id', 'task', 'origin'] as const;

/** Accepted `status:` values. */
export const STATUS_VALUES: readonly ConversationStatus[] = ['complete', 'error', 'abandoned', 'in-progress'];

/** Accepted `severity:` values. */
export const SEVERITY_VALUES: readonly Severity[] = ['error', 'warning', 'info'];

/** Accepted `era:` spellings and the era each means. */
export const ERA_VALUES: Readonly<Record<string, Era>> = {
  '2026-07-28': '2026-07-28',
  modern: '2026-07-28',
  legacy: 'legacy',
  '2025-11-25': 'legacy',
};

/** Accepted `has:` values. */
export const HAS_VALUES: readonly HasFlag[] = ['state', 'findings', 'errors', 'legacy', 'ambiguous', 'task', 'origin'];

/** Accepted `task:` values: the statuses of the tasks extension (tasks:151-159). */
export const TASK_STATUS_VALUES: readonly string[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/** Accepted `origin:` values: the Console actions (ExchangeRecord.origin). */
export const ORIGIN_VALUES: readonly OriginKind[] = ORIGIN_KINDS;
