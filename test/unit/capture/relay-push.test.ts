// The page rebuilds a relay exchange from its pushes: the whole record once, then deltas
// applied in order. A delta it cannot place (no base, a gap in the events) is refused
// rather than stored as a record with a hole.
import { describe, expect, it } from 'vitest';
import { applyPush, deltaPush, recordPush } from '../../../worker/capture/relay-push.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

function streaming(events: number): ExchangeRecord {
  return {
    v: 1, id: 'x', seq: 3, source: 'relay', startedAt: 1000, state: 'streaming',
    request: { method: 'POST', url: 'http://t/mcp', headers: [], body: '{}' },
    response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], receivedAt: 1001, events: Array.from({ length: events }, (_, i) => ({ data: `e${i}`, t: 1002 + i })) },
  };
}

describe('relay pushes', () => {
  it('rebuild the record from a whole push and the deltas after it', () => {
    const live = new Map<string, ExchangeRecord>();
    const take = (m: unknown) => {
      const r = JSON.parse(JSON.stringify(applyPush(JSON.parse(JSON.stringify(m)), (id) => live.get(id)))) as ExchangeRecord;
      live.set(r.id, r);
      return r;
    };
    take(recordPush(streaming(2)));
    take(deltaPush(streaming(5), 'event', 2));
    const end = { ...streaming(6), state: 'complete' as const, endedAt: 2000 };
    end.response!.tail = 'data: cut';
    const last = take(deltaPush(end, 'end', 5));
    expect(last).toEqual(end);
  });

  it('carry only the events the page does not hold yet', () => {
    const d = deltaPush(streaming(5), 'event', 3);
    expect(d.from).toBe(3);
    expect(d.events!.map((e) => e.data)).toEqual(['e3', 'e4']);
    expect(d.response).toBeUndefined();
  });

  it('refuse a delta without its base, or one that leaves a gap in the events', () => {
    expect(applyPush(deltaPush(streaming(3), 'event', 0), () => undefined)).toBeUndefined();
    expect(applyPush(deltaPush(streaming(5), 'event', 3), () => streaming(2))).toBeUndefined();
  });

  it('take a bare record of the older format whole, and ignore an unknown version', () => {
    expect(applyPush(streaming(1), () => undefined)?.response?.events).toHaveLength(1);
    expect(applyPush({ ...recordPush(streaming(1)), push: 2 }, () => undefined)).toBeUndefined();
  });
});
