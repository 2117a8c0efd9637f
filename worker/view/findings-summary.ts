// The page's session-wide findings summary: findings repeated on one server (same rule,
// same severity) become one entry with a count and its occurrences, as in the text report;
// the rest stay one entry each. Pure, so the CLI's grouping and the page's cannot drift.
// Findings about the Console's experiments (forks, edits, re-sends, tamper tests) are grouped
// apart: each is the server's answer to a test the developer ran, not a fault of the session.
import type { Conversation, Finding, OriginKind, Severity } from '../protocol.js';
import { experimentFlags, hasExperiments, isExperimentOrigin } from '../thread/experiments.js';
import { groupFindings } from '../report/group-findings.js';
import { serverOf } from '../tokens/server-of.js';

/** Where one finding occurred: its exchange (seq and id) and its conversation. */
export interface FindingOccurrence {
  exchange: number;
  /** The exchange record's id, or null when the seq is not in the session (should not happen). */
  exchangeId: string | null;
  conversation: string | null;
  /** What a person calls it: the conversation's tool (params.name/uri) or else its method. */
  call: string | null;
  /** Index of the round the exchange carried in its conversation, or null. */
  round: number | null;
  /** When the exchange started (ms since the epoch), or null when not known. */
  at: number | null;
  message: string;
}

/** One line of the summary: a group (count ≥ 2) or a single finding (count 1). */
export interface FindingsEntry {
  rule: string;
  severity: Severity;
  clause: string;
  server: string;
  count: number;
  grouped: boolean;
  occurrences: FindingOccurrence[];
}

export interface FindingsSummary {
  entries: FindingsEntry[];
  /** Findings in all (the sum of the counts), the Console's experiments' not included. */
  total: number;
  /** The findings about the Console's experiments, grouped the same way, apart. */
  experiments: FindingsEntry[];
  /** How many findings `experiments` holds. */
  experimentTotal: number;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Groups a session's findings for the page. `records` maps seqs to exchange ids, URLs and
 * start times; `conversations` names each occurrence's call and round.
 * Entries come errors first, then warnings, then infos; within a severity, in the order of
 * their first finding.
 */
export function findingsSummary(
  findings: readonly Finding[],
  records: readonly { seq: number; id: string; startedAt?: number; request: { url: string }; origin?: { kind: OriginKind } }[],
  conversations: Iterable<Conversation> = [],
): FindingsSummary {
  const bySeq = new Map<number, { id: string; url: string; at: number | null }>();
  const tried = new Set<number>();
  for (const r of records) {
    bySeq.set(r.seq, { id: r.id, url: r.request.url, at: r.startedAt ?? null });
    if (isExperimentOrigin(r.origin?.kind)) tried.add(r.seq);
  }
  const byId = new Map<string, Conversation>();
  for (const c of conversations) {
    byId.set(c.id, c);
    if (!hasExperiments(c.rounds)) continue;
    const flags = experimentFlags(c.rounds);
    c.rounds.forEach((r, i) => { if (flags[i]) tried.add(r.exchange); });
  }
  const own = findings.filter((f) => !tried.has(f.exchange));
  const apart = own.length === findings.length ? [] : findings.filter((f) => tried.has(f.exchange));
  const callOf = (f: Finding): { call: string | null; round: number | null } => {
    const c = f.conversation === null ? undefined : byId.get(f.conversation);
    if (!c) return { call: null, round: null };
    const round = c.rounds.findIndex((r) => r.exchange === f.exchange);
    return { call: c.name ?? c.method, round: round < 0 ? null : round };
  };
  const servers = new Map<string, string>();
  const server = (seq: number): string => {
    const url = bySeq.get(seq)?.url ?? '';
    let s = servers.get(url);
    if (s === undefined) servers.set(url, (s = url === '' ? '(no server)' : serverOf(url)));
    return s;
  };
  const occurrence = (f: Finding): FindingOccurrence => ({
    exchange: f.exchange, exchangeId: bySeq.get(f.exchange)?.id ?? null, conversation: f.conversation,
    ...callOf(f), at: bySeq.get(f.exchange)?.at ?? null, message: f.message,
  });
  const group = (list: readonly Finding[]): FindingsEntry[] => entriesOf(list, server, occurrence);
  return { entries: group(own), total: own.length, experiments: group(apart), experimentTotal: apart.length };
}

/** Groups findings into entries: errors first, then warnings, then infos; within a
 *  severity, in the order of their first finding. */
function entriesOf(findings: readonly Finding[], server: (seq: number) => string, occurrence: (f: Finding) => FindingOccurrence): FindingsEntry[] {
  const { groups, rest } = groupFindings(findings, server);
  const first = new Map<Finding, number>();
  findings.forEach((f, i) => first.set(f, i));
  const ranked: { at: number; entry: FindingsEntry }[] = [
    ...groups.map((g) => ({
      at: first.get(g.findings[0]) ?? 0,
      entry: { rule: g.rule, severity: g.severity, clause: g.clause, server: g.server, count: g.findings.length, grouped: true, occurrences: g.findings.map(occurrence) },
    })),
    ...rest.map((f) => ({
      at: first.get(f) ?? 0,
      entry: { rule: f.rule, severity: f.severity, clause: f.clause, server: server(f.exchange), count: 1, grouped: false, occurrences: [occurrence(f)] },
    })),
  ];
  ranked.sort((x, y) => RANK[x.entry.severity] - RANK[y.entry.severity] || x.at - y.at);
  return ranked.map((r) => r.entry);
}
