// One conversation as a row of the list: what the page shows and filters on without
// fetching the conversation (method, status, rounds, timing, findings counted by severity,
// ambiguity, Console label and run, branches, the Console's experiments apart).
//
// The call is judged by its own rounds (thread/experiments.ts): a fork, edit, re-send or
// tamper test that joined it adds branches but no rounds, and what it drew is its result
// (`expected`), not the call's findings.
//
// Hazard: a row is a plain summary built from the analysis as it stands; anything a filter
// or the status bar reads must be here, since the page never sees the conversation itself.
import type { Conversation, Finding } from '../protocol.js';
import { branchCount } from '../thread/branches.js';
import { callRounds, experimentFlags, hasExperiments } from '../thread/experiments.js';
import { callDuration } from './call-duration.js';
import type { AnalysisIndex } from './analysis-index.js';
import type { ConversationSummary, FindingCounts } from './types.js';

/** Findings counted by severity. */
export function findingCounts(findings: readonly Finding[] | undefined): FindingCounts {
  const n: FindingCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings ?? []) n[f.severity] += 1;
  return n;
}

/** The list row of a conversation, its findings and records read through `index`. */
export function conversationSummary(c: Conversation, index: AnalysisIndex): ConversationSummary {
  const first = c.rounds[0];
  const lastSeq = c.exchanges[c.exchanges.length - 1];
  const call = hasExperiments(c.rounds) ? callRounds(c.rounds) : null;
  const own = call === null ? c.rounds : call.own.map((i) => c.rounds[i]);
  const findings = index.findingsByConversation.get(c.id);
  const amb = c.rounds.find((r) => r.link === 'ambiguous');
  const startedAt = first?.sentAt ?? index.bySeq.get(c.exchanges[0])?.record.startedAt ?? 0;
  return {
    id: c.id, method: c.method, name: c.name, era: c.era, rounds: own.length, status: c.status,
    ...experimentCounts(c, call, findings),
    firstSeq: c.exchanges[0] ?? -1,
    startedAt,
    durationMs: callDuration(own, startedAt),
    hasState: c.rounds.some((r) => r.stateSent !== null || r.stateIssued !== null),
    ambiguous: amb !== undefined,
    ...(amb ? { ambiguity: { reason: amb.linkReason ?? null, candidates: amb.candidates ?? [] } } : {}),
    httpStatus: lastSeq !== undefined ? httpStatusOf(index.bySeq.get(lastSeq)?.record) : null,
    ...(c.task !== undefined ? { task: true as const } : {}),
    ...consoleFields(c),
  };
}

type Counted = Pick<ConversationSummary, 'findings' | 'expected' | 'experiment' | 'experiments'>;

/**
 * The call's findings, and apart from them those about the Console's experiments in it. In
 * a call with experiments, `findings` counts only what is not about an experiment's
 * exchanges. A conversation that is all experiment (`experiment`) is judged as one: its
 * findings are all `expected`, and `findings` shows them too (the row's own badges).
 */
function experimentCounts(c: Conversation, call: ReturnType<typeof callRounds> | null, findings: readonly Finding[] | undefined): Counted {
  if (call === null) return { findings: findingCounts(findings) };
  const flags = experimentFlags(c.rounds);
  const tried = new Set<number>();
  c.rounds.forEach((r, i) => { if (flags[i]) tried.add(r.exchange); });
  const out: Counted = { findings: findingCounts(undefined) };
  if (call.experiment) {
    out.experiment = true;
    out.findings = findingCounts(findings);
  } else {
    out.findings = findingCounts(findings?.filter((f) => !tried.has(f.exchange)));
    out.experiments = c.rounds.length - call.own.length;
  }
  const n = findingCounts(findings?.filter((f) => tried.has(f.exchange)));
  if (n.error + n.warning + n.info > 0) out.expected = n;
  return out;
}

/** What a row adds to the status bar's errors and warnings: nothing for a conversation that
 *  is all experiment, else its own findings (its experiments' are `expected`). */
export function callErrors(row: Pick<ConversationSummary, 'findings' | 'experiment'>): { error: number; warning: number } {
  return row.experiment ? { error: 0, warning: 0 } : { error: row.findings.error, warning: row.findings.warning };
}

/** The row's Console label, run and branch count, each only when there is one. */
function consoleFields(c: Conversation): Pick<ConversationSummary, 'origin' | 'run' | 'branches'> {
  const out: Pick<ConversationSummary, 'origin' | 'run' | 'branches'> = {};
  const origin = c.rounds[0]?.origin;
  if (origin !== undefined) out.origin = origin;
  if (c.run !== undefined) out.run = c.run;
  const branches = c.rounds.length > 1 ? branchCount(c.rounds) : 1;
  if (branches > 1) out.branches = branches;
  return out;
}

/** The HTTP status a record's answer came with; none for stdio, whose records carry a
 *  placeholder 200 only so one decoder reads both transports. */
function httpStatusOf(record: { response?: { status: number }; stdio?: unknown } | undefined): number | null {
  return record && record.stdio === undefined ? (record.response?.status ?? null) : null;
}
