// A well-behaved capture must lint clean: every rule's near-miss baseline.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { sdkToken, unix } from '../../support/tokens.js';
import { expectNoInternalErrors, run } from './lint-helpers.js';

const KEY = 'a-test-key-that-is-at-least-32-bytes-long!';

describe('a well-formed capture', () => {
  it('produces no findings for discover, a three-round tool call and a prompt', async () => {
    const b = capture();
    b.call('server/discover').complete({ supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 1000, cacheScope: 'public' });
    const exp = unix(b.now) + 300;
    const r1 = b.call('tools/call', { name: 'book', arguments: { city: 'Oslo' } })
      .inputRequired({ confirm: ask.form('Book it?', { ok: { type: 'boolean' } }, ['ok']) }, sdkToken(KEY, { step: 1, method: 'tools/call' }, exp, 'tools/call:book'));
    const r2 = b.retry(r1, { confirm: reply.accept({ ok: true }) })
      .inputRequired({ llm: ask.sampling('Summarise'), where: ask.roots() }, sdkToken(KEY, { step: 2 }, exp, 'tools/call:book'));
    b.retry(r2, { llm: reply.sampling(), where: reply.roots('file:///home/u/p') }).sse().complete();
    const p1 = b.call('prompts/get', { name: 'greeting', arguments: {} }).inputRequired({ who: ask.url('Sign in', 'https://example.com/login') });
    b.retry(p1, { who: reply.accept() }).complete({ messages: [] });
    const records = b.build();
    const a = await run(records, { keys: [KEY] });
    expectNoInternalErrors(a);
    expect(a.findings.map((f) => `${f.rule} @${f.exchange}: ${f.message}`)).toEqual([]);
    expect(a.conversations.map((c) => c.exchanges)).toEqual([[0], [1, 2, 3], [4, 5]]);
  });
});
