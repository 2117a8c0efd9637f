// How a severity looks, in one place: the list's badges, a round's badge, the detail pane's
// findings and the status bar all take their icon and class from here, so an error never
// reads as a warning in one pane and an error in another.
export type Severity = 'error' | 'warning' | 'info';

/** Worst first. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** The icon beside a severity (text, not colour alone, carries the meaning). */
export const SEV_ICON: Record<Severity, string> = { error: '✖', warning: '▲', info: 'ℹ' };

/** Per-severity counts of a list of findings. */
export function countBySeverity(findings: readonly { severity: Severity }[]): Record<Severity, number> {
  const n: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) n[f.severity]++;
  return n;
}

/** The worst severity among the findings, or null when there are none. */
export function worstSeverity(findings: readonly { severity: Severity }[]): Severity | null {
  const n = countBySeverity(findings);
  return SEVERITIES.find((s) => n[s] > 0) ?? null;
}

/** "2 errors, 1 warning": the non-zero counts, worst first. */
export function severityText(n: Record<Severity, number>): string {
  const word = { error: 'error', warning: 'warning', info: 'info' } as const;
  return SEVERITIES.filter((s) => n[s] > 0).map((s) => `${n[s]} ${word[s]}${n[s] === 1 || s === 'info' ? '' : 's'}`).join(', ');
}
