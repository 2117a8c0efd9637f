// The live engine fed a capture in pieces: the batch analysis must come out the same
// whatever pieces the records arrive in (threading, status, findings).
import { expect } from 'vitest';
import { analyze } from '../../worker/analysis.js';
import { AnalysisEngine } from '../../worker/engine/analysis-engine.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import type { EngineStep } from '../../worker/engine/engine-step.js';

/** Puts `records` into a live engine in pieces ending at each index of `ends` (the last
 *  one `records.length`), stepping after each; the last step's analysis. */
export async function analyzeInPieces(records: readonly ExchangeRecord[], ends: readonly number[]): Promise<EngineStep> {
  const engine = new AnalysisEngine({ final: false });
  let from = 0;
  let last: EngineStep | undefined;
  for (const to of ends) {
    engine.put(structuredClone(records.slice(from, to)));
    last = await engine.step();
    from = to;
  }
  if (last === undefined) throw new Error('analyzeInPieces needs at least one piece');
  return last;
}

/** Asserts each way of cutting `records` into pieces threads and lints as the batch does. */
export async function expectLiveAsBatch(records: readonly ExchangeRecord[], cuts: readonly (readonly number[])[]): Promise<void> {
  const batch = await analyze(structuredClone(records), { final: false });
  for (const ends of cuts) {
    const live = await analyzeInPieces(records, ends);
    expect(live.conversations, `pieces ending at ${ends.join(', ')}`).toEqual(batch.conversations);
    expect(live.findings, `pieces ending at ${ends.join(', ')}`).toEqual(batch.findings);
  }
}
