// What a live step checks again (worker/engine/recheck-scope.ts): every subject a rule could
// see a change from, so that a live session's findings stay those of the batch analysis.
import { describe, expect, it } from 'vitest';
import { ConversationIndex } from '../../../worker/engine/conversation-index.js';
import { affectedConversations, compareThreadings, earliestToolList, recheckScope, type ScopeSources } from '../../../worker/engine/recheck-scope.js';
import type { Conversation } from '../../../worker/protocol.js';
import type { StateOrigin } from '../../../worker/thread/threader.js';
import { conv, round } from './engine-helpers.js';

/** Sources over these conversations; every seq below `held` holds an exchange but `gaps`. */
function sources(convs: Conversation[], issued: Record<string, StateOrigin[]> = {}, held = 10, gaps: number[] = []): ScopeSources {
  const index = new ConversationIndex();
  index.reset(convs);
  return {
    conversations: convs, index,
    entries: { length: held, at: (s) => (s < held && !gaps.includes(s) ? ({} as never) : undefined) },
    issuedBy: (t) => issued[t] ?? [],
  };
}

describe('comparing a re-thread with the threading before it', () => {
  it('calls new and different conversations changed and missing ones removed, keeping the old objects of both', () => {
    const same = [conv('c0', [round(0, 10)]), conv('c1', [round(1, 20)]), conv('c2', [round(2, 30)])];
    const before = structuredClone(same);
    const after = [structuredClone(same[0]), { ...structuredClone(same[1]), status: 'complete' as const }, conv('c3', [round(3, 40)])];
    const d = compareThreadings(before, after, () => 'v1');
    expect([...d.changed]).toEqual(['c1', 'c3']);
    expect([...d.removed]).toEqual(['c2']);
    expect(d.changedConvs).toEqual([after[1], after[2]]);
    expect(d.oldConvs).toEqual([before[1], before[2]]);
    expect(d.now.get('c0')).toBe(after[0]);
  });

  it('finds nothing changed when a re-thread gives the same conversations as new objects', () => {
    const before = [conv('c0', [round(0, 10)]), conv('c1', [round(1, 20)])];
    const after = structuredClone(before);
    const d = compareThreadings(before, after, () => 'v1');
    expect([d.changed.size, d.removed.size, d.changedConvs.length, d.oldConvs.length]).toEqual([0, 0, 0, 0]);
    expect(d.now.get('c1')).toBe(after[1]);
  });
});

describe('the scope of a re-check', () => {
  it('finds the earliest exchange of a tools/list among the conversations given', () => {
    expect(earliestToolList([conv('c0', [round(4, 1)])], [conv('c1', [round(7, 1), round(5, 2)], 'tools/list')], [conv('c2', [round(6, 1)], 'tools/list')])).toBe(5);
    expect(earliestToolList([conv('c0', [round(4, 1)])])).toBe(Infinity);
  });

  it('reaches the conversation that issued a token a changed one echoed, and those that echoed a token it issued', () => {
    const issuer = conv('c0', [round(0, 10, { issued: 't1' })]);
    const changed = conv('c1', [round(1, 20, { sent: 't1', issued: 't2' })]);
    const echoer = conv('c2', [round(2, 5, { sent: 't2' })]);
    const bystander = conv('c3', [round(3, 4)]);
    const src = sources([issuer, changed, echoer, bystander], { t1: [{ conversation: issuer, round: 0 }], t2: [{ conversation: changed, round: 0 }] });
    // Answered at 21: nothing was first sent after it, so only the token's reach counts.
    expect(affectedConversations([changed], [], src).map((c) => c.id)).toEqual(['c1', 'c0', 'c2']);
  });

  it('reaches every call first sent at or after the earliest answer a changed conversation got', () => {
    const early = conv('c0', [round(0, 10)]);
    const changed = conv('c1', [round(1, 20)]);
    const later = conv('c2', [round(2, 21)]);
    const before = conv('c3', [round(3, 15)]);
    const last = conv('c4', [round(4, 30)]);
    const src = sources([early, changed, later, before, last]);
    expect(affectedConversations([changed], [], src).map((c) => c.id)).toEqual(['c1', 'c4', 'c2']);
  });

  it('leaves out conversations the index no longer holds, as an old one of a re-thread', () => {
    const gone = conv('c0', [round(0, 10)]);
    const src = sources([conv('c1', [round(1, 5)])]);
    expect(affectedConversations([], [gone], src)).toEqual([]);
  });

  it('re-checks the exchanges touched, changed and removed, and every exchange from a changed tools/list on with its conversations', () => {
    const a = conv('c0', [round(0, 1)]);
    const list = conv('c1', [round(1, 2)], 'tools/list');
    // Sent before the list was answered: only the list's reach takes them in.
    const b = conv('c2', [round(2, 1)]);
    const c = conv('c3', [round(4, 1)]);
    const src = sources([a, list, b, c], {}, 5, [3]);
    const scope = recheckScope({ changedConvs: [list], oldConvs: [], touched: [1], removed: [3], listedFrom: earliestToolList([list]) }, src);
    expect([...scope.seqs]).toEqual([1, 3, 2, 4]);
    expect(scope.convs.map((x) => x.id)).toEqual(['c1', 'c2', 'c3']);
    const none = recheckScope({ changedConvs: [a], oldConvs: [], touched: [0], removed: [], listedFrom: Infinity }, src);
    expect([...none.seqs]).toEqual([0]);
    // c0 answered at 2: the tools/list, first sent then, is reached; the calls sent at 1 are not.
    expect(none.convs.map((x) => x.id)).toEqual(['c0', 'c1']);
  });
});
