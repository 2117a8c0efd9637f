// Console forks, edits and re-sends of a captured round join that round's conversation as
// branches (threading follows derivedFrom), deterministically, live as in batch.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { ExchangeRecord, OriginKind } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { expectLiveAsBatch } from '../../support/live-splits.js';

const confirm = (id: string) => ({ [id]: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) });
const args = { name: 'confirm_action', arguments: { n: 1 } };

/** A finished two-round call, then a Console `kind` made from its retry (exchange 1), re-presenting token T0. */
function forked(kind: OriginKind, derivedFrom = 'x1'): ExchangeRecord[] {
  const cap = capture();
  const first = cap.call('tools/call', args).inputRequired(confirm('ok'), 'T0');
  cap.retry(first, { ok: reply.accept({ ok: true }) }).complete();
  cap.retry(first, { ok: reply.accept({ ok: false }) }).inputRequired(confirm('again'), 'T1');
  const records = cap.build();
  records.forEach((r, i) => (r.id = `x${i}`));
  records[2].source = 'console';
  records[2].derivedFrom = derivedFrom;
  records[2].origin = { kind };
  return records;
}

describe('derivedFrom branches', () => {
  it('joins a fork of a finished chain to its conversation as a sibling of the round it forks, not a replay', async () => {
    const a = await analyze(forked('fork'));
    expect(a.conversations).toHaveLength(1);
    const c = a.conversations[0];
    expect(c.replayOf).toBeUndefined();
    expect(c.rounds.map((r) => [r.exchange, r.parent, r.link])).toEqual([[0, null, null], [1, 0, 'state'], [2, 0, 'derived']]);
    expect(c.rounds[2].origin).toBe('fork');
    expect(c.rounds[2].linkReason).toContain('a fork of round 2');
  });

  it('joins edits and re-sends the same way', async () => {
    for (const kind of ['edit', 'resend'] as const) {
      const a = await analyze(forked(kind));
      expect(a.conversations.map((c) => c.rounds.map((r) => r.link))).toEqual([[null, 'state', 'derived']]);
    }
  });

  it('leaves a derived exchange whose source is not in the capture a conversation of its own', async () => {
    for (const kind of ['fork', 'tamper'] as const) {
      const missing = await analyze(forked(kind, 'gone'));
      expect(missing.conversations).toHaveLength(2);
      expect(missing.conversations[1].replayOf).toBe(missing.conversations[0].id);
    }
  });

  it('continues the branch: a retry echoing the fork\'s token joins the same conversation under the fork', async () => {
    const records = forked('fork');
    const cap = capture({ start: records[2].startedAt + 500 });
    cap.call('tools/call', { ...args, requestState: 'T1', inputResponses: { again: reply.accept({ ok: true }) } }).complete();
    const after = cap.build()[0];
    after.seq = 3;
    after.id = 'x3';
    const a = await analyze([...records, after]);
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].rounds.map((r) => r.parent)).toEqual([null, 0, 0, 2]);
  });

  it('threads the same way live, whatever batches the records arrive in', async () => {
    const records = forked('fork');
    await expectLiveAsBatch(records, [[3], [1, 3], [2, 3], [1, 2, 3]]);
  });

  it('gives a fork that re-presents an already presented token state/replayed, as an edited re-send gets', async () => {
    for (const kind of ['fork', 'edit'] as const) {
      const a = await analyze(forked(kind));
      const replayed = a.findings.filter((f) => f.rule === 'state/replayed');
      expect(replayed.map((f) => f.exchange)).toEqual([2]);
      // Named as the thread shows it: the retry is the call's round 2.
      expect(replayed[0].message).toContain('already presented in round 2 of this call');
    }
  });
});

/**
 * Two finished two-round calls of one tool (A issues TA, B issues TB), then Console tamper
 * tests made from A's first round (x0, the round that issued TA): each names x0 in derivedFrom.
 * `tampered` are the tamper tests' requests: [requestState, inputResponses] (null: left out).
 */
function tampered(...sends: [string | null, boolean][]): ExchangeRecord[] {
  const cap = capture();
  const a = cap.call('tools/call', args).inputRequired(confirm('ok'), 'TA');
  const b = cap.call('tools/call', { ...args, arguments: { n: 2 } }).inputRequired(confirm('ok'), 'TB');
  cap.retry(a, { ok: reply.accept({ ok: true }) }).complete();
  cap.retry(b, { ok: reply.accept({ ok: true }) }).complete();
  for (const [state, answers] of sends) {
    const params: Record<string, unknown> = { ...args };
    if (state !== null) params.requestState = state;
    if (answers) params.inputResponses = { ok: reply.accept({ ok: true }) };
    cap.call('tools/call', params).error(-32602, 'invalid requestState');
  }
  const records = cap.build();
  records.forEach((r, i) => {
    r.id = `x${i}`;
    if (i >= 4) Object.assign(r, { source: 'console', derivedFrom: 'x0', origin: { kind: 'tamper', run: 'run-1' } });
  });
  return records;
}

describe('tamper tests in the thread', () => {
  const byId = (a: Awaited<ReturnType<typeof analyze>>, seq: number) => a.conversations.find((c) => c.rounds.some((r) => r.exchange === seq))!;

  it('puts a changed, a swapped, a replayed and a dropped token under the round that issued the token, not where the token would thread them', async () => {
    // Changed (issued by nobody), swapped (B's token), replayed (A's own, after A ended), dropped (no token).
    const a = await analyze(tampered(['TA-changed', true], ['TB', true], ['TA', true], [null, true]));
    const callA = byId(a, 0);
    for (const seq of [4, 5, 6, 7]) {
      expect(byId(a, seq), `exchange ${seq}`).toBe(callA);
      const round = callA.rounds.find((r) => r.exchange === seq)!;
      expect([round.link, round.parent, round.origin]).toEqual(['derived', 0, 'tamper']);
      expect(round.linkReason).toBe('a tamper test of round 1, made in the Console');
      expect(round.candidates).toBeUndefined();
    }
    // B keeps only its own rounds; nothing starts a conversation of its own, ambiguous or replayed.
    expect(byId(a, 1).rounds.map((r) => r.exchange)).toEqual([1, 3]);
    expect(a.conversations).toHaveLength(2);
    expect(a.conversations.some((c) => c.replayOf !== undefined)).toBe(false);
    // The experiments change nothing about the call: still complete in two rounds of its own.
    expect(callA.status).toBe('complete');
  });

  it('reports a changed token the server accepted where the tamper test was made', async () => {
    const records = tampered(['TA-changed', true]);
    const cap = capture({ start: records[4].startedAt });
    cap.call('tools/call', { ...args, requestState: 'TA-changed', inputResponses: { ok: reply.accept({ ok: true }) } }).complete();
    const accepted = cap.build()[0];
    Object.assign(accepted, { seq: 4, id: 'x4', source: 'console', derivedFrom: 'x0', origin: { kind: 'tamper', run: 'run-1' } });
    const a = await analyze([...records.slice(0, 4), accepted]);
    expect(a.conversations).toHaveLength(2);
    expect(a.findings.filter((f) => f.rule === 'mrtr/modified-state-accepted').map((f) => f.exchange)).toEqual([4]);
  });

  it('leaves the control, a fresh first round sent with the tests, a call of its own', async () => {
    const a = await analyze(tampered(['TA-changed', true], [null, false]));
    expect(a.conversations).toHaveLength(3);
    expect(byId(a, 5).rounds).toHaveLength(1);
    expect(byId(a, 5).rounds[0].link).toBeNull();
  });

  it('threads the same way live, whatever batches the records arrive in', async () => {
    const records = tampered(['TA-changed', true], ['TB', true], ['TA', true], [null, true], [null, false]);
    await expectLiveAsBatch(records, [[9], [4, 9], [5, 7, 9], [2, 4, 6, 8, 9]]);
  });
});
