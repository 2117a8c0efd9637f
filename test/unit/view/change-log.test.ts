// What recent builds changed (worker/view/change-log.ts): a page behind by a few builds gets
// the rows changed and removed since, netted; one too far behind gets null.
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
});
