// Auto mode's memory across calls (worker/console/answer-memory.ts): what a call's retries sent is
// kept per call target and offered, newest first, for the keys asked again.
import { describe, expect, it } from 'vitest';
import { AnswerMemory, answersSent, callTargetKey, type AnsweredRound } from '../../../worker/console/answer-memory.js';
import type { InputRequest } from '../../../worker/console/types.js';

const form = (message: string): InputRequest => ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } } });
const asked = (inputRequests: Record<string, InputRequest>): AnsweredRound['reading'] => ({ kind: 'input_required', result: { resultType: 'input_required', inputRequests }, inputRequests });
const body = (inputResponses?: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'setup_wizard', ...(inputResponses ? { inputResponses } : {}) } });

/** The wizard's first two rounds: asked the name, sent it; asked the plan, sent it. */
function wizardRounds(name: string, plan: string): AnsweredRound[] {
  return [
    { request: { body: body() }, parent: null, reading: asked({ name: form('name?') }) },
    { request: { body: body({ name: { action: 'accept', content: { name } } }) }, parent: 0, reading: asked({ plan: form('plan?') }) },
    { request: { body: body({ plan: { action: 'accept', content: { plan } } }) }, parent: 1, reading: asked({ confirm: form('ok?') }) },
  ];
}

describe('auto mode memory', () => {
  it("reads each retry's answers with the kind of the question it answered", () => {
    expect(answersSent(wizardRounds('Acme', 'pro'))).toEqual([
      { key: 'name', kind: 'elicitation-form', response: { action: 'accept', content: { name: 'Acme' } } },
      { key: 'plan', kind: 'elicitation-form', response: { action: 'accept', content: { plan: 'pro' } } },
    ]);
  });

  it('offers an earlier call’s answers to the same target only, for the keys asked now, newest first', () => {
    const memory = new AnswerMemory();
    const wizard = callTargetKey('http://x/mcp', 'tools/call', { name: 'setup_wizard' });
    memory.remember(wizard, wizardRounds('Old', 'free'));
    memory.remember(wizard, wizardRounds('New', 'pro'));
    const names = memory.recall(wizard, { name: form('name?') });
    expect(names.map((a) => a.response)).toEqual([{ action: 'accept', content: { name: 'New' } }, { action: 'accept', content: { name: 'Old' } }]);
    expect(memory.recall(callTargetKey('http://x/mcp', 'tools/call', { name: 'confirm_action' }), { name: form('name?') })).toEqual([]);
    expect(memory.recall(callTargetKey('http://y/mcp', 'tools/call', { name: 'setup_wizard' }), { name: form('name?') })).toEqual([]);
  });

  it("puts the running call's answers before the remembered ones", () => {
    const memory = new AnswerMemory();
    const wizard = callTargetKey('http://x/mcp', 'tools/call', { name: 'setup_wizard' });
    memory.remember(wizard, wizardRounds('Old', 'free'));
    const now = memory.recall(wizard, { plan: form('plan?') }, wizardRounds('Now', 'team'));
    expect(now[0].response).toEqual({ action: 'accept', content: { plan: 'team' } });
  });

  it('stores answers without their secret fields, and read back, asks for those again with the rest filled in', () => {
    const pinForm: InputRequest = { method: 'elicitation/create', params: { mode: 'form', message: 'sign in', requestedSchema: { type: 'object', properties: { account: { type: 'string' }, pin: { type: 'string' } } } } };
    const rounds: AnsweredRound[] = [
      { request: { body: body() }, parent: null, reading: asked({ login: pinForm }) },
      { request: { body: body({ login: { action: 'accept', content: { account: 'alice', pin: '4321' } } }) }, parent: 0, reading: { kind: 'complete', result: {} } },
    ];
    const target = callTargetKey('http://x/mcp', 'tools/call', { name: 'sign_in' });
    const memory = new AnswerMemory();
    memory.remember(target, rounds);
    // This visit: the whole answer, PIN included, is used.
    expect(memory.recall(target, { login: pinForm })[0].response).toEqual({ action: 'accept', content: { account: 'alice', pin: '4321' } });
    const stored = memory.stored();
    expect(JSON.stringify(stored)).not.toContain('4321');
    expect(stored).toEqual([{ target, key: 'login', kind: 'elicitation-form', response: { action: 'accept', content: { account: 'alice' } }, withheld: ['pin'] }]);

    const next = new AnswerMemory();
    next.load(JSON.parse(JSON.stringify(stored)));
    expect(next.recall(target, { login: pinForm })).toEqual([]);
    expect(next.partial(target, 'login')).toEqual({ response: { action: 'accept', content: { account: 'alice' } }, missing: ['pin'] });
  });

  it("stores the running call's answers with the remembered ones, and forgets them all on clear", () => {
    const memory = new AnswerMemory();
    const wizard = callTargetKey('http://x/mcp', 'tools/call', { name: 'setup_wizard' });
    memory.remember(wizard, wizardRounds('Old', 'free'));
    expect(memory.stored({ target: wizard, rounds: wizardRounds('Now', 'team') }).map((a) => a.response.content)).toEqual([{ name: 'Old' }, { plan: 'free' }, { name: 'Now' }, { plan: 'team' }]);
    const back = new AnswerMemory();
    back.load(memory.stored());
    expect(back.recall(wizard, { name: form('name?') })[0].response).toEqual({ action: 'accept', content: { name: 'Old' } });
    back.load([{ nonsense: true }, 'x', { target: 1, key: 'k', response: {} }]);
    back.clear();
    expect(back.stored()).toEqual([]);
  });
});
