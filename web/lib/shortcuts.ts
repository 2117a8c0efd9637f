// The keyboard map: one table drives both the key handler and the `?` sheet, so the sheet
// cannot drift from what the keys do.

export type Action =
  | 'down' | 'up' | 'open' | 'close' | 'replay' | 'edit' | 'filter' | 'search' | 'help'
  | 'tab-next' | 'tab-prev' | 'console' | 'send';

export interface Shortcut {
  keys: string[];
  action: Action;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['↓', 'j'], action: 'down', what: 'Next conversation, or next round in an open conversation' },
  { keys: ['↑', 'k'], action: 'up', what: 'Previous conversation, or previous round' },
  { keys: ['Enter'], action: 'open', what: 'Open: conversation → its rounds → the round\'s details' },
  { keys: ['Esc'], action: 'close', what: 'Close: details → rounds → list; closes dialogs' },
  { keys: ['→', 'l'], action: 'tab-next', what: 'Next detail tab' },
  { keys: ['←', 'h'], action: 'tab-prev', what: 'Previous detail tab' },
  { keys: ['r'], action: 'replay', what: 'Re-send the selected round (the same request, with a fresh JSON-RPC id)' },
  { keys: ['e'], action: 'edit', what: 'Edit the selected round and re-send it' },
  { keys: ['c'], action: 'console', what: 'Open the Console (call, step through, fork, tamper tests, replay)' },
  { keys: ['Ctrl+Enter'], action: 'send', what: 'Send the retry or the edited request shown in the Console' },
  { keys: ['/'], action: 'filter', what: 'Focus the filter box' },
  { keys: ['Ctrl+F'], action: 'search', what: 'Full-text search (free text in the filter searches bodies)' },
  { keys: ['?'], action: 'help', what: 'This sheet' },
];

/** The action a key press asks for, or null. Typing in a field only ever gets Esc. */
export function actionOf(e: KeyboardEvent, typing: boolean): Action | null {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') return 'search';
  if (e.key === 'Escape') return 'close';
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key === 'Enter') return 'send';
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'ArrowDown': case 'j': return 'down';
    case 'ArrowUp': case 'k': return 'up';
    case 'ArrowRight': case 'l': return 'tab-next';
    case 'ArrowLeft': case 'h': return 'tab-prev';
    case 'Enter': return 'open';
    case 'r': return 'replay';
    case 'e': return 'edit';
    case 'c': return 'console';
    case '/': return 'filter';
    case '?': return 'help';
    default: return null;
  }
}
