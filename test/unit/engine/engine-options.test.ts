// The lint options an engine runs its rules with (worker/engine/engine-options.ts).
import { describe, expect, it } from 'vitest';
import { lintOptionsOf } from '../../../worker/engine/engine-options.js';
import { DEFAULT_LINT_OPTIONS } from '../../../worker/lint/rule.js';

describe('engine options', () => {
  it('runs lint with the default bounds and no keys when nothing is set', () => {
    expect(lintOptionsOf({})).toEqual({ ...DEFAULT_LINT_OPTIONS, keysGiven: false });
  });

  it('counts keys as given when keys per server are, unless told otherwise, and takes the bounds given', () => {
    expect(lintOptionsOf({ keysFor: () => [] }).keysGiven).toBe(true);
    expect(lintOptionsOf({ keysFor: () => [], keysGiven: false }).keysGiven).toBe(false);
    expect(lintOptionsOf({ keysGiven: true }).keysGiven).toBe(true);
    expect(lintOptionsOf({ maxRounds: 3, ttlBoundSeconds: 9 })).toMatchObject({ maxRounds: 3, ttlBoundSeconds: 9 });
  });
});
