// Shapes of the embedded input requests (in answers) and input responses (in retries).
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { conversationOf, expectNone, expectOne, findings, run } from './lint-helpers.js';

const book = { name: 'book', arguments: { city: 'Oslo' } };

/** A chain asking `request` under key k, answered with `response`. */
function answered(request: Record<string, unknown>, response: unknown) {
  const b = capture();
  const r1 = b.call('tools/call', book).inputRequired({ k: request }, 'tok-1');
  b.retry(r1, { k: response as Record<string, unknown> }).complete();
  return b.build();
}

describe('elicit/request-shape', () => {
  it('fires on a nested form property', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ k: ask.form('Address?', { addr: { type: 'object', properties: { street: { type: 'string' } } } }) });
    const a = await run(b.build());
    const f = expectOne(a, 'elicit/request-shape', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
    expect(f.message).toContain('"addr"');
  });

  it('fires on a URL-mode elicitation without a valid url', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ k: ask.url('Sign in', 'not a url') });
    const a = await run(b.build());
    expectOne(a, 'elicit/request-shape', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires on a missing message', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ k: { method: 'elicitation/create', params: { requestedSchema: { type: 'object', properties: {} } } } });
    const a = await run(b.build());
    expectOne(a, 'elicit/request-shape', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent on flat forms (enums, multi-select, absent mode) and valid URLs', async () => {
    const b = capture();
    const form = ask.form('Details', {
      name: { type: 'string', minLength: 1 },
      age: { type: 'integer' },
      size: { type: 'string', enum: ['s', 'm'] },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      ok: { type: 'boolean' },
    }, ['name']);
    delete (form.params as Record<string, unknown>).mode;
    b.call('tools/call', book).inputRequired({ f: form, u: ask.url('Sign in', 'https://example.com/auth?x=1') });
    expectNone(await run(b.build()), 'elicit/request-shape');
  });
});

describe('elicit/result-shape', () => {
  it('fires on an unknown action', async () => {
    const a = await run(answered(ask.form('Sure?', { ok: { type: 'boolean' } }), { action: 'ok' }));
    expectOne(a, 'elicit/result-shape', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('fires on content sent with decline', async () => {
    const a = await run(answered(ask.form('Sure?', { ok: { type: 'boolean' } }), { action: 'decline', content: { ok: false } }));
    expectOne(a, 'elicit/result-shape', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent on decline, cancel and accept with content', async () => {
    const form = ask.form('Sure?', { ok: { type: 'boolean' } });
    expectNone(await run(answered(form, reply.decline())), 'elicit/result-shape');
    expectNone(await run(answered(form, reply.cancel())), 'elicit/result-shape');
    expectNone(await run(answered(form, reply.accept({ ok: true }))), 'elicit/result-shape');
  });
});

describe('elicit/content-schema', () => {
  const form = ask.form('Details', { name: { type: 'string' }, size: { type: 'string', enum: ['s', 'm'] }, n: { type: 'integer', maximum: 5 } }, ['name']);

  it('fires when a required field is missing or a value breaks the schema', async () => {
    const a = await run(answered(form, reply.accept({ size: 'xl', n: 2.5 })));
    const f = expectOne(a, 'elicit/content-schema', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('"name"');
    expect(f.message).toContain('"size"');
    expect(f.message).toContain('"n"');
  });

  it('stays silent on matching content, and on non-accept actions', async () => {
    expectNone(await run(answered(form, reply.accept({ name: 'Ada', size: 'm', n: 5 }))), 'elicit/content-schema');
    expectNone(await run(answered(form, reply.decline())), 'elicit/content-schema');
  });
});

describe('sampling/request-shape', () => {
  it('fires when maxTokens is missing', async () => {
    const s = ask.sampling('q');
    delete (s.params as Record<string, unknown>).maxTokens;
    const b = capture();
    b.call('tools/call', book).inputRequired({ s });
    const a = await run(b.build());
    expectOne(a, 'sampling/request-shape', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent with messages and maxTokens', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ s: ask.sampling('q') });
    expectNone(await run(b.build()), 'sampling/request-shape');
  });
});

describe('sampling/result-shape', () => {
  it('fires when model is missing', async () => {
    const a = await run(answered(ask.sampling('q'), { role: 'assistant', content: { type: 'text', text: 'x' } }));
    expectOne(a, 'sampling/result-shape', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent on a full CreateMessageResult', async () => {
    expectNone(await run(answered(ask.sampling('q'), reply.sampling())), 'sampling/result-shape');
  });
});

describe('roots/result-shape', () => {
  it('fires on a root that is not file://', async () => {
    const a = await run(answered(ask.roots(), reply.roots('file:///ok', 'https://example.com/repo')));
    const f = expectOne(a, 'roots/result-shape', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('https://example.com/repo');
  });

  it('fires when roots is missing', async () => {
    const a = await run(answered(ask.roots(), {}));
    expectOne(a, 'roots/result-shape', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expect(findings(a, 'mrtr/response-kind-mismatch')).toEqual([]);
  });

  it('stays silent on file:// roots, and an empty list', async () => {
    expectNone(await run(answered(ask.roots(), reply.roots('file:///a', 'file:///b'))), 'roots/result-shape');
    expectNone(await run(answered(ask.roots(), reply.roots())), 'roots/result-shape');
  });
});
