// The step-through session against the embedded demo and an official SDK v2 server, over
// Node's fetch: pausing at each input_required, the exact retry, forks, edits, auto mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepper } from '../../../worker/console/stepper.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { elicitResult } from '../../../worker/console/form.js';
import { saveAnswers } from '../../../worker/console/answers.js';
import { analyze } from '../../../worker/analysis.js';
import { CAFE_TOOL, serveDemo, serveSdkServer, toolCall, unreachableUrl, type Running } from './servers.js';

const send = fetchTransport({ timeoutMs: 10_000 });
const accept = (content: Record<string, unknown>) => elicitResult('accept', content);

let demo: Running;
let sdk: Running;
beforeAll(async () => {
  demo = await serveDemo();
  sdk = await serveSdkServer();
});
afterAll(async () => {
  await demo.close();
  await sdk.close();
});

describe('step-through', () => {
  it('steps through the 3-round wizard answering each form, pausing before every retry', async () => {
    const stepper = createStepper({ send });
    let s = await stepper.start({ url: demo.url, request: toolCall('setup_wizard') });
    expect(s.status).toBe('paused');
    expect(s.pending.map((q) => [q.key, q.kind])).toEqual([['name', 'elicitation-form']]);
    const token = (s.rounds[0].reading as { requestState: string }).requestState;
    const preview = JSON.parse(s.preview!.request.body);
    expect(preview.params.requestState).toBe(token);
    expect(preview.id).not.toBe(1);
    expect(preview.params.inputResponses).toBeUndefined();

    s = stepper.answer('name', accept({ name: 'Acme' }));
    expect(JSON.parse(s.preview!.request.body).params.inputResponses).toEqual({ name: { action: 'accept', content: { name: 'Acme' } } });
    s = await stepper.send();
    expect(s.pending.map((q) => q.key)).toEqual(['plan']);
    stepper.answer('plan', accept({ plan: 'team' }));
    s = await stepper.send();
    expect(s.pending.map((q) => q.key)).toEqual(['confirm']);
    stepper.answer('confirm', accept({ confirm: true }));
    s = await stepper.send();
    expect(s.status).toBe('complete');
    expect(s.rounds.map((r) => r.parent)).toEqual([null, 0, 1, 2]);
    expect(new Set(s.rounds.map((r) => r.id)).size).toBe(4);
    expect(s.rounds[3].reading).toMatchObject({ kind: 'complete', result: { content: [{ text: 'Created workspace "Acme" on the team plan.' }] } });
    const analysis = await analyze(stepper.records());
    expect(analysis.conversations).toHaveLength(1);
    expect(analysis.conversations[0].rounds.map((r) => r.link)).toEqual([null, 'state', 'state', 'state']);
    expect(analysis.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(stepper.records().every((r) => r.source === 'console')).toBe(true);
  });

  it('forks round 2 with another answer, and both branches complete', async () => {
    const stepper = createStepper({ send });
    await stepper.start({ url: demo.url, request: toolCall('setup_wizard') });
    const script: Record<string, Record<string, unknown>> = { name: accept({ name: 'First' }), plan: accept({ plan: 'free' }), confirm: accept({ confirm: true }) };
    let s = stepper.state;
    while (s.status === 'paused') {
      stepper.answer(s.pending[0].key, script[s.pending[0].key]);
      s = await stepper.send();
    }
    expect(s.status).toBe('complete');
    s = await stepper.fork(1, { name: accept({ name: 'Second' }) });
    expect(s.rounds[4]).toMatchObject({ parent: 0, forkOf: 1 });
    expect(s.rounds[4].record.derivedFrom).toBe(s.rounds[1].record.id);
    while (s.status === 'paused') {
      stepper.answer(s.pending[0].key, script[s.pending[0].key]);
      s = await stepper.send();
    }
    const branches = stepper.branches();
    expect(branches.map((b) => [b.path, b.status])).toEqual([
      [[0, 1, 2, 3], 'complete'],
      [[0, 4, 5, 6], 'complete'],
    ]);
    // An earlier round can be picked up again: round 2 asked for the plan.
    s = stepper.select(2);
    expect(s).toMatchObject({ status: 'paused', current: 2 });
    expect(s.pending.map((q) => q.key)).toEqual(['confirm']);
    expect(JSON.parse(s.preview!.request.body).params.requestState).toBe((s.rounds[2].reading as { requestState: string }).requestState);
    const texts = branches.map((b) => JSON.stringify((s.rounds[b.leaf].reading as { result: unknown }).result));
    expect(texts[0]).toContain('Created workspace \\"First\\"');
    expect(texts[1]).toContain('Created workspace \\"Second\\"');
  });

  it("sends an edited retry's inputResponses and shows the server's new answer", async () => {
    const stepper = createStepper({ send });
    await stepper.start({ url: demo.url, request: toolCall('confirm_action', { action: 'deploy' }) });
    stepper.answer('confirm', accept({ confirm: true, priority: 'low' }));
    const before = stepper.state.preview!;
    const edited = before.text.replace('"priority": "low"', '"priority": "high"');
    expect(edited).not.toBe(before.text);
    let s = stepper.editPreview(edited);
    expect(s.preview).toMatchObject({ edited: true });
    expect(s.preview!.error).toBeUndefined();
    s = await stepper.send();
    expect(s.status).toBe('complete');
    expect(s.rounds[1].edited).toBe(true);
    expect(JSON.stringify(s.rounds[1].reading)).toContain('at high priority');
  });

  it('refuses to send an edited retry that does not parse, saying where', async () => {
    const stepper = createStepper({ send });
    await stepper.start({ url: demo.url, request: toolCall('confirm_action', { action: 'x' }) });
    stepper.editPreview(stepper.state.preview!.text.replace('"jsonrpc"', 'jsonrpc'));
    const s = await stepper.send();
    expect(s.status).toBe('paused');
    expect(s.message).toMatch(/cannot be sent: not JSON.*line \d+, column \d+/);
    expect(s.rounds).toHaveLength(1);
  });

  it('auto mode answers from saved answers and stops only on a new question', async () => {
    const saved = saveAnswers({ name: { method: 'elicitation/create' }, plan: { method: 'elicitation/create' } }, { name: accept({ name: 'Auto' }), plan: accept({ plan: 'pro' }) });
    const stepper = createStepper({ send, auto: saved });
    let s = await stepper.start({ url: demo.url, request: toolCall('setup_wizard') });
    expect(s.status).toBe('paused');
    expect(s.rounds).toHaveLength(3);
    expect(s.pending.map((q) => q.key)).toEqual(['confirm']);
    stepper.answer('confirm', accept({ confirm: true }));
    s = await stepper.send();
    expect(s.status).toBe('complete');
    expect(JSON.stringify(s.rounds[3].reading)).toContain('Created workspace \\"Auto\\" on the pro plan.');
  });

  it('auto mode re-sends requestState-only rounds until the busy tool completes', async () => {
    const stepper = createStepper({ send, auto: [], stateOnlyDelayMs: 5 });
    const s = await stepper.start({ url: demo.url, request: toolCall('busy') });
    expect(s.status).toBe('complete');
    expect(s.rounds).toHaveLength(3);
    expect(JSON.parse(s.rounds[1].request.body).params.inputResponses).toBeUndefined();
  });

  it('stops at the round cap', async () => {
    const stepper = createStepper({ send, auto: [], stateOnlyDelayMs: 0, maxRounds: 2 });
    const s = await stepper.start({ url: demo.url, request: toolCall('busy') });
    expect(s.status).toBe('capped');
    expect(s.rounds).toHaveLength(2);
  });

  it('steps through a two-round tool of an official SDK v2 server whose name is not ASCII', async () => {
    const stepper = createStepper({ send });
    const schema = { type: 'object', properties: { drink: { type: 'string' }, table: { type: 'integer', 'x-mcp-header': 'Table' } } };
    let s = await stepper.start({ url: sdk.url, request: toolCall(CAFE_TOOL, { drink: 'tea', table: 7 }, 1, schema) });
    expect(s.rounds[0].request.headers).toContainEqual({ name: 'Mcp-Name', value: '=?base64?Y2Fmw6lfb3JkZXI=?=' });
    expect(s.rounds[0].request.headers).toContainEqual({ name: 'Mcp-Param-Table', value: '7' });
    expect(s.status).toBe('paused');
    stepper.answer('size', accept({ size: 'large' }));
    s = await stepper.send();
    expect(s.pending.map((q) => q.key)).toEqual(['sugar']);
    stepper.answer('sugar', accept({ sugars: 2 }));
    s = await stepper.send();
    expect(s.status).toBe('complete');
    expect(JSON.stringify(s.rounds[2].reading)).toContain('A large tea with 2 sugar(s).');
  });

  it('turns an unreachable server into a failed round, not a throw', async () => {
    const stepper = createStepper({ send });
    const s = await stepper.start({ url: await unreachableUrl(), request: toolCall('busy') });
    expect(s.status).toBe('failed');
    expect(s.rounds[0].reading).toMatchObject({ kind: 'failed', status: 0 });
    expect((s.rounds[0].reading as { message: string }).message).toContain('ECONNREFUSED');
    expect(s.rounds[0].record.state).toBe('failed');
  });
});
