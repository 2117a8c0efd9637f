// Copies of exchanges storage refused, laid over the stored records (worker/view/held-records.ts):
// a held copy wins by id and keeps its stored seq; one never stored is numbered after all others.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { HeldRecords, type UnsavedExchange } from '../../../worker/view/held-records.js';
import { capture } from '../../support/capture-builder.js';

/** Three stored exchanges (seqs 0–2) and the means to make held copies. */
function stored(): Map<string, StoredExchange> {
  const b = capture();
  for (let i = 0; i < 3; i++) b.call('tools/call', { name: `t${i}`, arguments: {} }, 100 + i).complete();
  return new Map(b.build().map((r) => [r.id, { ...r, session: 's1' }]));
}

function unsaved(from: StoredExchange, patch: Partial<UnsavedExchange>): UnsavedExchange {
  const { seq: _seq, v: _v, ...rest } = structuredClone(from);
  return { ...rest, ...patch };
}

describe('held records', () => {
  it('lay a held copy over its stored record by id, keeping the stored seq', () => {
    const s = stored();
    const [first] = s.values();
    const h = new HeldRecords();
    h.hold([unsaved(first, { endedAt: 999 })]);
    const merged = h.merged(s);
    expect(merged).toHaveLength(3);
    const laid = merged.find((r) => r.id === first.id)!;
    expect([laid.seq, laid.endedAt, laid.v]).toEqual([first.seq, 999, PROTOCOL_VERSION]);
    expect(h.record(first.id, s)).toMatchObject({ seq: first.seq, endedAt: 999 });
  });

  it('number copies never stored after every other seq, in the order they started, ties by id', () => {
    const s = stored();
    const [first] = s.values();
    const h = new HeldRecords();
    h.hold([
      unsaved(first, { id: 'late', startedAt: 500 }),
      unsaved(first, { id: 'b-early', startedAt: 200 }),
      unsaved(first, { id: 'a-early', startedAt: 200 }),
      // Stored once at 7, then refused: its place is known, and nothing may take it.
      unsaved(first, { id: 'placed', seq: 7, startedAt: 300 }),
    ]);
    const seqs = Object.fromEntries(h.merged(s).map((r) => [r.id, r.seq]));
    expect([seqs['a-early'], seqs['b-early'], seqs.late, seqs.placed]).toEqual([8, 9, 10, 7]);
    expect(h.record('late', s)?.seq).toBe(-1);
    expect(h.record('placed', s)?.seq).toBe(7);
  });

  it('give the stored records alone when nothing is held, and say whether a release dropped any', () => {
    const s = stored();
    const h = new HeldRecords();
    expect(h.merged(s)).toEqual([...s.values()]);
    const [first] = s.values();
    h.hold([unsaved(first, {})]);
    expect(h.size).toBe(1);
    expect(h.release(['nope'])).toBe(false);
    expect(h.release([first.id, 'nope'])).toBe(true);
    expect(h.size).toBe(0);
    expect(h.get(first.id)).toBeUndefined();
    expect(h.record(first.id, s)).toBe(first);
  });
});
