import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { Finding } from '../../../worker/protocol.js';
import { findingsSummary } from '../../../worker/view/findings-summary.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

describe('findingsSummary', () => {
  it('groups repeated findings per server and rule with their occurrences, and lists single findings on their own', async () => {
    const cap = capture();
    for (let i = 0; i < 5; i++) {
      const token = Buffer.from(JSON.stringify({ step: i })).toString('base64url');
      const first = cap.call('tools/call', { name: 'x', arguments: { i } }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, token);
      cap.retry(first, { k: reply.accept({ a: 'b' }) });
    }
    const a = await analyze(cap.build());
    const s = findingsSummary(a.findings, a.records, a.conversations);
    expect(s.total).toBe(a.findings.length);
    expect(s.entries.reduce((n, e) => n + e.count, 0)).toBe(a.findings.length);
    const unprotected = s.entries.find((e) => e.rule === 'state/unprotected')!;
    expect(unprotected).toMatchObject({ grouped: true, count: 5, severity: 'warning' });
    expect(unprotected.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const expected = a.findings.filter((f) => f.rule === 'state/unprotected');
    expect(unprotected.occurrences.map((o) => [o.exchange, o.conversation])).toEqual(expected.map((f) => [f.exchange, f.conversation]));
    // Each occurrence carries its exchange's id, so the page can open it.
    const idOf = new Map(a.records.map((r) => [r.seq, r.id]));
    for (const o of unprotected.occurrences) expect(o.exchangeId).toBe(idOf.get(o.exchange));
    // Each occurrence is named as a person would: the call's tool, its round, its time.
    const byId = new Map(a.conversations.map((c) => [c.id, c]));
    const startOf = new Map(a.records.map((r) => [r.seq, r.startedAt]));
    for (const o of unprotected.occurrences) {
      const c = byId.get(o.conversation!)!;
      expect(o.call).toBe(c.name);
      expect(o.round).toBe(c.rounds.findIndex((r) => r.exchange === o.exchange));
      expect(o.round).not.toBeNull();
      expect(o.at).toBe(startOf.get(o.exchange));
    }
    // Only one entry per rule on this one server.
    expect(s.entries.filter((e) => e.rule === 'state/unprotected')).toHaveLength(1);
  });

  it('keeps a finding that occurs once as a single entry, orders errors first, and splits servers', () => {
    const records = [
      { seq: 0, id: 'e0', request: { url: 'http://one.test/mcp?x=1' } },
      { seq: 1, id: 'e1', request: { url: 'http://one.test/mcp' } },
      { seq: 2, id: 'e2', request: { url: 'http://two.test/mcp' } },
      { seq: 3, id: 'e3', request: { url: 'http://one.test/mcp' } },
    ];
    const f = (exchange: number, rule: string, severity: Finding['severity'] = 'warning'): Finding => ({ rule, severity, exchange, conversation: `c${exchange}`, message: `m${exchange}`, clause: 'x' });
    const s = findingsSummary([f(0, 'w/a'), f(1, 'w/a'), f(2, 'w/a'), f(3, 'e/b', 'error'), f(1, 'i/c', 'info')], records);
    expect(s.entries.map((e) => [e.rule, e.server, e.count, e.grouped])).toEqual([
      ['e/b', 'http://one.test/mcp', 1, false],
      ['w/a', 'http://one.test/mcp', 2, true],
      ['w/a', 'http://two.test/mcp', 1, false],
      ['i/c', 'http://one.test/mcp', 1, false],
    ]);
    expect(s.entries[1].occurrences).toEqual([
      { exchange: 0, exchangeId: 'e0', conversation: 'c0', call: null, round: null, at: null, message: 'm0' },
      { exchange: 1, exchangeId: 'e1', conversation: 'c1', call: null, round: null, at: null, message: 'm1' },
    ]);
    expect(s.total).toBe(5);
  });
});
