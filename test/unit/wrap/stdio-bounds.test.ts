// What the stdio pairing keeps of a chatty or hostile server: at most the per-record limit
// (progress floods and giant lines are counted, not kept, and the record says so), and
// cut lines still paired by the id read from their ends.
import { describe, expect, it } from 'vitest';
import { StdioPairing } from '../../../cli/wrap/stdio-pairing.js';
import { RecordingBudget } from '../../../server/relay/recording-budget.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

function harness(maxRecorded: number, budget?: RecordingBudget) {
  const latest = new Map<string, ExchangeRecord>();
  const p = new StdioPairing({ name: 's', client: 'c', emit: (r) => latest.set(r.id, structuredClone(r)), maxRecorded, ...(budget ? { budget } : {}) });
  return { p, records: () => [...latest.values()].sort((a, b) => a.seq - b.seq) };
}
const req = (id: unknown, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} });
const progress = (i: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: i, message: 'p'.repeat(80) } });
const bytesOf = (r: ExchangeRecord) => (r.response?.events ?? []).reduce((n, e) => n + e.data.length, 0);

describe('stdio pairing bounds', () => {
  it('keeps at most the limit of a progress flood, marks the record truncated with what it saw, and still completes it on the answer', () => {
    const { p, records } = harness(2000);
    p.clientLine(req(1, 'tools/call'));
    let seen = 0;
    for (let i = 0; i < 1000; i++) {
      const line = progress(i);
      seen += line.length;
      p.serverLine(line);
    }
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });
    p.serverLine(answer);
    const [r] = records();
    expect(r.state).toBe('complete');
    expect(bytesOf(r)).toBeLessThanOrEqual(2000);
    expect(r.response!.truncated).toEqual({ recordedBytes: bytesOf(r), totalBytes: seen + answer.length });
  });

  it('pairs a cut request with its cut answer by the ids at their ends, both marked truncated', () => {
    const { p, records } = harness(100);
    const head = '{"jsonrpc":"2.0","id":"a-7","method":"tools/call","params":{"blob":"' + 'x'.repeat(50);
    p.clientLine(head.slice(0, 100), undefined, { bytes: 100, totalBytes: 5_000_000, tail: 'xxxx"}}' });
    expect(records()[0].state).toBe('pending');
    p.serverLine('{"result":{"blob":"' + 'y'.repeat(81), undefined, { bytes: 100, totalBytes: 6_000_000, tail: 'yyy"},"jsonrpc":"2.0","id":"a-7"}' });
    const [r] = records();
    expect(r.state).toBe('complete');
    expect(r.request.truncated).toEqual({ recordedBytes: 100, totalBytes: 5_000_000 });
    expect(r.response!.truncated).toEqual({ recordedBytes: 100, totalBytes: 6_000_000 });
  });

  it('keeps nothing more once the shared budget is spent, and gives it back when records end', () => {
    const budget = new RecordingBudget(1500);
    const { p, records } = harness(10_000, budget);
    p.clientLine(req(1, 'a'));
    for (let i = 0; i < 30; i++) p.serverLine(progress(i));
    expect(budget.held).toBeGreaterThan(1000);
    expect(budget.held).toBeLessThanOrEqual(1500);
    p.serverLine(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }));
    expect(budget.held).toBe(0);
    const [r] = records();
    expect(r.state).toBe('complete');
    expect(r.response!.truncated!.recordedBytes).toBe(bytesOf(r));
  });
});
