// The branches of a conversation's rounds, from their `parent` links: one path per leaf (a
// round no other round continues). A fork, an edit, a re-send or a re-used token makes a
// round a sibling of another, so the rounds form a tree (or, for an edited first request, a
// forest). The Console's stepper counts branches the same way, so both say the same number.
import type { OriginKind } from '../protocol.js';

/** What branching needs of a round. */
export interface BranchRound {
  parent: number | null;
  origin?: OriginKind;
}

/** One branch: its rounds from the first to the leaf, where it leaves the branch before it, how deep it nests. */
export interface Branch {
  leaf: number;
  path: number[];
  /** The last round it shares with an earlier branch; null for the first branch and for a second root. */
  from: number | null;
  /** 0 for the first branch; one more than the branch it leaves. */
  depth: number;
  /** The origin of its first round of its own, when the Console made that round. */
  origin?: OriginKind;
}

/** How many branches the rounds form (leaves: rounds no other round continues). */
export function branchCount(rounds: readonly BranchRound[]): number {
  const continued = new Set<number>();
  for (const r of rounds) if (r.parent !== null) continued.add(r.parent);
  return rounds.length - continued.size;
}

/**
 * The branches in the order of their leaves. A parent that is missing or not earlier than
 * its round (malformed input) is read as none, so this always ends.
 */
export function branchesOf(rounds: readonly BranchRound[]): Branch[] {
  const parentOf = (i: number): number | null => {
    const p = rounds[i].parent;
    return p !== null && p >= 0 && p < i ? p : null;
  };
  const continued = new Set<number>();
  for (let i = 0; i < rounds.length; i++) {
    const p = parentOf(i);
    if (p !== null) continued.add(p);
  }
  // The branch each round was first drawn in, and that branch's depth.
  const drawnIn = new Map<number, number>();
  const out: Branch[] = [];
  for (let leaf = 0; leaf < rounds.length; leaf++) {
    if (continued.has(leaf)) continue;
    const path: number[] = [];
    for (let r: number | null = leaf; r !== null; r = parentOf(r)) path.unshift(r);
    let shared = 0;
    while (shared < path.length && drawnIn.has(path[shared])) shared++;
    const from = shared > 0 ? path[shared - 1] : null;
    const depth = out.length === 0 ? 0 : from !== null ? (out[drawnIn.get(from)!]?.depth ?? 0) + 1 : 1;
    const b: Branch = { leaf, path, from, depth };
    const own = rounds[path[shared]]?.origin;
    if (out.length > 0 && own !== undefined) b.origin = own;
    for (const r of path.slice(shared)) drawnIn.set(r, out.length);
    out.push(b);
  }
  return out;
}
