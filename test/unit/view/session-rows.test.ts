// A session's list rows kept across builds (worker/view/session-rows.ts): brought up to date
// from what each step changed, they must equal rows built afresh, in capture order, with
// their sums.
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../worker/protocol.js';
import { SessionRows } from '../../../worker/view/session-rows.js';
import type { ConversationSummary, FindingCounts } from '../../../worker/view/types.js';

function conv(id: string, firstSeq: number): Conversation {
  return { id, method: 'tools/call', name: id, era: '2026-07-28', client: null, exchanges: [firstSeq], status: 'complete', rounds: [] };
}

/** Rows whose findings the test sets per id (errors, warnings; `expected` for tamper tests). */
function summarizer(findings: Record<string, { error?: number; warning?: number; expected?: Partial<FindingCounts> }> = {}) {
  let calls = 0;
  const summarize = (c: Conversation): ConversationSummary => {
    calls += 1;
    const f = findings[c.id] ?? {};
    const e = f.expected;
    return {
      id: c.id, method: c.method, name: c.name, era: c.era, rounds: 0, status: c.status,
      findings: { error: f.error ?? 0, warning: f.warning ?? 0, info: 0 }, firstSeq: c.exchanges[0], startedAt: 0, durationMs: null,
      hasState: false, ambiguous: false, httpStatus: null,
      ...(e ? { expected: { error: e.error ?? 0, warning: e.warning ?? 0, info: 0 } } : {}),
    };
  };
  return { summarize, calls: () => calls };
}

const none = new Set<string>();

describe('session rows', () => {
  it('append new conversations in capture order and sum up only what changed', () => {
    const rows = new SessionRows();
    const s = summarizer();
    const a = conv('c0', 0);
    const b = conv('c1', 1);
    rows.update({ conversations: [a, b], changed: new Set(['c0', 'c1']), removed: none, full: true }, s.summarize);
    const c = conv('c2', 2);
    rows.update({ conversations: [a, b, c], changed: new Set(['c2']), removed: none, full: false }, s.summarize);
    expect(rows.sorted.map((r) => r.id)).toEqual(['c0', 'c1', 'c2']);
    expect(s.calls()).toBe(3);
    rows.update({ conversations: [a, b, c], changed: new Set(['c1']), removed: none, full: false }, s.summarize);
    expect(s.calls()).toBe(4);
    expect(rows.byId.get('c1')?.row).toBe(rows.sorted[1]);
  });

  it('sort when a new conversation began before the last row', () => {
    const rows = new SessionRows();
    const s = summarizer();
    const a = conv('c0', 0);
    const late = conv('c5', 5);
    rows.update({ conversations: [a, late], changed: new Set(['c0', 'c5']), removed: none, full: true }, s.summarize);
    const early = conv('c3', 3);
    rows.update({ conversations: [a, late, early], changed: new Set(['c3']), removed: none, full: false }, s.summarize);
    expect(rows.sorted.map((r) => r.firstSeq)).toEqual([0, 3, 5]);
    // Places are kept right after the sort: a change to c5 replaces its row.
    rows.update({ conversations: [a, late, early], changed: new Set(['c5']), removed: none, full: false }, s.summarize);
    expect(rows.sorted[2]).toBe(rows.byId.get('c5')?.row);
  });

  it('drop the rows of removed conversations into a new list, and keep an unchanged row over a re-thread with its new object', () => {
    const rows = new SessionRows();
    const s = summarizer();
    rows.update({ conversations: [conv('c0', 0), conv('c1', 1)], changed: new Set(['c0', 'c1']), removed: none, full: true }, s.summarize);
    const before = rows.sorted;
    const kept = rows.byId.get('c0')!.row;
    const again = conv('c0', 0);
    rows.update({ conversations: [again], changed: none, removed: new Set(['c1']), full: true }, s.summarize);
    expect(rows.sorted.map((r) => r.id)).toEqual(['c0']);
    expect(rows.sorted).not.toBe(before);
    expect(rows.byId.get('c0')).toEqual({ conversation: again, row: kept });
    expect(rows.byId.has('c1')).toBe(false);
  });

  it('sum errors and warnings over the rows, tamper tests\' expected findings apart, as rows change and go', () => {
    const rows = new SessionRows();
    const findings: Parameters<typeof summarizer>[0] = { c0: { error: 2, warning: 1 }, c1: { error: 3, warning: 1, expected: { error: 2, warning: 1 } } };
    const s = summarizer(findings);
    rows.update({ conversations: [conv('c0', 0), conv('c1', 1)], changed: new Set(['c0', 'c1']), removed: none, full: true }, s.summarize);
    expect(rows.counts()).toEqual({ errors: 3, warnings: 1, expected: 3 });
    findings.c0 = { error: 0, warning: 4 };
    rows.update({ conversations: [conv('c0', 0), conv('c1', 1)], changed: new Set(['c0']), removed: none, full: false }, s.summarize);
    expect(rows.counts()).toEqual({ errors: 1, warnings: 4, expected: 3 });
    rows.update({ conversations: [conv('c0', 0)], changed: none, removed: new Set(['c1']), full: true }, s.summarize);
    expect(rows.counts()).toEqual({ errors: 0, warnings: 4, expected: 0 });
  });

  it('change the list an earlier build handed out in place between re-threads', () => {
    const rows = new SessionRows();
    const s = summarizer();
    const a = conv('c0', 0);
    rows.update({ conversations: [a], changed: new Set(['c0']), removed: none, full: true }, s.summarize);
    const handedOut = rows.sorted;
    rows.update({ conversations: [a, conv('c1', 1)], changed: new Set(['c1']), removed: none, full: false }, s.summarize);
    expect(handedOut).toBe(rows.sorted);
    expect(handedOut.map((r) => r.id)).toEqual(['c0', 'c1']);
  });
});
