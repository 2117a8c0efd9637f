// Issue 6, storage full: the service worker's writer hands a refused exchange to the page
// whole (and again after each later step), and the analysis worker's session model lays
// such held copies over the stored records without ever giving two exchanges one seq.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExchangeWriter } from '../../../web/sw/exchange-writer.js';
import type { CaptureNotice } from '../../../web/sw/messages.js';
import { PROTOCOL_VERSION } from '../../../worker/protocol.js';
import { StorageError, type CaptureStore, type NewExchange, type StoredExchange } from '../../../worker/storage/index.js';
import { SessionModel, type UnsavedExchange } from '../../../worker/view/session-model.js';

const call = (id: string, startedAt: number): NewExchange => ({
  id, source: 'sw', startedAt, state: 'pending', session: 's1',
  request: { method: 'POST', url: 'http://127.0.0.1:9/mcp', headers: [], body: JSON.stringify({ jsonrpc: '2.0', id: startedAt, method: 'tools/call', params: { name: 't', arguments: {} } }) },
});
const stored = (id: string, seq: number, startedAt: number): StoredExchange => ({ ...call(id, startedAt), v: PROTOCOL_VERSION, seq });
const head = { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], receivedAt: 2 };

/** A store whose writes fail from the `failFrom`-th on (0: the first add). */
function failingStore(failFrom: number): CaptureStore {
  let writes = 0;
  const quota = () => new StorageError('quota', 'Storage is full while recording a request: …');
  return {
    async addExchange(rec: NewExchange) {
      if (writes++ >= failFrom) throw quota();
      return { ...rec, v: PROTOCOL_VERSION, seq: 7 };
    },
    async updateExchange() {
      if (writes++ >= failFrom) throw quota();
      return undefined;
    },
  } as unknown as CaptureStore;
}

describe('a write refused by storage', () => {
  // The writer's delays run on fake timers: no test waits on the clock.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const finish = async (p: Promise<void>) => {
    await vi.runAllTimersAsync();
    await p;
  };

  it('hands the whole exchange to the page, and again after each later step, never losing one', async () => {
    const notices: CaptureNotice[] = [];
    const w = new ExchangeWriter(failingStore(0), (n) => notices.push(n), 'x1');
    w.start(async () => call('x1', 1));
    w.head(head, true);
    w.event({ t: 3, data: '{"a":1}' });
    await vi.advanceTimersByTimeAsync(60); // past the start delay: the add has failed
    w.event({ t: 4, data: '{"a":2}' });
    await finish(w.end({ state: 'complete', endedAt: 5, tail: '' }));
    const unsaved = notices.filter((n) => n.type === 'exchange-unsaved');
    expect(notices.filter((n) => n.type === 'storage-error')).toEqual([]);
    expect(unsaved.length).toBeGreaterThanOrEqual(2);
    const last = unsaved[unsaved.length - 1] as Extract<CaptureNotice, { type: 'exchange-unsaved' }>;
    expect(last.error.kind).toBe('quota');
    expect(last.record).toMatchObject({ id: 'x1', state: 'complete', endedAt: 5, session: 's1', response: { status: 200 } });
    expect(last.record.response?.events?.map((e) => e.data)).toEqual(['{"a":1}', '{"a":2}']);
    expect(last.record.seq).toBeUndefined();
  });

  it('keeps the stored seq of an exchange whose later step was refused', async () => {
    const notices: CaptureNotice[] = [];
    const w = new ExchangeWriter(failingStore(1), (n) => notices.push(n), 'x2');
    w.start(async () => call('x2', 1));
    await vi.advanceTimersByTimeAsync(60); // the add is written
    w.head(head, true);
    w.event({ t: 3, data: 'e1' });
    await finish(w.end({ state: 'complete', endedAt: 5, tail: '' }));
    expect(notices[0]).toMatchObject({ type: 'exchange-start', id: 'x2', seq: 7 });
    const last = notices[notices.length - 1] as Extract<CaptureNotice, { type: 'exchange-unsaved' }>;
    expect(last).toMatchObject({ type: 'exchange-unsaved', seq: 7, record: { seq: 7, state: 'complete' } });
    expect(last.record.response?.events?.map((e) => e.data)).toEqual(['e1']);
  });
});

describe('held copies in the session model', () => {
  it('replace their stored copy (keeping its seq) and follow every stored record when never stored', () => {
    const m = new SessionModel([stored('a', 0, 10), stored('b', 1, 20)]);
    const heldB: UnsavedExchange = { ...call('b', 20), state: 'complete', seq: 1 };
    const heldC: UnsavedExchange = { ...call('c', 30), state: 'complete' };
    const heldD: UnsavedExchange = { ...call('d', 25), state: 'complete' };
    m.hold([heldC, heldB, heldD]);
    const bySeq = m.merged().sort((x, y) => x.seq - y.seq).map((r) => [r.id, r.seq, r.state]);
    expect(bySeq).toEqual([['a', 0, 'pending'], ['b', 1, 'complete'], ['d', 2, 'complete'], ['c', 3, 'complete']]);

    // A later stored exchange took seq 2 (storage did not count the refused ones): the held
    // ones move after it, no seq is shared.
    m.put([stored('e', 2, 40)]);
    const seqs = m.merged().map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(m.record('c')?.state).toBe('complete');

    m.put([stored('c', 3, 30)]);
    m.release(['b', 'c', 'd']);
    expect(m.merged().map((r) => r.id).sort()).toEqual(['a', 'b', 'c', 'e']);
    expect(m.record('b')?.state).toBe('pending');
  });

  it('are analysed with the stored records', async () => {
    const m = new SessionModel([stored('a', 0, 10)]);
    m.hold([{ ...call('h', 20), state: 'complete' }]);
    const b = await m.built(() => [], 0);
    expect(b.analysis.records.map((r) => r.id)).toEqual(['a', 'h']);
    expect(b.rows).toHaveLength(2);
  });
});
