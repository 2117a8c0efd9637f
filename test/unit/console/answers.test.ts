// Answering input requests: drafts for sampling and roots, and auto mode's matcher.
import { describe, expect, it } from 'vitest';
import { answerAll, inputKind, rootsDraft, samplingDraft, saveAnswers, validateRoots } from '../../../worker/console/answers.js';

const form = (message: string) => ({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } } });

describe('answering input requests', () => {
  it('tells the kinds apart (a missing elicitation mode is form)', () => {
    expect(inputKind({ method: 'elicitation/create', params: { message: 'm' } })).toBe('elicitation-form');
    expect(inputKind({ method: 'elicitation/create', params: { mode: 'url', url: 'https://x', message: 'm' } })).toBe('elicitation-url');
    expect(inputKind({ method: 'sampling/createMessage' })).toBe('sampling');
    expect(inputKind({ method: 'roots/list' })).toBe('roots');
    expect(inputKind({ method: 'ping' })).toBe('unknown');
  });

  it('pre-fills a sampling reply from the last user message', () => {
    const draft = samplingDraft({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: MRTR' } }], maxTokens: 10 });
    expect(draft).toEqual({ role: 'assistant', content: { type: 'text', text: 'A reply to: Summarize: MRTR' }, model: 'mrtr-inspector-console', stopReason: 'endTurn' });
  });

  it('drafts roots and checks they are file:// URIs', () => {
    const roots = rootsDraft([{ uri: 'file:///home/me/p', name: 'p' }, { uri: 'https://x' }]);
    expect(roots).toEqual({ roots: [{ uri: 'file:///home/me/p', name: 'p' }, { uri: 'https://x' }] });
    expect(validateRoots(roots)).toEqual(['root 2 ("https://x"): uri must be a file:// URI, not https:']);
  });

  it('answers by key first, then by kind and position for renamed keys, and returns only the new questions', () => {
    const saved = saveAnswers(
      { confirm: form('ok?'), summary: { method: 'sampling/createMessage' } },
      { confirm: { action: 'accept', content: { confirm: true } }, summary: { role: 'assistant', content: { type: 'text', text: 's' }, model: 'm' } },
    );
    const r = answerAll({ approve: form('ok?'), summary: { method: 'sampling/createMessage' }, roots: { method: 'roots/list' } }, saved);
    expect(r.responses).toEqual({ summary: saved[1].response, approve: saved[0].response });
    expect(r.matched).toEqual({ summary: { from: 'summary', by: 'key' }, approve: { from: 'confirm', by: 'kind' } });
    expect(r.questions).toEqual([{ key: 'roots', kind: 'roots', request: { method: 'roots/list' } }]);
  });

  it('never answers a question of another kind under the same key', () => {
    const saved = saveAnswers({ k: { method: 'roots/list' } }, { k: { roots: [] } });
    expect(answerAll({ k: form('?') }, saved).questions.map((q) => q.key)).toEqual(['k']);
  });

  it('has nothing to ask on a requestState-only round', () => {
    expect(answerAll(undefined, [])).toEqual({ responses: {}, matched: {}, questions: [] });
  });
});
