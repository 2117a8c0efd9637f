// A Console experiment (a tamper test, a fork, an edit, a re-send) that joins an open chain
// never becomes the tip the threader judges the chain by: whatever the server answered it,
// the client's own next retry still continues the call, so the call's status, rounds and
// findings stay its own (design.md, Trust; thread/experiments.ts).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { ExchangeRecord, OriginKind } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { callRounds } from '../../../worker/thread/experiments.js';
import { expectLiveAsBatch } from '../../support/live-splits.js';

const args = { name: 'confirm_action', arguments: { n: 1 } };
const confirm = { ok: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) };

/** Marks record `i` as the Console's `kind`, made from record `from`. */
function console_(records: ExchangeRecord[], i: number, kind: OriginKind, from: number): void {
  records.forEach((r, n) => (r.id = `x${n}`));
  Object.assign(records[i], { source: 'console', origin: { kind, run: 'run-1' }, ...(kind === 'tamper' ? {} : { derivedFrom: `x${from}` }) });
}

describe('a Console experiment inside an open chain', () => {
  for (const [outcome, answer] of [['complete', (c: ReturnType<ReturnType<typeof capture>['retry']>) => c.complete()], ['error', (c: ReturnType<ReturnType<typeof capture>['retry']>) => c.error(-32602, 'bad state')]] as const) {
    it(`leaves the client's retry on the call after a tamper test the server answered ${outcome}`, async () => {
      const cap = capture();
      const first = cap.call('tools/call', args).inputRequired(confirm, 'T1');
      answer(cap.retry(first, { ok: reply.accept({ ok: true }) }));
      cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
      const records = cap.build();
      console_(records, 1, 'tamper', 0);
      const a = await analyze(records);
      expect(a.conversations).toHaveLength(1);
      const c = a.conversations[0];
      expect(c.replayOf).toBeUndefined();
      expect(c.rounds.map((r) => [r.exchange, r.parent, r.link])).toEqual([[0, null, null], [1, 0, 'state'], [2, 0, 'state']]);
      expect(c.rounds[2].linkReason).not.toContain('after the error');
      expect(callRounds(c.rounds).own).toEqual([0, 2]);
      expect(c.status).toBe('complete');
      expect(a.findings.filter((f) => f.exchange !== 1 && f.severity !== 'info')).toEqual([]);
    });
  }

  it('threads the same way live, whatever batches the records arrive in', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args).inputRequired(confirm, 'T1');
    cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
    cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
    const records = cap.build();
    console_(records, 1, 'tamper', 0);
    await expectLiveAsBatch(records, [[3], [1, 3], [2, 3], [1, 2, 3]]);
  });

  it('keeps the chain open for a retry matched by its keys after an edit the server refused', async () => {
    // No token: the client's retry can join only by method, arguments and the keys it answers.
    const cap = capture();
    const first = cap.call('tools/call', args).inputRequired(confirm);
    cap.retry(first, { ok: reply.accept({ ok: false }) }).error(-32602, 'refused');
    cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
    const records = cap.build();
    console_(records, 1, 'edit', 0);
    const a = await analyze(records);
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.rounds.map((r) => [r.exchange, r.parent])).toEqual([[0, null], [1, 0], [2, 0]]);
    expect(c.status).toBe('complete');
  });

  it('still lets the Console continue its own experiment: a retry echoing the tamper round\'s token joins under it', async () => {
    const cap = capture();
    const first = cap.call('tools/call', args).inputRequired(confirm, 'T1');
    const probe = cap.retry(first, { ok: reply.accept({ ok: true }) }).inputRequired(confirm, 'T2');
    cap.retry(probe, { ok: reply.accept({ ok: true }) }).complete();
    const records = cap.build();
    console_(records, 1, 'tamper', 0);
    Object.assign(records[2], { source: 'console', origin: { kind: 'step', run: 'run-1' } });
    const a = await analyze(records);
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.rounds.map((r) => [r.exchange, r.parent])).toEqual([[0, null], [1, 0], [2, 1]]);
    // The call's own round is still waiting for its client's retry: an experiment never ends it.
    expect(c.status).toBe('abandoned');
  });
});
