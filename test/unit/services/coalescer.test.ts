// A response streaming 1,000 events, each stored as it arrives (a notice per event), is
// analysed once per window while the events keep coming, not once per event; the last
// analysis sees the whole stream.
import { describe, expect, it } from 'vitest';
import { Coalescer, type Timers } from '../../../worker/services/coalescer.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { listOf } from '../../../worker/view/session-list.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { capture } from '../../support/capture-builder.js';

/** Timers on a clock the test moves by hand. */
class FakeClock implements Timers {
  now = 0;
  #due: { at: number; fn: () => void; id: number }[] = [];
  #next = 0;
  set(fn: () => void, ms: number): unknown {
    const id = ++this.#next;
    this.#due.push({ at: this.now + ms, fn, id });
    return id;
  }
  clear(handle: unknown): void {
    this.#due = this.#due.filter((d) => d.id !== handle);
  }
  /** Moves time on, firing what falls due, and lets the work they start settle. */
  async advance(ms: number): Promise<void> {
    this.now += ms;
    for (;;) {
      const d = this.#due.find((x) => x.at <= this.now);
      if (!d) break;
      this.#due = this.#due.filter((x) => x !== d);
      d.fn();
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setImmediate(r));
  }
}

function streamingCall(events: number): ExchangeRecord {
  const b = capture();
  const progress = Array.from({ length: events - 1 }, (_, i) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: i } }));
  b.call('tools/call', { name: 'slow', arguments: {} }, 100).complete().sse(progress);
  return b.build()[0];
}

describe('coalesced analysis', () => {
  it('analyses a 1,000-event stream once per 16 ms window, not once per event', async () => {
    const whole = streamingCall(1000);
    const events = whole.response!.events!;
    expect(events).toHaveLength(1000);
    const model = new SessionModel();
    const clock = new FakeClock();
    const coalescer = new Coalescer(() => model.built(() => [], 0), 16, clock);
    for (let n = 1; n <= events.length; n++) {
      // One stored version per event, as the tap writes them, one millisecond apart.
      const last = n === events.length;
      const version = { ...whole, state: last ? 'complete' : 'streaming', endedAt: last ? whole.endedAt : undefined, response: { ...whole.response!, events: events.slice(0, n) } } as StoredExchange;
      model.put([version]);
      coalescer.poke();
      await clock.advance(1);
    }
    await clock.advance(100);
    await coalescer.idle();
    expect(model.steps).toBeGreaterThan(1);
    expect(model.steps).toBeLessThanOrEqual(Math.ceil(1000 / 16) + 2);
    expect(coalescer.runs).toBe(model.steps);
    const list = listOf(await model.built(() => [], 0), '');
    expect(list.items.map((r) => [r.method, r.status])).toEqual([['tools/call', 'complete']]);
    expect(model.steps).toBeLessThanOrEqual(Math.ceil(1000 / 16) + 2); // that read found it analysed
  });

  it('runs once more for a change that arrived while it was running', async () => {
    let release: () => void = () => undefined;
    let runs = 0;
    const clock = new FakeClock();
    const c = new Coalescer(() => { runs++; return new Promise<void>((r) => { release = r; }); }, 16, clock);
    c.poke();
    await clock.advance(16);
    expect(runs).toBe(1);
    c.poke(); // during the run
    release();
    await new Promise((r) => setImmediate(r)); // the run ends, and schedules the next
    await clock.advance(16);
    expect(runs).toBe(2);
    release();
    await new Promise((r) => setImmediate(r));
    await clock.advance(100);
    expect(runs).toBe(2);
  });
});
