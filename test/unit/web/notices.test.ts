// The page's notices (web/lib/notices.svelte.ts): a success leaves on its own, a warning or
// an error stays until dismissed, and a repeat counts up instead of adding a row.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Notices, SUCCESS_MS } from '../../../web/lib/notices.svelte.js';

describe('notices', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('lets a success leave after a while, and keeps warnings and errors until dismissed', () => {
    const n = new Notices();
    n.say('Saved 3 keys.', 'success');
    n.say('The relay is unreachable.', 'error');
    n.say('Export is sanitised.', 'warning');
    vi.advanceTimersByTime(SUCCESS_MS + 1);
    expect(n.items.map((x) => x.text)).toEqual(['The relay is unreachable.', 'Export is sanitised.']);
    vi.advanceTimersByTime(10 * SUCCESS_MS);
    expect(n.items).toHaveLength(2);
  });

  it('counts a repeated success up and restarts its time', () => {
    const n = new Notices();
    n.say('Copied.', 'success');
    vi.advanceTimersByTime(SUCCESS_MS - 100);
    n.say('Copied.', 'success');
    vi.advanceTimersByTime(200);
    expect(n.items.map((x) => [x.text, x.count])).toEqual([['Copied.', 2]]);
    vi.advanceTimersByTime(SUCCESS_MS);
    expect(n.items).toEqual([]);
  });
});
