// Tier-2 rules: one firing capture and one near-miss each.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { b64Json, unix } from '../../support/tokens.js';
import { claimOf, conversationOf, expectNone, expectOne, findings, run } from './lint-helpers.js';

const book = { name: 'book', arguments: { city: 'Oslo' } };
const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };

describe('mrtr/events-after-input-required', () => {
  it('fires when a notification follows the input_required result on the stream', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ r: ask.roots() }).sse([], [progress]);
    const a = await run(b.build());
    expectOne(a, 'mrtr/events-after-input-required', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0) });
  });

  it('stays silent when notifications come before it', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ r: ask.roots() }).sse([progress]);
    expectNone(await run(b.build()), 'mrtr/events-after-input-required');
  });
});

describe('mrtr/final-result-degraded', () => {
  function chain(structured: boolean) {
    const b = capture();
    b.call('tools/list').complete({ tools: [{ name: 'book', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }] });
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete({ content: [{ type: 'text', text: '{}' }], ...(structured ? { structuredContent: {} } : {}) });
    return b.build();
  }

  it('fires when the final round drops structuredContent', async () => {
    const a = await run(chain(false));
    expectOne(a, 'mrtr/final-result-degraded', { exchange: 2, severity: 'warning', conversation: conversationOf(a, 1, 2) });
  });

  it('stays silent when it is there', async () => {
    expectNone(await run(chain(true)), 'mrtr/final-result-degraded');
  });
});

describe('mrtr/state-only-hot-loop', () => {
  function chain(step: number) {
    const b = capture({ step });
    const r1 = b.call('tools/call', book).inputRequired(undefined, 'busy-1');
    const r2 = b.retry(r1).inputRequired(undefined, 'busy-2');
    b.retry(r2).complete();
    return b.build();
  }

  it('fires when state-only rounds are retried with no pause', async () => {
    const a = await run(chain(60));
    expectOne(a, 'mrtr/state-only-hot-loop', { exchange: 2, severity: 'info', conversation: conversationOf(a, 0, 1, 2) });
  });

  it('stays silent when the client backs off', async () => {
    expectNone(await run(chain(1000)), 'mrtr/state-only-hot-loop');
  });
});

describe('mrtr/capability-dropped', () => {
  it('fires when a retry answers roots but no longer declares roots', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).capabilities({}).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/capability-dropped', { exchange: 1, severity: 'info', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when the retry re-declares it', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    expectNone(await run(b.build()), 'mrtr/capability-dropped');
  });
});

describe('state/no-principal-binding', () => {
  function chain(payload: Record<string, unknown>) {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, b64Json({ ...payload, exp: unix(b.now) + 60 }));
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    return b.build();
  }

  it('fires when the token binds only to a session id', async () => {
    const a = await run(chain({ method: 'tools/call', sessionId: 's-1' }));
    expectOne(a, 'state/no-principal-binding', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent with a sub claim', async () => {
    expectNone(await run(chain({ method: 'tools/call', sub: 'user-1' })), 'state/no-principal-binding');
  });
});

describe('state/replayed', () => {
  it('fires at the second presentation of a token', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    const a = await run(b.build());
    expectOne(a, 'state/replayed', { exchange: 2, severity: 'info', conversation: claimOf(a, 2) });
  });

  it('stays silent on a single presentation', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    expectNone(await run(b.build()), 'state/replayed');
  });

  it('names the earlier presentation by its round in the call, not by the capture\'s exchange number', async () => {
    const b = capture();
    b.call('tools/list').complete({ tools: [] });
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    const a = await run(b.build());
    const f = expectOne(a, 'state/replayed', { exchange: 3, severity: 'info', conversation: claimOf(a, 3) });
    expect(f.message).toContain('already presented in round 2 of the tools/call "book" call this one replays');
    expect(f.message).not.toMatch(/exchange/);
  });

  it('names a presentation on another call by that call\'s method and tool', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).complete();
    b.call('tools/call', { name: 'pay', arguments: {} }).state('tok-1').complete();
    const f = findings(await run(b.build()), 'state/replayed');
    expect(f.map((x) => x.message)).toEqual([expect.stringContaining('already presented in round 2 of another tools/call "book" call')]);
  });
});

describe('result/type-in-input-response', () => {
  it('fires on an inputResponses value carrying resultType', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(r1, { c: { ...reply.accept({ ok: true }), resultType: 'complete' } }).complete();
    const a = await run(b.build());
    expectOne(a, 'result/type-in-input-response', { exchange: 1, severity: 'info', conversation: claimOf(a, 1) });
  });

  it('stays silent on bare values', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'result/type-in-input-response');
  });
});

describe('meta/capability-error-shape', () => {
  it('fires on -32021 with HTTP 200 and no requiredCapabilities', async () => {
    const b = capture();
    b.call('tools/call', book).error(-32021, 'needs elicitation');
    const a = await run(b.build());
    expectOne(a, 'meta/capability-error-shape', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent on the spec shape', async () => {
    const b = capture();
    b.call('tools/call', book).error(-32021, 'needs elicitation', { status: 400, data: { requiredCapabilities: { elicitation: {} } } });
    expectNone(await run(b.build()), 'meta/capability-error-shape');
  });
});

describe('meta/removed-method', () => {
  it('fires on a modern ping', async () => {
    const b = capture();
    b.call('ping');
    const a = await run(b.build());
    expectOne(a, 'meta/removed-method', { exchange: 0, severity: 'warning', conversation: claimOf(a, 0) });
  });

  it('stays silent on a legacy ping', async () => {
    const b = capture();
    b.call('ping').legacy().complete({ resultType: undefined });
    expectNone(await run(b.build()), 'meta/removed-method');
  });
});

describe('meta/legacy-error-code', () => {
  it('fires on -32001 in modern traffic', async () => {
    const b = capture();
    b.call('tools/call', book).error(-32001, 'header mismatch', { status: 400 });
    const a = await run(b.build());
    expectOne(a, 'meta/legacy-error-code', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0) });
  });

  it('stays silent on -32020', async () => {
    const b = capture();
    b.call('tools/call', book).error(-32020, 'header mismatch', { status: 400 });
    expectNone(await run(b.build()), 'meta/legacy-error-code');
  });
});

describe('http/session-id', () => {
  it('fires when a modern server mints Mcp-Session-Id', async () => {
    const b = capture();
    b.call('tools/list').responseHeader('Mcp-Session-Id', 'abc');
    const a = await run(b.build());
    expectOne(a, 'http/session-id', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0) });
  });

  it('stays silent on legacy responses', async () => {
    const b = capture();
    b.call('tools/list').legacy().responseHeader('Mcp-Session-Id', 'abc');
    expectNone(await run(b.build()), 'http/session-id');
  });
});

describe('elicit/secret-field', () => {
  it('fires on an api_key form field', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ k: ask.form('Key?', { api_key: { type: 'string' }, shippingAddress: { type: 'string' } }) });
    const a = await run(b.build());
    expectOne(a, 'elicit/secret-field', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0) });
  });

  it('stays silent on innocent names that contain secret-ish letters', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ k: ask.form('Details', { shipping: { type: 'string' }, max_tokens: { type: 'integer' }, spinner: { type: 'boolean' } }) });
    expectNone(await run(b.build()), 'elicit/secret-field');
  });
});

describe('legacy/session-header-missing', () => {
  function legacy(withHeader: boolean) {
    const b = capture();
    b.call('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } })
      .legacy().meta(null).header('MCP-Protocol-Version', null)
      .complete({ resultType: undefined, protocolVersion: '2025-11-25', capabilities: {} })
      .responseHeader('Mcp-Session-Id', 'sess-1');
    const next = b.call('tools/list').legacy().meta(null).complete({ resultType: undefined, tools: [] });
    if (withHeader) next.header('Mcp-Session-Id', 'sess-1');
    return b.build();
  }

  it('fires when a later request omits the session id', async () => {
    const a = await run(legacy(false));
    expectOne(a, 'legacy/session-header-missing', { exchange: 1, severity: 'error', conversation: claimOf(a, 1) });
  });

  it('stays silent when it is sent', async () => {
    expectNone(await run(legacy(true)), 'legacy/session-header-missing');
  });
});

describe('legacy/response-not-202', () => {
  it("fires when a legacy client's POSTed response gets 200", async () => {
    const b = capture();
    b.post({ jsonrpc: '2.0', id: 's-1', result: { action: 'accept' } }).legacy().status(200);
    const a = await run(b.build());
    expectOne(a, 'legacy/response-not-202', { exchange: 0, severity: 'error', conversation: claimOf(a, 0) });
  });

  it('stays silent on 202', async () => {
    const b = capture();
    b.post({ jsonrpc: '2.0', id: 's-1', result: { action: 'accept' } }).legacy();
    expectNone(await run(b.build()), 'legacy/response-not-202');
  });
});
