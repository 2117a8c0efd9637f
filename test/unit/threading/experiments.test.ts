// Which rounds of a conversation are the Console's experiments (worker/thread/experiments.ts):
// a fork, edit, re-send or tamper test and every round that continues one; the rest are
// the call's own, and a conversation of experiments only is its own call.
import { describe, expect, it } from 'vitest';
import { callRounds, experimentFlags, lastCallRound } from '../../../worker/thread/experiments.js';
import type { OriginKind } from '../../../worker/protocol.js';

const r = (parent: number | null, origin?: OriginKind) => ({ parent, ...(origin ? { origin } : {}) });

describe('Console experiments in a conversation', () => {
  it('marks an experiment and the rounds that continue it, never the call\'s own rounds', () => {
    // 0 ← 1 ← 2 (captured); 3 forks 1 (parent 0), 4 steps on from it; 5 re-sends 2; 6 a tamper test.
    const rounds = [r(null), r(0), r(1), r(0, 'fork'), r(3, 'step'), r(1, 'resend'), r(1, 'tamper')];
    expect(experimentFlags(rounds)).toEqual([false, false, false, true, true, true, true]);
    expect(callRounds(rounds)).toEqual({ own: [0, 1, 2], experiment: false });
    expect(lastCallRound(rounds)).toBe(2);
  });

  it('judges the Console\'s own call (call and step) and a replay as any client\'s', () => {
    const rounds = [r(null, 'call'), r(0, 'step'), r(1, 'step'), r(null, 'replay')];
    expect(experimentFlags(rounds)).toEqual([false, false, false, false]);
    expect(lastCallRound(rounds)).toBe(3);
  });

  it('reads a conversation of experiments only as one call of its own', () => {
    const rounds = [r(null, 'tamper'), r(0, 'step')];
    expect(callRounds(rounds)).toEqual({ own: [0, 1], experiment: true });
    expect(lastCallRound(rounds)).toBe(1);
  });

  it('reads a parent that is missing or not earlier as none, so it always ends', () => {
    expect(experimentFlags([r(null), r(5), r(2, 'edit'), r(2)])).toEqual([false, false, true, true]);
  });
});
