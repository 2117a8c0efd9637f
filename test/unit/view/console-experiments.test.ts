// The Console's experiments never make a captured call look worse: a call driven through a
// re-send (`r`), an edit, a fork and the tamper tests keeps the status, round count and
// findings it had, in the analysis, its list row, the status bar's counts and the findings
// summary; what the experiments drew is counted apart, and no rule about the client's
// behaviour fires on them (worker/thread/experiments.ts, lint/engine.ts, view/*).
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { analyzeInPieces } from '../../support/live-splits.js';
import type { Conversation, ExchangeRecord, Finding, OriginKind } from '../../../worker/protocol.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';
import { callErrors, conversationSummary } from '../../../worker/view/conversation-summary.js';
import { indexAnalysis } from '../../../worker/view/conversation-view.js';
import { findingsSummary } from '../../../worker/view/findings-summary.js';
import { ask, capture, reply, type CaptureBuilder } from '../../support/capture-builder.js';

const TOOL = { name: 'setup_wizard', arguments: {} };
const askName = { name: ask.form('Workspace name?', { name: { type: 'string' } }, ['name']) };
const askPlan = { plan: ask.form('Which plan?', { plan: { type: 'string' } }, ['plan']) };
const named = { name: reply.accept({ name: 'Captured Co' }) };

/** The captured call: three rounds, complete. */
function wizard(b: CaptureBuilder) {
  const r1 = b.call('tools/call', TOOL).inputRequired(askName, 'T1');
  const r2 = b.retry(r1, named).inputRequired(askPlan, 'T2');
  const r3 = b.retry(r2, { plan: reply.accept({ plan: 'pro' }) }).complete();
  return { r1, r2, r3 };
}

interface Tried { seq: number; kind: OriginKind; from?: number; run?: string }

/** The captured call, then what the Console tried on it, each send marked as the Console marks it. */
function capturedAndTried(): { records: ExchangeRecord[]; tried: Tried[] } {
  const b = capture();
  const { r1, r2 } = wizard(b);
  const again = (params: Record<string, unknown>, id?: number) => b.call('tools/call', { ...TOOL, ...params }, id);
  // `r` on round 1 and on round 2, unchanged: the captured ids and token go again.
  again({}, r1.id as number).inputRequired(askName, 'T1b');
  again({ requestState: 'T1', inputResponses: named }, r2.id as number).error(-32602, 'requestState already used');
  // A fork of round 2 with another name, then the step that answers it.
  again({ requestState: 'T1', inputResponses: { name: reply.accept({ name: 'Forked Co' }) } }).inputRequired(askPlan, 'T3');
  again({ requestState: 'T3', inputResponses: { plan: reply.accept({ plan: 'free' }) } }).complete();
  // An edit of round 3 the server refuses (the call's latest round now).
  again({ requestState: 'T2', inputResponses: { plan: reply.accept({ plan: 'bogus' }) } }).error(-32602, 'unknown plan');
  // "Run all tamper tests" on round 2's token: a flipped byte, the token dropped, one token
  // on two retries at once, every one refused.
  again({ requestState: 'T2~', inputResponses: { plan: reply.accept({ plan: 'pro' }) } }).error(-32602, 'bad requestState');
  again({ inputResponses: { plan: reply.accept({ plan: 'pro' }) } }).error(-32602, 'requestState missing');
  const t = b.now;
  again({ requestState: 'T2', inputResponses: { plan: reply.accept({ plan: 'pro' }) } }).at(t, 200).error(-32602, 'requestState already used');
  again({ requestState: 'T2', inputResponses: { plan: reply.accept({ plan: 'pro' }) } }).at(t + 10, 200).error(-32602, 'requestState already used');
  const records = b.build();
  records.forEach((r, i) => (r.id = `x${i}`));
  const tried: Tried[] = [
    { seq: 3, kind: 'resend', from: 0 }, { seq: 4, kind: 'resend', from: 1 },
    { seq: 5, kind: 'fork', from: 1 }, { seq: 6, kind: 'step' }, { seq: 7, kind: 'edit', from: 2 },
    ...[8, 9, 10, 11].map((seq) => ({ seq, kind: 'tamper' as const, run: 'run-1' })),
  ];
  for (const x of tried) {
    const r = records[x.seq];
    r.source = 'console';
    r.origin = { kind: x.kind, ...(x.run !== undefined ? { run: x.run } : {}) };
    if (x.from !== undefined) r.derivedFrom = `x${x.from}`;
  }
  return { records, tried };
}

const callOf = (conversations: readonly Conversation[]) => conversations.find((c) => c.exchanges[0] === 0)!;
const clientRules = new Set(ALL_RULES.filter((r) => r.about === 'client').map((r) => r.id));

describe('a captured call the Console experimented on', () => {
  it('keeps the status, round count and findings it had before the experiments', async () => {
    const { records } = capturedAndTried();
    const before = await analyze(structuredClone(records.slice(0, 3)));
    const after = await analyze(records);
    const was = conversationSummary(callOf(before.conversations), indexAnalysis(before));
    const call = callOf(after.conversations);
    const row = conversationSummary(call, indexAnalysis(after));
    // The experiments did join it (as branches or by the tokens they echo)...
    expect(call.rounds.length).toBeGreaterThan(3);
    expect(row.experiments).toBe(call.rounds.length - 3);
    // ...and change nothing about the call itself.
    expect(was).toMatchObject({ status: 'complete', rounds: 3 });
    expect(row.status).toBe(was.status);
    expect(row.rounds).toBe(was.rounds);
    expect(row.findings).toEqual(was.findings);
    expect(row.durationMs).toBe(was.durationMs);
    const own = (fs: readonly Finding[]) => fs.filter((f) => f.exchange < 3);
    expect(own(after.findings)).toEqual(own(before.findings));
  });

  it('fires no rule about the client\'s behaviour on an experiment, and counts what they drew apart', async () => {
    const { records, tried } = capturedAndTried();
    const after = await analyze(records);
    const experimental = new Set(tried.map((t) => t.seq));
    const blamed = after.findings.filter((f) => experimental.has(f.exchange) && clientRules.has(f.rule));
    expect(blamed).toEqual([]);
    // No re-used id, dropped or missing answer, and no "too many rounds" from the branches.
    for (const rule of ['mrtr/retry-reused-id', 'mrtr/state-dropped', 'mrtr/response-missing', 'mrtr/state-modified', 'mrtr/too-many-rounds'])
      expect(after.findings.filter((f) => f.rule === rule), rule).toEqual([]);
    // Branches are not rounds: a limit the call's own three rounds keep is not passed.
    const limited = await analyze(structuredClone(records), { maxRounds: 3 });
    expect(callOf(limited.conversations).rounds.length).toBeGreaterThan(3);
    expect(limited.findings.filter((f) => f.rule === 'mrtr/too-many-rounds')).toEqual([]);
    // The tamper verdicts are still drawn: the server's refusals are reported as its answer.
    const rows = after.conversations.map((c) => conversationSummary(c, indexAnalysis(after)));
    const expectedTotal = rows.reduce((n, r) => n + (r.expected ? r.expected.error + r.expected.warning + r.expected.info : 0), 0);
    const onExperiments = after.findings.filter((f) => experimental.has(f.exchange)).length;
    expect(expectedTotal).toBe(onExperiments);
    const errors = rows.reduce((n, r) => n + callErrors(r).error, 0);
    expect(errors).toBe(after.findings.filter((f) => !experimental.has(f.exchange) && f.severity === 'error').length);
  });

  it('lists the experiments\' findings apart in the findings summary', async () => {
    const { records } = capturedAndTried();
    const before = await analyze(structuredClone(records.slice(0, 3)));
    const after = await analyze(records);
    const s0 = findingsSummary(before.findings, before.records, before.conversations);
    const s1 = findingsSummary(after.findings, after.records, after.conversations);
    expect(s1.total).toBe(s0.total);
    expect(s1.entries).toEqual(s0.entries);
    expect(s1.experimentTotal).toBe(after.findings.length - before.findings.length);
    for (const e of s1.experiments) for (const o of e.occurrences) expect(o.exchange).toBeGreaterThanOrEqual(3);
  });

  it('keeps the call complete live too, whatever batches the sends arrive in', async () => {
    const { records } = capturedAndTried();
    for (const split of [[3, 12], [3, 5, 8, 12], [12]]) {
      const call = callOf((await analyzeInPieces(records, split)).conversations);
      expect(call.status, String(split)).toBe('complete');
    }
  });

  it('reads a conversation made only of experiments as the experiment it is', async () => {
    const b = capture();
    // Accepted, with a result that lacks resultType (a server finding: the experiment's result).
    b.call('tools/call', { name: 'other_tool', arguments: {}, requestState: 'T9' }).result({ content: [] });
    const records = b.build();
    Object.assign(records[0], { source: 'console', origin: { kind: 'tamper', run: 'r-2' } });
    const a = await analyze(records);
    const row = conversationSummary(a.conversations[0], indexAnalysis(a));
    expect(row).toMatchObject({ experiment: true, rounds: 1, status: 'complete' });
    expect(row.findings.error).toBeGreaterThan(0);
    expect(row.expected).toEqual(row.findings);
    // mrtr/state-invented is about the client: this token was the experiment's own doing.
    expect(a.findings.map((f) => f.rule)).not.toContain('mrtr/state-invented');
    expect(callErrors(row)).toEqual({ error: 0, warning: 0 });
  });
});
