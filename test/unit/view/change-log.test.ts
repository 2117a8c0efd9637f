// What recent builds changed (worker/view/change-log.ts): a page behind by a few builds gets
// the rows changed and removed since, netted; one too far behind gets null. Deferred check
// changes are held back until a build that publishes them.
import { describe, expect, it } from 'vitest';
import { ChangeLog } from '../../../worker/view/change-log.js';

const ids = (...xs: string[]) => new Set(xs);

describe('the change log', () => {
  it('nets the changes since a build: a row changed then removed is removed, one removed then back is changed', () => {
    const log = new ChangeLog();
    log.add(1, ids('a', 'b'), ids());
    log.add(2, ids('c'), ids('a'));
    log.add(3, ids('b'), ids('c'));
    log.add(4, ids('a'), ids());
    expect(log.since(1, 4)).toEqual({ changed: ids('b', 'a'), removed: ids('c') });
    expect(log.since(0, 1)).toEqual({ changed: ids('a', 'b'), removed: ids() });
  });

  it('tells nothing changed since the build itself, and reads no further than the build asked about', () => {
    const log = new ChangeLog();
    log.add(1, ids('a'), ids());
    log.add(2, ids('b'), ids());
    expect(log.since(2, 2)).toEqual({ changed: ids(), removed: ids() });
    // Build 1 asked after build 2 was logged: only what build 1 changed since build 0.
    expect(log.since(0, 1)).toEqual({ changed: ids('a'), removed: ids() });
  });

  it('gives null for a build older than it remembers, or later than the one asked about', () => {
    const log = new ChangeLog(2);
    for (let e = 1; e <= 4; e++) log.add(e, ids(`r${e}`), ids());
    expect(log.since(1, 4)).toBeNull();
    expect(log.since(2, 4)).toEqual({ changed: ids('r3', 'r4'), removed: ids() });
    expect(log.since(4, 3)).toBeNull();
  });

  it('holds back what deferring builds changed until one publishes it; a read in between logs its own, removals at once', () => {
    const log = new ChangeLog();
    log.logBuild(1, ids('a', 'b'), ids(), 5, 'defer');
    log.logBuild(2, ids('c'), ids(), 4, 'defer');
    expect(log.unpublished).toBe(3);
    expect(log.since(0, 2)).toEqual({ changed: ids(), removed: ids() });
    // A page's read: its own row (b, held back too, is logged now and no longer held).
    log.logBuild(3, ids('live', 'b'), ids(), 4, 'own');
    expect(log.since(2, 3)).toEqual({ changed: ids('live', 'b'), removed: ids() });
    // A removal goes at once, and what it removed is no longer held.
    log.logBuild(4, ids(), ids('c'), 4, 'defer');
    expect(log.since(3, 4)).toEqual({ changed: ids(), removed: ids('c') });
    expect(log.unpublished).toBe(1);
    // A told slice publishes the rest with its own.
    log.logBuild(5, ids('d'), ids(), 2, 'all');
    expect(log.since(4, 5)).toEqual({ changed: ids('a', 'd'), removed: ids() });
    expect(log.unpublished).toBe(0);
  });

  it('logs everything held back once nothing is left unchecked, whatever the build', () => {
    for (const mode of ['defer', 'own'] as const) {
      const log = new ChangeLog();
      log.logBuild(1, ids('a'), ids(), 3, 'defer');
      log.logBuild(2, ids('b'), ids(), 0, mode);
      expect(log.since(1, 2)).toEqual({ changed: ids('a', 'b'), removed: ids() });
      expect(log.unpublished).toBe(0);
    }
  });
});
