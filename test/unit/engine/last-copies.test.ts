// Which copy of a repeated exchange the analysis keeps.
import { describe, expect, it } from 'vitest';
import { lastOfEachSeq } from '../../../worker/engine/last-copies.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

describe('lastOfEachSeq', () => {
  it('keeps the last copy of a repeated seq, in input order, and says null when nothing repeats', () => {
    const r = (seq: number) => ({ seq }) as ExchangeRecord;
    expect(lastOfEachSeq([r(0), r(1), r(2)])).toBeNull();
    expect(lastOfEachSeq([r(0), r(1), r(0), r(2)])).toEqual([false, true, true, true]);
  });
});
