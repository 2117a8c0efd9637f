// The whole text of each conversation-list cell, for its title: a narrow column cuts a
// cell's tags and badges (a branch count, a second severity), and hovering must still tell
// everything the cell would show. Each title repeats the cell's visible text (icons and
// numbers as drawn) and spells out what the tags mean. Pure: the list renders these.
import type { ConversationSummary } from '../../worker/facade.js';
import { originLabel } from './run-groups.js';
import { SEV_ICON, SEVERITIES } from './severity.js';

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

export function nameTitle(c: ConversationSummary): string {
  const parts = [c.origin ? `${originLabel(c.origin)} (sent by the Console)` : '', c.name ?? c.method, c.task ? 'task (runs as a task)' : '',
    c.era === 'legacy' ? 'legacy (2025-11-25)' : ''];
  return parts.filter(Boolean).join(' · ');
}

export function roundsTitle(c: ConversationSummary): string {
  const parts = [`${c.rounds} (${plural(c.rounds, 'round')})`];
  if (c.branches) parts.push(`${c.branches} (${c.branches} branches: forks, edits or re-used tokens)`);
  if (c.hasState) parts.push('state (carries requestState)');
  if (c.ambiguous) parts.push('? (a round was linked ambiguously)');
  return parts.join(' · ');
}

export function findingsTitle(c: ConversationSummary): string {
  const word = { error: 'error', warning: 'warning', info: 'info' } as const;
  return SEVERITIES.filter((s) => c.findings[s] > 0)
    .map((s) => `${SEV_ICON[s]} ${c.findings[s]} (${c.findings[s] === 1 || s === 'info' ? `${c.findings[s]} ${word[s]}` : plural(c.findings[s], word[s])})`)
    .join(' · ');
}
