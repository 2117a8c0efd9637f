// Appending to the live threading names the conversations that grew from what the Threader
// did, without comparing every conversation: it must name exactly those whose rounds or
// exchanges changed (a comparison of every conversation's counts, done here by the test),
// in conversation order, and thread like the whole capture at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeExchange } from '../../../worker/decode/exchange.js';
import { ThreadState, usesLegacyLinking, type ThreadInput } from '../../../worker/engine/thread-state.js';
import type { Conversation } from '../../../worker/protocol.js';
import { build, step } from '../../support/live-capture.js';

const counts = (cs: readonly Conversation[]) => cs.map((c) => `${c.rounds.length}/${c.exchanges.length}`);

describe('live threading', () => {
  it('reports as grown exactly the conversations an append created or added to, in conversation order (property)', () => {
    const arb = fc.tuple(fc.array(step, { minLength: 2, maxLength: 16 }), fc.integer({ min: 1, max: 15 }), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 16, maxLength: 16 }));
    fc.assert(fc.property(arb, ([steps, first, sizes]) => {
      const inputs: ThreadInput[] = build(steps).map((record) => ({ record, decoded: decodeExchange(record) }));
      fc.pre(inputs.every((e) => !usesLegacyLinking(e.record, e.decoded)));
      const states = { get: () => 'complete' as const };
      const live = new ThreadState();
      let convs = live.rebuild(inputs.slice(0, first), false, states).conversations;
      let at = Math.min(first, inputs.length);
      for (const size of sizes) {
        if (at >= inputs.length) break;
        const batch = inputs.slice(at, at + size);
        at += batch.length;
        if (!batch.every((e) => live.appendable(e.record))) return;
        const before = counts(convs);
        const th = live.append(batch, false, states);
        const after = counts(th.conversations);
        const expected = th.conversations.filter((_, i) => i >= before.length || before[i] !== after[i]);
        expect(th.grown.map((c) => c.id)).toEqual(expected.map((c) => c.id));
        convs = th.conversations;
      }
      const whole = new ThreadState().rebuild(inputs.slice(0, at), false, states).conversations;
      expect(convs).toEqual(whole);
    }), { numRuns: 400 });
  });
});
