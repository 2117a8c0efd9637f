// How a round was joined to its conversation, in the words the round card shows. A step of
// the tasks extension (tasks/get, tasks/update, tasks/cancel) is joined by its taskId: its
// link is `match` in the lint output (whose link values are fixed), but it was not matched
// by method, name and answer keys, and must not read as if it were.
import type { Round } from '../protocol.js';

const LINK_TEXT: Record<string, string> = {
  state: '↪ linked by echoed requestState',
  match: '≈ linked by method, name and answer keys',
  ambiguous: '⚠ ambiguous: more than one open call fits',
  derived: '⤷ a branch made in the Console, sibling of the round it came from;',
};

/** The card's line for how `r` was linked ("not linked" for a first round). */
export function roundLinkText(r: Pick<Round, 'link' | 'task'>): string {
  if (r.link === 'match' && r.task !== undefined && r.task.step !== 'create') return '⇢ linked by its taskId';
  return LINK_TEXT[r.link ?? ''] ?? 'not linked';
}
