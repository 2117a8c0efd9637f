// Tamper tests against the embedded demo (HMAC-signed, bound tokens) and its misbehaving
// mode (unsigned base64 JSON), run over Node's fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepper, type Stepper } from '../../../worker/console/stepper.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { elicitResult } from '../../../worker/console/form.js';
import { planTamperTests } from '../../../worker/console/tamper.js';
import { flipPayloadByte, flipJsonText } from '../../../worker/console/tamper-flip.js';
import { runAllTamperTests, tamperReportJson, tamperReportMarkdown } from '../../../worker/console/tamper-report.js';
import { tamperSubjectFromStep } from '../../../worker/console/tamper-subject.js';
import { inspectToken } from '../../../worker/tokens/index.js';
import { analyze } from '../../../worker/analysis.js';
import { serveDemo, toolCall, type Running } from './servers.js';
import { serveUnverifiedStateServer } from '../../peers/unverified-state-server.js';

const send = fetchTransport({ timeoutMs: 10_000 });
const accept = (content: Record<string, unknown>) => elicitResult('accept', content);

let demo: Running;
let unverified: Running;
beforeAll(async () => {
  [demo, unverified] = await Promise.all([serveDemo(), serveUnverifiedStateServer()]);
});
afterAll(async () => {
  await Promise.all([demo.close(), unverified?.close()]);
});

/** The wizard stepped to its second question (the token then carries the first answer). */
async function wizardAtPlan(url: string): Promise<Stepper> {
  const stepper = createStepper({ send });
  await stepper.start({ url, request: toolCall('setup_wizard') });
  stepper.answer('name', accept({ name: 'Acme Labs' }));
  await stepper.send();
  stepper.answer('plan', accept({ plan: 'pro' }));
  return stepper;
}

/** A token another chain (confirm_action) was issued. */
async function foreignToken(url: string): Promise<string> {
  const other = createStepper({ send });
  const s = await other.start({ url, request: toolCall('confirm_action', { action: 'elsewhere' }) });
  return (s.rounds[0].reading as { requestState: string }).requestState;
}

describe('tamper tests', () => {
  it('flips one byte inside a string value of the payload, keeping the token format', () => {
    const token = 'v1.' + Buffer.from(JSON.stringify({ p: { tool: 'setup_wizard', answers: { name: 'Acme Labs' } }, exp: 1796055791 })).toString('base64url') + '.c2lnbmF0dXJl';
    const flipped = flipPayloadByte(token);
    expect(flipped.token).not.toBe(token);
    expect(flipped.token.split('.').length).toBe(3);
    expect(flipped.token.endsWith('.c2lnbmF0dXJl')).toBe(true);
    const before = inspectToken(token);
    const after = inspectToken(flipped.token);
    expect(after.format).toBe(before.format);
    expect(JSON.stringify(after.payload)).not.toBe(JSON.stringify(before.payload));
    expect(flipped.detail).toBe('changed "Acme Labs" to "Acmf Labs" in the payload');
    expect(flipJsonText('{"a":"xyz"}')!.text).toBe('{"a":"xzz"}');
    const b64 = Buffer.from('{"tool":"busy","step":1}').toString('base64');
    expect(inspectToken(flipPayloadByte(b64).token).format).toBe('base64-json');
  });

  it('says how long until the token expires and schedules the re-send for then, never faking time', async () => {
    const stepper = await wizardAtPlan(demo.url);
    const subject = tamperSubjectFromStep(stepper.state, 1, demo.url);
    if ('error' in subject) throw new Error(subject.error);
    const now = Date.now();
    const { plans } = planTamperTests(subject, { now });
    const late = plans.find((p) => p.test === 'after-expiry')!;
    expect(late.schedule!.sendAt).toBe(Date.parse(late.schedule!.expiresAt) + 1000);
    expect(late.schedule!.waitMs).toBeGreaterThan(590_000);
    expect(late.schedule!.waitMs).toBeLessThanOrEqual(601_000);
  });

  it('every tamper test against the demo server is rejected (it redeems a token once per set of answers)', async () => {
    const stepper = await wizardAtPlan(demo.url);
    const subject = tamperSubjectFromStep(stepper.state, 1, demo.url, { otherTarget: { params: { name: 'confirm_action', arguments: { action: 'x' } } }, foreignToken: await foreignToken(demo.url) });
    if ('error' in subject) throw new Error(subject.error);
    expect(subject.inputResponses).toEqual({ plan: accept({ plan: 'pro' }) });
    const { report, records } = await runAllTamperTests(subject, send);
    const by = Object.fromEntries(report.results.map((r) => [r.test, r]));
    for (const test of ['flip-byte', 'other-tool', 'drop', 'foreign-token', 'parallel-reuse'] as const) expect(by[test], JSON.stringify(by[test])).toMatchObject({ status: 'done', verdict: 'rejected' });
    expect(by['flip-byte'].answers![0].summary).toContain('-32602');
    expect(by['drop'].detail).toContain('started the call over');
    expect(by['after-expiry']).toMatchObject({ status: 'scheduled' });
    expect(report.summary).toMatchObject({ rejected: 5, accepted: 0, scheduled: 1, notRun: 0 });
    expect(records.every((r) => r.source === 'console' && r.derivedFrom === subject.recordId)).toBe(true);
    const md = tamperReportMarkdown(report);
    expect(md).toContain('| Tamper: flip one byte of the token | rejected |');
    expect(JSON.parse(tamperReportJson(report)).kind).toBe('mrtr-inspector/tamper-report');
  });

  it("against the demo's misbehaving mode the flipped token is accepted, naming mrtr/invalid-state-accepted", async () => {
    const url = `${demo.url}?misbehave=1`;
    const stepper = await wizardAtPlan(url);
    const subject = tamperSubjectFromStep(stepper.state, 1, url, { otherTarget: { params: { name: 'confirm_action', arguments: { action: 'x' } } }, foreignToken: await foreignToken(url) });
    if ('error' in subject) throw new Error(subject.error);
    const { report, records } = await runAllTamperTests(subject, send);
    const flip = report.results.find((r) => r.test === 'flip-byte')!;
    expect(flip).toMatchObject({ verdict: 'accepted', rule: 'mrtr/invalid-state-accepted' });
    expect(flip.detail).toContain('asking confirm');
    // Paused at this round, no genuine retry was sent: nothing to compare, so never "unchanged".
    expect(subject.genuine).toBeUndefined();
    expect(flip.unchanged).toBeUndefined();
    expect(report.results.find((r) => r.test === 'after-expiry')).toMatchObject({ status: 'not-run' });
    expect(tamperReportMarkdown(report)).toContain('| accepted | mrtr/invalid-state-accepted |');
    // The tamper traffic is a capture like any other.
    const analysis = await analyze(records);
    expect(analysis.conversations.length).toBeGreaterThan(0);
  });

  it('plans nothing but says why for a round that issued no token', () => {
    const { plans, notRun } = planTamperTests({ url: demo.url, request: toolCall('busy'), answer: { resultType: 'input_required', inputRequests: {} }, inputResponses: {} });
    expect(plans).toEqual([]);
    expect(notRun.every((r) => r.status === 'not-run' && r.detail.includes('no requestState'))).toBe(true);
  });

  it('sets an accepted flipped token against the genuine answer: the same answer is marked unchanged, a moved one is not', async () => {
    const flipOn = async (tool: string) => {
      const stepper = createStepper({ send });
      await stepper.start({ url: unverified.url, request: toolCall(tool) });
      stepper.answer('item', accept({ item: 'pen' }));
      const state = await stepper.send();
      const subject = tamperSubjectFromStep(state, 0, unverified.url);
      if ('error' in subject) throw new Error(subject.error);
      expect(subject.genuine).toMatchObject({ kind: 'complete' });
      const { report } = await runAllTamperTests(subject, send);
      return { report, flip: report.results.find((r) => r.test === 'flip-byte')! };
    };
    const inert = await flipOn('inert_note');
    expect(inert.flip).toMatchObject({ verdict: 'accepted', rule: 'mrtr/invalid-state-accepted', unchanged: true });
    expect(inert.flip.detail).toMatch(/answered exactly as to the genuine token \(complete: Noted\.\)/);
    // Of the accepted (the parallel re-use too), only the flipped token is set against the genuine answer.
    expect(inert.report.summary).toMatchObject({ accepted: 2, unchangedAnswer: 1 });
    expect(tamperReportMarkdown(inert.report)).toContain('| accepted, same answer | mrtr/invalid-state-accepted |');
    const quoted = await flipOn('quoted_note');
    expect(quoted.flip).toMatchObject({ verdict: 'accepted', rule: 'mrtr/invalid-state-accepted' });
    expect(quoted.flip.unchanged).toBeUndefined();
    expect(quoted.flip.detail).toMatch(/its answer differs from the genuine token's: content\[0\]\.text changed from "Noted pen \(carried between rounds\)"/);
    expect(quoted.report.summary).toMatchObject({ unchangedAnswer: 0 });
  });
});
