// The branch tree of a conversation's rounds, counted as the Console's stepper counts it.
import { describe, expect, it } from 'vitest';
import { branchCount, branchesOf } from '../../../worker/thread/branches.js';

const rounds = (parents: (number | null)[]) => parents.map((parent) => ({ parent }));

describe('branches', () => {
  it('reads a straight chain as one branch', () => {
    expect(branchesOf(rounds([null, 0, 1]))).toEqual([{ leaf: 2, path: [0, 1, 2], from: null, depth: 0 }]);
    expect(branchCount(rounds([null, 0, 1]))).toBe(1);
  });

  it('draws a fork of round 2 as a branch from round 1, with its own rounds after it and its origin', () => {
    const rs = [...rounds([null, 0, 1, 2, 0, 4, 5])];
    Object.assign(rs[4], { origin: 'fork' });
    expect(branchesOf(rs)).toEqual([
      { leaf: 3, path: [0, 1, 2, 3], from: null, depth: 0 },
      { leaf: 6, path: [0, 4, 5, 6], from: 0, depth: 1, origin: 'fork' },
    ]);
    expect(branchCount(rs)).toBe(2);
  });

  it('nests a branch of a branch one deeper, and reads an edited first request as a new start', () => {
    const b = branchesOf(rounds([null, 0, 1, 1, 3, 3, null]));
    expect(b.map((x) => [x.leaf, x.from, x.depth])).toEqual([[2, null, 0], [4, 1, 1], [5, 3, 2], [6, null, 1]]);
  });

  it('ends on malformed parents (forward or out of range), reading them as none', () => {
    expect(branchesOf(rounds([null, 5, 1])).map((x) => x.path)).toEqual([[0], [1, 2]]);
  });
});
