// Auto mode's memory across calls (worker/console/answers.ts): what a call's retries sent is
// kept per call target and offered, newest first, for the keys asked again.
import { describe, expect, it } from 'vitest';
import { AnswerMemory, answersSent, callTargetKey, type AnsweredRound } from '../../../worker/console/answers.js';
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
});
