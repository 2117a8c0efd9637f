// Shared assertions for the lint tests: run the whole pipeline, then look for one rule.
import { expect } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { ExchangeRecord, Finding, Severity } from '../../../worker/protocol.js';
import { parseKey, type TokenKey } from '../../../worker/tokens/index.js';

export type Analysis = Awaited<ReturnType<typeof analyze>>;

export async function run(records: ExchangeRecord[], opts: { keys?: string[]; maxRounds?: number; ttlBoundSeconds?: number } = {}): Promise<Analysis> {
  const keys: TokenKey[] = (opts.keys ?? []).map((k) => {
    const p = parseKey(k);
    if (!p.ok) throw new Error(p.error);
    return p.key;
  });
  return analyze(records, { keys, maxRounds: opts.maxRounds, ttlBoundSeconds: opts.ttlBoundSeconds });
}

export function findings(a: Analysis, rule: string): Finding[] {
  return a.findings.filter((f) => f.rule === rule);
}

/** The id of the conversation that claims every one of `seqs` (fails when none does). */
export function conversationOf(a: Analysis, ...seqs: number[]): string {
  const c = a.conversations.find((c) => seqs.every((s) => c.exchanges.includes(s)));
  expect(c, `a conversation holding exchanges ${seqs.join(', ')}; got ${JSON.stringify(a.conversations.map((c) => c.exchanges))}`).toBeDefined();
  return c!.id;
}

/** Exactly one finding of `rule`, at `exchange`, with `severity`, in `conversation`. */
export function expectOne(a: Analysis, rule: string, want: { exchange: number; severity: Severity; conversation: string | null }): Finding {
  const got = findings(a, rule);
  expect(got, `findings of ${rule}; all findings: ${JSON.stringify(a.findings.map((f) => [f.rule, f.exchange, f.message]), null, 1)}`).toHaveLength(1);
  expect({ exchange: got[0].exchange, severity: got[0].severity, conversation: got[0].conversation }).toEqual(want);
  expect(got[0].message.length).toBeGreaterThan(20);
  return got[0];
}

export function expectNone(a: Analysis, rule: string): void {
  expect(findings(a, rule), `no findings of ${rule}`).toEqual([]);
}

/** No rule threw (the engine turns a throw into an "internal error" finding). */
export function expectNoInternalErrors(a: Analysis): void {
  expect(a.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
}

/** The first conversation claiming exchange `seq`, or null (as the engine attributes exchange findings). */
export function claimOf(a: Analysis, seq: number): string | null {
  return a.conversations.find((c) => c.exchanges.includes(seq))?.id ?? null;
}
