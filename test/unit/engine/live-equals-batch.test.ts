// The live engine, fed a capture in any split of arrival batches (records out of order,
// the same exchange re-delivered as it streams: pending, then part of its events, then
// whole), ends with exactly the analysis of the whole capture at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { AnalysisEngine, type EngineStep } from '../../../worker/engine/analysis-engine.js';
import type { ExchangeRecord, Finding } from '../../../worker/protocol.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { listOf, listUpdate } from '../../../worker/view/session-list.js';
import type { ConversationList } from '../../../worker/view/types.js';
import { RowStore } from '../../../web/lib/row-store.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { reply } from '../../support/capture-builder.js';
import { build, step, versions } from '../../support/live-capture.js';

/** Findings grouped per conversation, as the list's counts read them. */
function perConversation(findings: readonly Finding[]) {
  const m = new Map<string, Finding[]>();
  for (const f of findings) {
    const k = f.conversation ?? '';
    m.set(k, [...(m.get(k) ?? []), f]);
  }
  return m;
}

/** A capture and, per record, the batch its final version arrives in, whether it streams in
 *  first, and its place in arrival order. */
const capturePlans = fc.array(step, { minLength: 1, maxLength: 14 }).chain((steps) => {
  const n = build(steps).length;
  return fc.tuple(
    fc.constant(steps),
    fc.array(fc.record({ batch: fc.integer({ min: 0, max: 4 }), streams: fc.boolean(), order: fc.integer() }), { minLength: n, maxLength: n }),
  );
});

/** The records split into six arrival batches as `plan` says (earlier versions before the final one). */
function arrivals(records: readonly ExchangeRecord[], plan: readonly { batch: number; streams: boolean; order: number }[]): ExchangeRecord[][] {
  const batches: ExchangeRecord[][] = [[], [], [], [], [], []];
  const order = records.map((r, i) => ({ r, p: plan[i] })).sort((a, b) => a.p.order - b.p.order);
  for (const { r, p } of order) {
    if (p.streams) versions(r).forEach((v, k) => batches[Math.max(0, p.batch - 1 + Math.min(k, 1))].push(v));
    batches[p.batch + 1].push(structuredClone(r));
  }
  return batches;
}

describe('the live engine', () => {
  it('ends with the batch analysis for any split of a capture into arrival batches (property)', async () => {
    await fc.assert(fc.asyncProperty(capturePlans, async ([steps, plan]) => {
      const records = build(steps);
      const batch = await analyze(structuredClone(records), { final: false });
      const batches = arrivals(records, plan);
      const engine = new AnalysisEngine({ final: false });
      const model = new SessionModel();
      let last: EngineStep | undefined;
      // The page's copy, kept by applying only the changed rows of each build.
      const rows = new RowStore();
      let page: ConversationList | null = null;
      let epoch: number | null = null;
      for (const b of batches) {
        engine.put(b);
        last = await engine.step();
        model.put(structuredClone(b) as StoredExchange[]);
        const built = await model.built(() => [], 0);
        const update = listUpdate(built, '', epoch);
        if (epoch !== null) expect(update.kind).toBe('delta');
        page = rows.apply(update);
        epoch = update.epoch;
        expect(page).toEqual(listOf(built, ''));
      }
      // The session's list (rows kept per conversation) equals a list built from scratch.
      const fresh = new SessionModel(structuredClone(records) as StoredExchange[]);
      expect(listOf(await model.built(() => [], 0), '')).toEqual(listOf(await fresh.built(() => [], 0), ''));
      const live = last!;
      expect(live.conversations).toEqual(batch.conversations);
      expect(live.findings).toEqual(batch.findings);
      expect([...live.tokens]).toEqual([...batch.tokens]);
      const byConv = perConversation(batch.findings);
      for (const c of batch.conversations) expect(engine.findingsOf(c.id)).toEqual(byConv.get(c.id) ?? []);
      expect(engine.findingsOf('')).toEqual(byConv.get('') ?? []);
    }), { numRuns: 300 });
  }, 120_000);

  it('files a live answer to a pending retry in place, without re-threading, and agrees with the batch', async () => {
    const records = build([
      { method: 'tools/call', name: 'a', state: undefined, responses: undefined, answer: 'input', token: 'tok-a', sse: false, gap: 0, task: 't1', status: 'working' },
      { method: 'tools/call', name: 'b', state: undefined, responses: undefined, answer: 'complete', token: undefined, sse: false, gap: 1, task: 't1', status: 'working' },
      { method: 'tools/call', name: 'a', state: 'tok-a', responses: { k1: reply.accept({ f: 'v' }) }, answer: 'input', token: 'tok-b', sse: true, gap: 1, task: 't1', status: 'working' },
    ]);
    const engine = new AnalysisEngine({ final: false });
    engine.put(records.slice(0, 2));
    await engine.step();
    engine.put(versions(records[2]));
    const pending = await engine.step();
    expect(pending.conversations.find((c) => c.id === 'c0')?.rounds.map((r) => r.outcome)).toEqual(['input_required', 'no-response']);
    engine.put([records[2]]);
    const done = await engine.step();
    expect(done.full).toBe(false);
    expect([...done.changed]).toContain('c0');
    const batch = await analyze(structuredClone(records), { final: false });
    expect(done.conversations).toEqual(batch.conversations);
    expect(done.findings).toEqual(batch.findings);
    expect(done.conversations.find((c) => c.id === 'c0')?.rounds.map((r) => r.outcome)).toEqual(['input_required', 'input_required']);
  });

  it('with checks trailing (each step given a budget), lists every step and ends with the batch analysis once nothing is unchecked (property)', async () => {
    const arb = fc.tuple(
      capturePlans,
      // the budget of each build, in ticks of a clock that ticks once per look (0: check nothing)
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 6, maxLength: 6 }),
      fc.integer({ min: 1, max: 3 }),
      // which check slices defer their changes to a later one (the page told of some only)
      fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    );
    await fc.assert(fc.asyncProperty(arb, async ([[steps, plan], budgets, chunk, defers]) => {
      const records = build(steps);
      const batch = await analyze(structuredClone(records), { final: false });
      const batches = arrivals(records, plan);
      let tick = 0;
      let budget = 0;
      const model = new SessionModel([], { checkMs: () => budget, engine: { checkChunk: chunk, now: () => tick++ } });
      const rows = new RowStore();
      let page: ConversationList | null = null;
      let epoch: number | null = null;
      const follow = (built: Awaited<ReturnType<SessionModel['built']>>) => {
        const update = listUpdate(built, '', epoch);
        page = rows.apply(update);
        epoch = update.epoch;
        const want = listOf(built, '');
        if (model.unpublished === 0) return void expect(page).toEqual(want);
        // Deferred checks: the rows are all there, in order; findings may lag until published.
        expect(page!.items.map((r) => r.id)).toEqual(want.items.map((r) => r.id));
        expect(page!.stats).toEqual(want.stats);
      };
      let arrived = 0;
      for (const [i, b] of batches.entries()) {
        model.put(structuredClone(b) as StoredExchange[]);
        arrived += b.length;
        budget = budgets[i];
        const built = await model.built(() => [], 0);
        // Listed whatever was checked: every record that arrived is counted.
        expect(built.exchanges).toBe(new Set(batches.slice(0, i + 1).flat().map((r) => r.id)).size);
        expect(built.unchecked).toBe(model.unchecked);
        follow(built);
      }
      expect(arrived).toBeGreaterThan(0);
      // Then checked a slice at a time (2 ticks: at least one chunk each), the page following
      // the rows whose findings came in.
      budget = 2;
      for (let guard = 0; model.unchecked > 0; guard++) {
        expect(guard).toBeLessThan(200);
        follow(await model.checkMore(() => [], 0, { defer: defers[guard % defers.length] }));
      }
      // The build that ended the checks published whatever was deferred.
      expect(model.unpublished).toBe(0);
      expect(page).toEqual(listOf(await model.built(() => [], 0), ''));
      const done = await model.built(() => [], 0);
      expect(done.unchecked).toBe(0);
      const fresh = new SessionModel(structuredClone(records) as StoredExchange[]);
      expect(done.analysis.conversations).toEqual(batch.conversations);
      expect(done.analysis.findings).toEqual(batch.findings);
      expect(listOf(done, '')).toEqual(listOf(await fresh.built(() => [], 0), ''));
      expect([...done.analysis.tokens]).toEqual([...batch.tokens]);
    }), { numRuns: 300 });
  }, 120_000);

  it('a budget of nothing threads and lists but checks nothing; a step with nothing put only checks', async () => {
    const records = build([
      { method: 'tools/call', name: 'a', state: undefined, responses: undefined, answer: 'input', token: 'tok-a', sse: false, gap: 0, task: 't1', status: 'working' },
      { method: 'tools/call', name: 'a', state: 'tok-zzz', responses: { k1: reply.accept({ f: 'v' }) }, answer: 'complete', token: undefined, sse: false, gap: 1, task: 't1', status: 'working' },
    ]);
    const batch = await analyze(structuredClone(records), { final: false });
    expect(batch.findings.length).toBeGreaterThan(0);
    const engine = new AnalysisEngine({ final: false });
    engine.put(records);
    const listed = await engine.step({ checkMs: 0 });
    expect(listed.conversations).toEqual(batch.conversations);
    expect(listed.findings).toEqual([]);
    expect(listed.unchecked).toBeGreaterThan(0);
    const checked = await engine.step();
    expect(checked.unchecked).toBe(0);
    expect(checked.findings).toEqual(batch.findings);
    expect(new Set(checked.changed)).toEqual(new Set(batch.conversations.map((c) => c.id)));

    // New keys re-check everything; until each subject is checked again, its findings stay
    // (the counts do not drop to 0 and climb back).
    engine.setKeys(() => []);
    const rekeyed = await engine.step({ checkMs: 0 });
    expect(rekeyed.unchecked).toBeGreaterThan(0);
    expect(rekeyed.findings).toEqual(batch.findings);
    const again = await engine.step();
    expect(again.unchecked).toBe(0);
    expect(again.findings).toEqual(batch.findings);
  });
});
