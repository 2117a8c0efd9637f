// One conversation as a row of the list: what the page shows and filters on without
// fetching the conversation (method, status, rounds, timing, findings counted by severity,
// ambiguity, Console label and run, branches, tamper tests' expected findings).
//
// Hazard: a row is a plain summary built from the analysis as it stands; anything a filter
// or the status bar reads must be here, since the page never sees the conversation itself.
import type { Conversation, Finding } from '../protocol.js';
import { branchCount } from '../thread/branches.js';
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
  const amb = c.rounds.find((r) => r.link === 'ambiguous');
  const startedAt = first?.sentAt ?? index.bySeq.get(c.exchanges[0])?.record.startedAt ?? 0;
  return {
    id: c.id, method: c.method, name: c.name, era: c.era, rounds: c.rounds.length, status: c.status,
    findings: findingCounts(index.findingsByConversation.get(c.id)),
    firstSeq: c.exchanges[0] ?? -1,
    startedAt,
    durationMs: callDuration(c.rounds, startedAt),
    hasState: c.rounds.some((r) => r.stateSent !== null || r.stateIssued !== null),
    ambiguous: amb !== undefined,
    ...(amb ? { ambiguity: { reason: amb.linkReason ?? null, candidates: amb.candidates ?? [] } } : {}),
    httpStatus: lastSeq !== undefined ? (index.bySeq.get(lastSeq)?.record.response?.status ?? null) : null,
    ...(c.task !== undefined ? { task: true as const } : {}),
    ...consoleFields(c),
    ...tamperCounts(c, index.findingsByConversation.get(c.id)),
  };
}

/** The findings about its tamper tests' exchanges (a tamper test may join the call it tampers with), when there are any. */
function tamperCounts(c: Conversation, findings: readonly Finding[] | undefined): Pick<ConversationSummary, 'expected'> {
  if (findings === undefined || findings.length === 0 || !c.rounds.some((r) => r.origin === 'tamper')) return {};
  const tampered = new Set<number>();
  for (const r of c.rounds) if (r.origin === 'tamper') tampered.add(r.exchange);
  const n = findingCounts(findings.filter((f) => tampered.has(f.exchange)));
  return n.error + n.warning + n.info > 0 ? { expected: n } : {};
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
