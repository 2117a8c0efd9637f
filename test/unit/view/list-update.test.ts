// The unfiltered status bar of a list update is kept from per-row sums, not counted over
// every row: after appends, live answers, held copies and their release (rows removed), it
// must still read what a whole list of the same build, and of a session built afresh, reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { SessionModel, type UnsavedExchange } from '../../../worker/view/session-model.js';
import { listOf, listUpdate } from '../../../worker/view/session-list.js';
import { build, step, versions } from '../../support/live-capture.js';

const noKeys = () => [];
const stored = (r: ExchangeRecord) => structuredClone({ ...r, session: 's1' }) as StoredExchange;
/** A copy storage refused, never stored (no seq): it is listed after every stored one. */
const held = (r: ExchangeRecord): UnsavedExchange => {
  const { seq: _seq, v: _v, ...rest } = structuredClone({ ...r, session: 's1' });
  return { ...rest, id: `held-${r.id}` } as UnsavedExchange;
};

describe('list updates', () => {
  it('count errors, warnings and rows as the whole list does after appends, live answers, holds and releases (property)', async () => {
    const arb = fc.tuple(fc.array(step, { minLength: 2, maxLength: 12 }), fc.array(fc.constantFrom('put', 'pending', 'hold', 'release'), { minLength: 12, maxLength: 12 }));
    await fc.assert(fc.asyncProperty(arb, async ([steps, plan]) => {
      const records = build(steps);
      const model = new SessionModel();
      const holding: UnsavedExchange[] = [];
      let epoch: number | null = null;
      for (const [i, r] of records.entries()) {
        const what = plan[i % plan.length];
        if (what === 'pending') {
          model.put([stored(versions(r)[0])]);
          await model.built(noKeys, 0);
        }
        if (what === 'hold') {
          holding.push(held(r));
          model.hold([holding[holding.length - 1]]);
        } else if (what === 'release' && holding.length > 0) model.release([holding.shift()!.id]);
        model.put([stored(r)]);
        const b = await model.built(noKeys, 0);
        const update = listUpdate(b, '', epoch);
        const whole = listOf(b, '');
        if (update.kind === 'delta') expect(update.stats).toEqual(whole.stats);
        epoch = update.epoch;
      }
      model.release(holding.map((h) => h.id));
      const b = await model.built(noKeys, 0);
      const update = listUpdate(b, '', epoch);
      expect(update.kind).toBe('delta');
      if (update.kind === 'delta') {
        expect(update.stats).toEqual(listOf(b, '').stats);
        expect(update.stats).toEqual(listOf(await new SessionModel(records.map(stored)).built(noKeys, 0), '').stats);
      }
    }), { numRuns: 150 });
  }, 120_000);
});
