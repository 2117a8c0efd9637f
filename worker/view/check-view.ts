// What the page's "Check this server" shows: the check's report grouped per call target,
// each target's probes failed first (then warnings, passed, not applicable), targets with a
// failure first; and the progress of a running check. Pure: built from a CheckRun.
import type { Finding } from '../protocol.js';
import { checkFailed } from '../check/report-text.js';
import type { CheckRun, ProbeId, ProbeResult, ProbeVerdict, Skipped } from '../check/types.js';

/** One probe as a row: its verdict and clause, and the exchange that starts its conversation. */
export type CheckProbeView = Omit<ProbeResult, 'target' | 'run'>;

/** A tool, prompt or resource and its probes, worst first. */
export interface CheckTargetView {
  target: string;
  counts: Record<ProbeVerdict, number>;
  probes: CheckProbeView[];
}

/** The report of one check in the page. */
export interface CheckView {
  target: string;
  serverInfo: string | null;
  unchecked?: 'unreachable' | 'legacy';
  notes: string[];
  skipped: Skipped[];
  calls: number;
  maxCalls: number;
  elapsedMs: number;
  summary: Record<ProbeVerdict, number>;
  /** Lint findings on the check's traffic, its probes' deliberately broken requests left out. */
  findings: { error: number; warning: number };
  /** No failed probe and no error finding: what `check` exits 0 for. */
  passed: boolean;
  /** Stopped by the user before the end. */
  stopped: boolean;
  /** The capture session the traffic was recorded into. */
  session: string | null;
  targets: CheckTargetView[];
}

/** Where a running check is. */
export interface CheckProgressView {
  calls: number;
  maxCalls: number;
  target: string;
  probe?: ProbeId;
}

/** A tool the check leaves out unless ticked, and why. */
export interface CheckGuardedTool {
  name: string;
  reason: string;
}

const RANK: Record<ProbeVerdict, number> = { failed: 0, warning: 1, passed: 2, 'not-applicable': 3 };

/** The run as the page shows it. */
export function checkView(run: CheckRun, findings: readonly Finding[], extra: { maxCalls: number; stopped: boolean; session: string | null }): CheckView {
  const byTarget = new Map<string, ProbeResult[]>();
  for (const p of run.probes) (byTarget.get(p.target) ?? byTarget.set(p.target, []).get(p.target)!).push(p);
  const targets: (CheckTargetView & { order: number; worst: number })[] = [...byTarget].map(([target, ps], order) => {
    const counts: Record<ProbeVerdict, number> = { failed: 0, warning: 0, passed: 0, 'not-applicable': 0 };
    for (const p of ps) counts[p.verdict]++;
    // A stable sort: probes of one verdict keep the order they ran in.
    const probes = [...ps].sort((a, b) => RANK[a.verdict] - RANK[b.verdict]).map(({ target: _t, run: _r, ...rest }) => rest);
    return { target, counts, probes, order, worst: Math.min(...ps.map((p) => RANK[p.verdict])) };
  });
  targets.sort((a, b) => Math.min(a.worst, 2) - Math.min(b.worst, 2) || a.order - b.order);
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    target: run.target, serverInfo: run.serverInfo, ...(run.unchecked ? { unchecked: run.unchecked } : {}), notes: [...run.notes], skipped: run.skipped.map((s) => ({ ...s })),
    calls: run.calls, maxCalls: extra.maxCalls, elapsedMs: run.elapsedMs, summary: { ...run.summary },
    findings: { error: errors, warning: findings.filter((f) => f.severity === 'warning').length },
    passed: !checkFailed(run, findings) && run.unchecked === undefined, stopped: extra.stopped, session: extra.session,
    targets: targets.map(({ order: _o, worst: _w, ...t }) => t),
  };
}
