// The list's rows with Console runs folded: the conversations one Console action sent
// together share a run id; a connect's discovery calls, a tamper run and the calls a check
// drove show as one group
// row, at the place of the run's first conversation, that opens to show them. A replay is
// left unfolded: it is a session of its own, and its rows are what that session is for.
// Pure: the list component renders what this returns.
import type { ConversationSummary, FindingCounts, OriginKind } from '../../worker/facade.js';

/** The origins whose runs fold into one row. */
const FOLDED: ReadonlySet<OriginKind | undefined> = new Set<OriginKind | undefined>(['discovery', 'tamper', 'check']);

/** Whether `c` belongs to a run that folds (a group row once the run has two or more). */
export function folds(c: ConversationSummary): boolean {
  return c.run !== undefined && FOLDED.has(c.origin);
}

export type ListEntry =
  | { kind: 'row'; item: ConversationSummary; member: boolean }
  | { kind: 'group'; run: string; origin: OriginKind | null; count: number; open: boolean; findings: FindingCounts };

/**
 * The rows to draw. A run of two or more conversations becomes a group row followed, when
 * `open` holds its id or the selection is one of them, by its members (in list order).
 */
export function groupRuns(items: readonly ConversationSummary[], open: ReadonlySet<string>, selected: string | null): ListEntry[] {
  const members = new Map<string, ConversationSummary[]>();
  for (const c of items) if (c.run !== undefined && folds(c)) {
    const list = members.get(c.run);
    if (list) list.push(c);
    else members.set(c.run, [c]);
  }
  const out: ListEntry[] = [];
  const placed = new Set<string>();
  for (const c of items) {
    const run = c.run;
    const group = run !== undefined ? members.get(run) : undefined;
    if (run === undefined || group === undefined || group.length < 2) {
      out.push({ kind: 'row', item: c, member: false });
      continue;
    }
    if (placed.has(run)) continue;
    placed.add(run);
    const findings: FindingCounts = { error: 0, warning: 0, info: 0 };
    for (const m of group) {
      findings.error += m.findings.error;
      findings.warning += m.findings.warning;
      findings.info += m.findings.info;
    }
    const isOpen = open.has(run) || group.some((m) => m.id === selected);
    out.push({ kind: 'group', run, origin: group[0].origin ?? null, count: group.length, open: isOpen, findings });
    if (isOpen) for (const m of group) out.push({ kind: 'row', item: m, member: true });
  }
  return out;
}

/** What a group row calls its run. */
export function runLabel(origin: OriginKind | null): string {
  switch (origin) {
    case 'discovery': return 'discovery on connect';
    case 'tamper': return 'tamper tests';
    case 'replay': return 'replay';
    case 'check': return 'Check this server';
    default: return origin ? `${origin} run` : 'Console run';
  }
}

/** The short label of a Console origin, as rows and rounds show it. */
export function originLabel(origin: OriginKind): string {
  return origin === 'resend' ? 're-send' : origin;
}
