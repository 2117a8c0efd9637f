// The engine's records by seq (worker/engine/entry-table.ts): what a change put is, as
// threading needs to know it (new, a new answer, a re-read, a removal), and the copies kept.
import { describe, expect, it } from 'vitest';
import { EntryTable, stampOf } from '../../../worker/engine/entry-table.js';
import { isLean } from '../../../worker/decode/lean-record.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { ask, capture } from '../../support/capture-builder.js';
import { versions } from '../../support/live-capture.js';

/** A call answered with a request for input, and a plain call after it. */
function records(): ExchangeRecord[] {
  const b = capture();
  b.call('tools/call', { name: 'a', arguments: { x: 1 } }, 100).inputRequired({ k1: ask.form('m', { f: { type: 'string' } }) }, 'tok-a');
  b.call('tools/call', { name: 'b', arguments: {} }, 101).complete();
  return b.build();
}

describe('the engine\'s entry table', () => {
  it('decodes records put and lists them as added and touched at the next apply, then nothing', () => {
    const t = new EntryTable();
    const rs = records();
    t.put(rs);
    expect(t.pending).toBe(true);
    const ch = t.apply();
    expect(t.pending).toBe(false);
    expect(ch.added.map((e) => e.record.seq)).toEqual([0, 1]);
    expect(ch.touched).toEqual([0, 1]);
    expect(ch.rethread).toBe(false);
    expect(t.at(0)?.decoded.sent[0].method).toBe('tools/call');
    expect(t.records()).toEqual(rs);
    expect(t.apply()).toEqual({ added: [], touched: [], removed: [], reanswers: [], rethread: false });
  });

  it('lists its records as of the last apply: the same list while nothing changed, a new one after each change', () => {
    const t = new EntryTable();
    const rs = records();
    t.put(rs);
    t.apply();
    const first = t.records();
    t.apply();
    expect(t.records()).toBe(first); // nothing applied: not walked again
    const again = structuredClone(rs[0]); // the same version read again: the held copy is replaced
    t.put([again]);
    t.apply();
    expect(t.records()[0]).toBe(again);
    t.remove([1]);
    t.apply();
    expect(t.records()).toEqual([again]);
    expect(first).toEqual(rs); // a list handed out earlier is not changed
  });

  it('takes the same version put again as a new object without decoding it or calling it a change', () => {
    const t = new EntryTable();
    const rs = records();
    t.put(rs);
    t.apply();
    const decoded = t.at(0)!.decoded;
    const copy = structuredClone(rs[0]);
    t.put([copy]);
    expect(t.apply().touched).toEqual([]);
    expect(t.at(0)!.record).toBe(copy);
    expect(t.at(0)!.decoded).toBe(decoded);
  });

  it('calls an answer arriving for a pending exchange a re-answer, and a new version that threads the same only touched', () => {
    const t = new EntryTable();
    const rs = records();
    const [pending] = versions(rs[0]);
    t.put([pending, rs[1]]);
    t.apply();
    t.put([rs[0]]);
    const answered = t.apply();
    expect(answered.reanswers.map((r) => [r.old.record.state, r.now.record.state])).toEqual([['pending', 'complete']]);
    expect(answered.touched).toEqual([0]);
    // The same answer read again with a trailing newline: a new version, the same rounds.
    const again = structuredClone(rs[0]);
    again.response!.body += '\n';
    t.put([again]);
    const retimed = t.apply();
    expect(retimed.touched).toEqual([0]);
    expect(retimed.reanswers).toEqual([]);
    expect(retimed.rethread).toBe(false);
  });

  it('asks for a re-thread when a record object changed in place is put again', () => {
    const t = new EntryTable();
    const rs = records();
    t.put(rs);
    t.apply();
    rs[1].endedAt = (rs[1].endedAt ?? 0) + 5;
    t.put([rs[1]]);
    const ch = t.apply();
    expect(ch.rethread).toBe(true);
    expect(ch.touched).toEqual([1]);
    expect(t.at(1)!.stamp).toBe(stampOf(rs[1]));
  });

  it('asks for a re-thread when a record is removed, and ignores the removal of a seq it never held', () => {
    const t = new EntryTable();
    t.put(records());
    t.apply();
    t.remove([7]);
    expect(t.apply()).toMatchObject({ removed: [], rethread: false });
    t.remove([0]);
    expect(t.apply()).toMatchObject({ removed: [0], rethread: true });
    expect(t.at(0)).toBeUndefined();
    expect(t.seqs()).toEqual([1]);
    expect(t.all().map((e) => e.record.seq)).toEqual([1]);
    expect(t.length).toBe(2);
  });

  it('keeps lean copies with the stamp of the whole record, leaving the records put whole', () => {
    const t = new EntryTable({ lean: true });
    const rs = records();
    t.put(rs);
    expect(t.keptCopy(rs[0])).toBeUndefined();
    t.apply();
    const kept = t.keptCopy(rs[0])!;
    expect(isLean(kept)).toBe(true);
    expect(kept.request.body).toBeUndefined();
    expect(rs[0].request.body).toBeDefined();
    expect(stampOf(kept)).toBe(stampOf(rs[0]));
    // Another version of the record is not the one kept.
    expect(t.keptCopy({ ...rs[0], endedAt: (rs[0].endedAt ?? 0) + 1 })).toBeUndefined();
  });

  it('drops the body texts of the records handed over when told to release them', () => {
    const t = new EntryTable({ releaseBodies: true });
    const rs = records();
    t.put(rs);
    t.apply();
    expect(rs[0].request.body).toBeUndefined();
    expect(t.at(0)!.decoded.sent).toHaveLength(1);
  });

  it('remembers that legacy linking was seen, even after that record is gone', () => {
    const b = capture();
    b.call('tools/call', { name: 'a', arguments: {} }, 100).complete();
    const rs = b.build();
    const get: ExchangeRecord = { ...structuredClone(rs[0]), id: 'get', seq: 1, request: { ...rs[0].request, method: 'GET', body: undefined } };
    const t = new EntryTable();
    t.put([rs[0]]);
    t.apply();
    expect(t.legacy).toBe(false);
    t.put([get]);
    t.apply();
    expect(t.legacy).toBe(true);
    t.remove([1]);
    t.apply();
    expect(t.legacy).toBe(true);
  });
  it('gives a page of its records as records() would, walking from the nearer end, across gaps and removals', () => {
    const b = capture();
    for (let i = 0; i < 40; i++) b.call('tools/call', { name: `t${i}`, arguments: {} }, 100 + i).complete();
    // Seqs with gaps: every third record is never put, two more are removed later.
    const all = b.build().map((r, i) => ({ ...r, seq: i * 2 }));
    const t = new EntryTable();
    t.put(all.filter((_, i) => i % 3 !== 0));
    t.apply();
    t.remove([all[4]!.seq, all[31]!.seq]);
    t.apply();
    // A change applied since: records() is rebuilt, page() must not need it.
    t.put([all[0]!]);
    t.apply();
    const pages: [number, number][] = [[0, 5], [3, 4], [10, 200], [20, 3], [24, 10], [25, 1], [26, 5], [0, 0], [-3, 2]];
    const got = pages.map(([o, l]) => t.page(o, l).map((r) => r.seq));
    expect(t.count).toBe(t.records().length);
    expect(t.count).toBe(25);
    const want = pages.map(([o, l]) => t.records().slice(Math.max(0, o), Math.max(0, o) + Math.max(0, l)).map((r) => r.seq));
    expect(got).toEqual(want);
    // And with records() kept, the same pages.
    expect(pages.map(([o, l]) => t.page(o, l).map((r) => r.seq))).toEqual(want);
  });
});
