// The rule the page's relay feed (worker/capture/relay-feed.ts) and the storage merge use to take
// relay snapshots that arrive twice and out of order (event stream and backlog overlap).
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord, ExchangeState } from '../../../worker/protocol.js';
import { supersedes } from '../../../worker/storage/exchanges.js';

function snap(state: ExchangeState, events?: number): ExchangeRecord {
  return {
    v: 1, id: 'x', seq: 0, source: 'relay', startedAt: 1, state,
    request: { method: 'POST', url: 'http://127.0.0.1/demo/mcp', headers: [] },
    ...(state === 'pending' ? {} : {
      response: { status: 200, headers: [], receivedAt: 2, ...(events === undefined ? {} : { events: Array.from({ length: events }, (_, i) => ({ t: 3 + i, data: '{}' })) }) },
    }),
  };
}

describe('which relay snapshot of an exchange wins', () => {
  it('a later state replaces an earlier one, never the reverse', () => {
    const order = [snap('pending'), snap('streaming'), snap('complete')];
    for (let i = 0; i < order.length; i++) {
      for (let j = 0; j < order.length; j++) expect(supersedes(order[i], order[j])).toBe(i > j);
    }
    expect(supersedes(snap('aborted'), snap('streaming', 3))).toBe(true);
    expect(supersedes(snap('streaming', 3), snap('failed'))).toBe(false);
  });

  it('while streaming, the copy with more events wins', () => {
    expect(supersedes(snap('streaming', 2), snap('streaming', 1))).toBe(true);
    expect(supersedes(snap('streaming', 1), snap('streaming', 2))).toBe(false);
  });

  it('an identical copy delivered twice changes nothing', () => {
    for (const s of [snap('pending'), snap('streaming', 1), snap('complete', 2)]) expect(supersedes(s, structuredClone(s))).toBe(false);
  });

  it('once final, another final copy does not replace it', () => {
    expect(supersedes(snap('aborted'), snap('complete'))).toBe(false);
    expect(supersedes(snap('complete', 5), snap('complete', 2))).toBe(false);
  });
});
