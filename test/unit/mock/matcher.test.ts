import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { buildMockBook } from '../../../worker/mock/book.js';
import { INVALID_STATE, MOCK_MISMATCH, MockMatcher, type MockOutcome } from '../../../worker/mock/matcher.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const book = () => {
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return buildMockBook(imported.exchanges);
};
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'a-test', version: '9' } };
const call = (id: number, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta, ...extra } });
const only = (o: MockOutcome) => {
  if (o.kind !== 'answer') throw new Error(`expected an answer, got ${JSON.stringify(o)}`);
  expect(o.messages).toHaveLength(1);
  return JSON.parse(o.messages[0].text) as { id: unknown; result?: Record<string, any>; error?: { code: number; message: string } };
};
const mismatch = (o: MockOutcome) => {
  if (o.kind !== 'mismatch') throw new Error(`expected a mismatch, got ${JSON.stringify(o)}`);
  return o;
};
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
let n = 0;
const counter = () => `tok-${++n}`;

describe('the mock matcher', () => {
  it('answers a first request matched by method, name and arguments, with the client\'s id and a fresh token in place of the recorded one', () => {
    const m = new MockMatcher(book(), { newToken: counter });
    const a = only(m.handle(call(41, 'confirm_action', { action: 'rotate the API keys' })));
    expect(a.id).toBe(41);
    expect(a.result?.resultType).toBe('input_required');
    expect(a.result?.inputRequests.confirm.params.message).toBe('Confirm "rotate the API keys"?');
    expect(a.result?.requestState).toMatch(/^tok-\d+$/);
  });

  it('follows the three-round wizard round by round from the tokens it issued, to the recorded final answer', () => {
    const m = new MockMatcher(book(), { newToken: counter });
    let r = only(m.handle(call(1, 'setup_wizard', {})));
    const answers = [{ name: accept({ name: 'Acme Labs' }) }, { plan: accept({ plan: 'pro' }) }, { confirm: accept({ confirm: true }) }];
    for (const [i, inputResponses] of answers.entries()) {
      expect(Object.keys(r.result?.inputRequests ?? {})).toEqual(Object.keys(inputResponses));
      r = only(m.handle(call(2 + i, 'setup_wizard', {}, { inputResponses, requestState: r.result?.requestState })));
    }
    expect(r.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Created workspace "Acme Labs" on the pro plan.' }] });
    expect(m.mismatches).toEqual([]);
  });

  it('keeps two calls in flight apart by their tokens, answered in either order', () => {
    const m = new MockMatcher(book(), { newToken: counter });
    const a = only(m.handle(call(1, 'confirm_action', { action: 'deploy to staging' })));
    const b = only(m.handle(call(2, 'confirm_action', { action: 'rotate the API keys' })));
    const done = (id: number, args: Record<string, unknown>, state: unknown, note: string) =>
      only(m.handle(call(id, 'confirm_action', args, { inputResponses: { confirm: accept({ confirm: true, priority: 'low', note }) }, requestState: state })));
    expect(done(3, { action: 'deploy to staging' }, a.result?.requestState, 'A').result?.content[0].text).toBe('Done: "deploy to staging" at low priority (note: A second).');
    expect(done(4, { action: 'rotate the API keys' }, b.result?.requestState, 'B').result?.content[0].text).toBe('Done: "rotate the API keys" at high priority (note: B first).');
  });

  it('names the closest recorded request and the JSON path that differs when nothing matches', () => {
    const m = new MockMatcher(book());
    const o = mismatch(m.handle(call(7, 'confirm_action', { action: 'deploy to prod' })));
    expect(o.id).toBe(7);
    expect(o.error.code).toBe(MOCK_MISMATCH);
    expect(o.error.message).toContain('Closest recorded request: tools/call confirm_action');
    expect(o.error.message).toMatch(/\/params\/arguments\/action: recorded "deploy to staging", sent "deploy to prod"/);
    expect(m.mismatches).toHaveLength(1);
  });

  it('refuses a retry carrying a token it did not issue (the recorded one, replayed) with the invalid-requestState code', () => {
    const b = book();
    const m = new MockMatcher(b);
    only(m.handle(call(1, 'confirm_action', { action: 'rotate the API keys' })));
    const recorded = b.calls.find((c) => c.name === 'confirm_action' && c.rounds[0].params?.arguments && (c.rounds[0].params.arguments as any).action === 'rotate the API keys')!.rounds[0].stateIssued;
    const o = mismatch(m.handle(call(2, 'confirm_action', { action: 'rotate the API keys' }, { inputResponses: { confirm: accept({ confirm: true }) }, requestState: recorded })));
    expect(o.error.code).toBe(INVALID_STATE);
    expect(o.error.message).toContain('not the token this mock issued in tools/call confirm_action (conversation');
  });

  it('serves a recorded refusal of a tampered token when the client sends a token of its own there too', () => {
    const m = new MockMatcher(book());
    only(m.handle(call(1, 'confirm_action', { action: 'delete the demo data' })));
    const o = only(m.handle(call(2, 'confirm_action', { action: 'delete the demo data' }, { inputResponses: { confirm: accept({ confirm: true }) }, requestState: 'v1.made-up' })));
    expect(o.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    expect(o.id).toBe(2);
  });

  it('serves a retry that does not echo the token with a warning, and refuses it under --strict', () => {
    const retry = call(2, 'confirm_action', { action: 'rotate the API keys' }, { inputResponses: { confirm: accept({ confirm: true }) } });
    const lax = new MockMatcher(book());
    only(lax.handle(call(1, 'confirm_action', { action: 'rotate the API keys' })));
    const served = lax.handle(retry);
    expect(served.kind === 'answer' && served.warning).toContain('does not echo the requestState issued in tools/call confirm_action');
    expect(lax.warnings).toHaveLength(1);

    const strict = new MockMatcher(book(), { strict: true });
    only(strict.handle(call(1, 'confirm_action', { action: 'rotate the API keys' })));
    const o = mismatch(strict.handle(retry));
    expect(o.error.code).toBe(INVALID_STATE);
    expect(o.error.data.reason).toBe('token-not-echoed');
  });

  it('refuses an answer to the wrong key, naming the key asked for and the one answered', () => {
    const m = new MockMatcher(book());
    const first = only(m.handle(call(1, 'setup_wizard', {})));
    const o = mismatch(m.handle(call(2, 'setup_wizard', {}, { inputResponses: { plan: accept({ plan: 'pro' }) }, requestState: first.result?.requestState })));
    expect(o.error.message).toContain('inputResponses lacks "name", asked for by tools/call setup_wizard');
    expect(o.error.message).toContain('it answers "plan" instead, which that round never asked');
  });

  it('serves an extra answer with a warning, and refuses it under --strict', () => {
    const extra = (m: MockMatcher) => {
      const first = only(m.handle(call(1, 'setup_wizard', {})));
      return m.handle(call(2, 'setup_wizard', {}, { inputResponses: { name: accept({ name: 'Acme Labs' }), colour: accept({}) }, requestState: first.result?.requestState }));
    };
    const lax = extra(new MockMatcher(book()));
    expect(lax.kind === 'answer' && lax.warning).toContain('answers "colour", never asked');
    expect(mismatch(extra(new MockMatcher(book(), { strict: true }))).error.data.reason).toBe('unasked-key');
  });

  it('accepts notifications and client answers without a reply', () => {
    const m = new MockMatcher(book());
    expect(m.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }).kind).toBe('accepted');
    expect(m.handle({ jsonrpc: '2.0', id: 3, result: {} }).kind).toBe('accepted');
    expect(mismatch(m.handle([1, 2])).error.code).toBe(-32600);
  });
});

describe('the mock matcher, guarding its tokens and the capture\'s gaps', () => {
  it('refuses a token it issued for one call when it comes back with another call\'s arguments, naming the difference', () => {
    const m = new MockMatcher(book());
    const a = only(m.handle(call(1, 'confirm_action', { action: 'deploy to staging' })));
    const o = mismatch(m.handle(call(2, 'confirm_action', { action: 'rotate the API keys' }, { inputResponses: { confirm: accept({ confirm: true }) }, requestState: a.result?.requestState })));
    expect(o.error.code).toBe(INVALID_STATE);
    expect(o.error.data.reason).toBe('token-for-another-call');
    expect(o.error.message).toContain('/params/arguments/action: recorded "deploy to staging", sent "rotate the API keys"');
  });

  it('serves two recorded calls with equal first requests in turn, again and again', () => {
    const b = book();
    const wizard = b.calls.find((c) => c.name === 'setup_wizard')!;
    const twin = { ...wizard, id: 'twin' };
    b.calls.push(twin);
    b.byKey.get(wizard.key)!.push(twin);
    const m = new MockMatcher(b);
    const ids = [1, 2, 3, 4].map((i) => {
      const o = m.handle(call(i, 'setup_wizard', {}));
      return o.kind === 'answer' ? o.call.id : 'mismatch';
    });
    expect(ids).toEqual([wizard.id, 'twin', wizard.id, 'twin']);
  });

  it('chooses among an accepted, a declined and an erroring recorded run by the client\'s answers: the very answers, then the action', () => {
    const b = capture();
    const form = { priority: ask.form('Priority?', { level: { type: 'string' } }) };
    const runs: [Record<string, unknown>, (c: ReturnType<typeof b.call>) => void][] = [
      [reply.accept({ level: 'high' }), (c) => void c.complete({ content: [{ type: 'text', text: 'filed as high' }] })],
      [reply.decline(), (c) => void c.complete({ content: [{ type: 'text', text: 'not filed' }] })],
      [reply.accept({ level: 'urgent' }), (c) => void c.error(-32602, 'level must be low or high')],
    ];
    runs.forEach(([answer, end], i) => {
      const first = b.call('tools/call', { name: 'file_ticket', arguments: {} }).inputRequired(form, `rec-${i}`);
      end(b.retry(first, { priority: answer }));
    });
    const m = new MockMatcher(buildMockBook(b.build()), { newToken: counter });
    const settle = (answer: Record<string, unknown>) => {
      const token = only(m.handle(call(++n, 'file_ticket', {}))).result!.requestState as string;
      return only(m.handle(call(++n, 'file_ticket', {}, { requestState: token, inputResponses: { priority: answer } })));
    };
    // Round 1 is served from the runs in turn (accepted, declined, erroring, accepted…):
    // each answer below starts on another run than the one it selects.
    expect(settle(reply.accept({ level: 'urgent' })).error).toEqual({ code: -32602, message: 'level must be low or high' });
    expect(settle(reply.accept({ level: 'high' })).result!.content[0].text).toBe('filed as high');
    expect(settle(reply.decline()).result!.content[0].text).toBe('not filed');
    // An accept recorded in no run: the accepted run (same action) on which round 1 was served.
    expect(settle(reply.accept({ level: 'low' })).result!.content[0].text).toBe('filed as high');
    expect(m.mismatches).toEqual([]);
  });

  it('answers a request whose recorded answer never came with an error saying so, not silence', () => {
    const b = book();
    const discover = b.calls.find((c) => c.method === 'server/discover')!;
    discover.rounds[0] = { ...discover.rounds[0], outcome: 'no-response', messages: [] };
    const o = mismatch(new MockMatcher(b).handle({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }));
    expect(o.error.message).toContain('got no answer in the recording');
  });
});
