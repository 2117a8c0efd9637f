// A tools/list answer changes what lint says about the calls made after it (a tool's
// outputSchema). The live engine re-checks those calls only, not the whole session, and
// must agree with the batch analysis when such an answer arrives late.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { AnalysisEngine } from '../../../worker/engine/analysis-engine.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const SCHEMA = { type: 'object', properties: { n: { type: 'number' } } };

/** A tools/list sent first but answered last, then a two-round call of a tool it declares
 *  an outputSchema for, whose final result has no structuredContent; and calls before it. */
function session(): ExchangeRecord[] {
  const b = capture();
  for (let i = 0; i < 5; i++) b.call('tools/call', { name: 'warmup', arguments: { i } }).at(i, 1);
  b.call('tools/list', {}).at(10, 100).complete({ tools: [{ name: 'sum', inputSchema: { type: 'object' }, outputSchema: SCHEMA }] });
  const first = b.call('tools/call', { name: 'sum', arguments: { a: 1 } }).at(20, 5).inputRequired({ k: ask.form('go?', { ok: { type: 'boolean' } }) }, 'tok-1');
  b.retry(first, { k: reply.accept({ ok: true }) }).at(30, 5).complete();
  return b.build();
}

describe('tool lists in the live engine', () => {
  it('re-checks the calls after a tools/list whose answer arrives live, and finds what the batch finds', async () => {
    const records = session();
    const list = records.findIndex((r) => r.request.body?.includes('tools/list'));
    const engine = new AnalysisEngine({ final: false });
    engine.put(records.map((r, i) => (i === list ? { ...structuredClone(r), state: 'pending' as const, response: undefined, endedAt: undefined } : structuredClone(r))));
    const before = await engine.step();
    expect(before.findings.filter((f) => f.rule === 'mrtr/final-result-degraded')).toEqual([]);

    engine.put([structuredClone(records[list])]);
    const after = await engine.step();
    const batch = await analyze(structuredClone(records), { final: false });
    expect(batch.findings.filter((f) => f.rule === 'mrtr/final-result-degraded')).toHaveLength(1);
    expect(after.findings).toEqual(batch.findings);
    expect(after.conversations).toEqual(batch.conversations);
    // Only the tools/list and what came after it were re-checked: the calls before it kept
    // their rows.
    expect(after.changed.has(after.conversations[0].id)).toBe(false);
    expect(after.changed.has(`c${list}`)).toBe(true);
  });
});
