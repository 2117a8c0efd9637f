import { describe, expect, it } from 'vitest';
import { exportJsonl, importCapture, jsonlLine } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { sampleRecords } from './sample-records.js';

describe('JSONL captures', () => {
  it('round-trips records through exportJsonl and importCapture unchanged', () => {
    const records = sampleRecords();
    const text = exportJsonl(records, { createdAt: '2026-08-01T00:00:00.000Z' });
    expect(text.split('\n')[0]).toBe('{"kind":"mrtr-inspector-capture","version":1,"createdAt":"2026-08-01T00:00:00.000Z"}');
    const out = importCapture(text);
    expect(out.ok && out.format).toBe('jsonl');
    if (!out.ok) return;
    expect(out.exchanges).toStrictEqual(records);
  });

  it('lets a later line with the same id replace the earlier one, keeping its first position', () => {
    const [a, b] = sampleRecords();
    const pendingA: ExchangeRecord = { ...a, state: 'pending', response: undefined, endedAt: undefined };
    delete pendingA.response;
    delete pendingA.endedAt;
    const text = jsonlLine(pendingA) + jsonlLine(b) + '\n' + jsonlLine(a);
    const out = importCapture(text);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges.map((r) => [r.id, r.seq, r.state])).toEqual([[a.id, 0, 'complete'], [b.id, 1, b.state]]);
    expect(out.exchanges[0]).toStrictEqual({ ...a, seq: 0 });
  });

  it('reassigns seq by first appearance, ignoring the seq written in the file', () => {
    const [a, b] = sampleRecords();
    const out = importCapture(jsonlLine({ ...b, seq: 40 }) + jsonlLine({ ...a, seq: 7 }));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges.map((r) => [r.id, r.seq])).toEqual([[b.id, 0], [a.id, 1]]);
  });

  it('puts every record in the session given to importCapture', () => {
    const out = importCapture(exportJsonl(sampleRecords()), { session: 'replay-1' });
    if (!out.ok) throw new Error(out.error.message);
    expect(new Set(out.exchanges.map((r) => r.session))).toEqual(new Set(['replay-1']));
  });

  it('redacts credentials in a JSONL export only when asked', () => {
    const records = sampleRecords();
    expect(exportJsonl(records)).toContain('Bearer sk-live-123');
    expect(exportJsonl(records, { sanitize: true })).not.toContain('Bearer sk-live-123');
  });
});
