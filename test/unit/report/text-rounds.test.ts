// The text report counts a conversation's rounds as the page's list does: the call's own,
// with the Console's experiments that joined it counted apart.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { OriginKind } from '../../../worker/protocol.js';
import { textReport } from '../../../worker/report/text.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const input = { path: 'x.jsonl', format: 'jsonl' as const, exchanges: 3 };
const confirm = (id: string) => ({ [id]: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) });

/** A finished two-round call, then a Console `kind` made from its retry (a branch of round 1). */
async function withExperiment(kind: OriginKind) {
  const cap = capture();
  const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm('ok'), 'T0');
  cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
  cap.retry(first, { ok: reply.accept({ ok: false }) }).inputRequired(confirm('again'), 'T1');
  const records = cap.build();
  records.forEach((r, i) => (r.id = `x${i}`));
  Object.assign(records[2], { source: 'console', derivedFrom: 'x1', origin: { kind } });
  return analyze(records);
}

describe('the text report\'s round count', () => {
  it('is the call\'s own rounds, with a Console fork that joined it counted apart and marked on its line', async () => {
    const a = await withExperiment('fork');
    expect(a.conversations[0].rounds).toHaveLength(3);
    const text = textReport(a, input, false);
    expect(text).toContain('tools/call confirm_action  c0  complete  2 round(s) + 1 Console experiment round(s)');
    expect(text).toMatch(/round 3 {2}#2 .*Console fork \(not one of the call's rounds\)/);
    expect(text).not.toMatch(/round [12] .*Console/);
  });

  it('is every round of a call with no experiments', async () => {
    const cap = capture();
    const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm('ok'), 'T0');
    cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
    expect(textReport(await analyze(cap.build()), input, false)).toContain('complete  2 round(s)  ');
  });
});
