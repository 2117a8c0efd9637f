// MRTR chain rules about what the server does.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { sdkToken, unix } from '../../support/tokens.js';
import { claimOf, conversationOf, expectNone, expectOne, run } from './lint-helpers.js';

const KEY = 'a-test-key-that-is-at-least-32-bytes-long!';
const OTHER_KEY = 'some-other-key-that-is-32-bytes-or-more!!';
const book = { name: 'book', arguments: { city: 'Oslo' } };

describe('mrtr/input-required-empty', () => {
  it('fires on an input_required result with neither inputRequests nor requestState', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired();
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-required-empty', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires on an empty inputRequests map with no state', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({});
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-required-empty', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent on a requestState-only round (load shedding)', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired(undefined, 'busy-1');
    b.retry(r1).complete();
    expectNone(await run(b.build()), 'mrtr/input-required-empty');
  });
});

describe('mrtr/input-required-method', () => {
  it('fires when tools/list answers input_required', async () => {
    const b = capture();
    b.call('tools/list').inputRequired({ where: ask.roots() });
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-required-method', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('stays silent for resources/read and prompts/get', async () => {
    const b = capture();
    b.call('resources/read', { uri: 'file:///a.txt' }).inputRequired({ where: ask.roots() });
    b.call('prompts/get', { name: 'p' }).inputRequired({ where: ask.roots() });
    expectNone(await run(b.build()), 'mrtr/input-required-method');
  });
});

describe('mrtr/input-request-kind', () => {
  it('fires on an inputRequests value that is a tools/call', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ ok: ask.roots(), nested: { method: 'tools/call', params: { name: 'x' } } });
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/input-request-kind', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
    expect(f.message).toContain('"nested"');
    expect(f.message).toContain('"tools/call"');
  });

  it('stays silent on elicitation, sampling and roots', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ e: ask.form('m', { a: { type: 'string' } }), s: ask.sampling('q'), r: ask.roots() });
    expectNone(await run(b.build()), 'mrtr/input-request-kind');
  });
});

describe('mrtr/input-request-undeclared', () => {
  it('fires on a form elicitation when the request declared only URL mode', async () => {
    const b = capture();
    b.call('tools/call', book).capabilities({ elicitation: { url: {} } }).inputRequired({ c: ask.form('Sure?', { ok: { type: 'boolean' } }) });
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-request-undeclared', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires on sampling with tools when sampling.tools was not declared', async () => {
    const b = capture();
    b.call('tools/call', book).capabilities({ sampling: {} }).inputRequired({ s: ask.sampling('q', { tools: [{ name: 't', inputSchema: { type: 'object' } }] }) });
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-request-undeclared', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it("reads the retry's own capabilities, not the original's", async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).capabilities({ roots: {} }).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: reply.roots('file:///x') }).capabilities({}).inputRequired({ r2: ask.roots() }, 'tok-2');
    const a = await run(b.build());
    expectOne(a, 'mrtr/input-request-undeclared', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when elicitation: {} (form only) meets a form request', async () => {
    const b = capture();
    b.call('tools/call', book).capabilities({ elicitation: {} }).inputRequired({ c: ask.form('Sure?', { ok: { type: 'boolean' } }) });
    expectNone(await run(b.build()), 'mrtr/input-request-undeclared');
  });
});

describe('mrtr/server-errors-on-missing', () => {
  it('fires when a retry missing a key is answered with a JSON-RPC error', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ a: ask.roots(), b: ask.sampling('q') }, 'tok-1');
    b.retry(r1, { a: reply.roots('file:///x') }).error(-32602, 'missing input b');
    const a = await run(b.build());
    expectOne(a, 'mrtr/server-errors-on-missing', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when the server asks again, or when the error is a header rejection', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ a: ask.roots(), b: ask.sampling('q') }, 'tok-1');
    b.retry(r1, { a: reply.roots('file:///x') }).inputRequired({ b: ask.sampling('q') }, 'tok-2');
    const r3 = b.call('tools/call', { name: 'other' }).inputRequired({ a: ask.roots() }, 'tok-9');
    b.retry(r3, {}).error(-32020, 'header mismatch', { status: 400 });
    expectNone(await run(b.build()), 'mrtr/server-errors-on-missing');
  });
});

describe('mrtr/server-initiated-request', () => {
  it('fires when a modern stream carries a server request', async () => {
    const b = capture();
    b.call('tools/call', book).sse([{ jsonrpc: '2.0', id: 's-1', method: 'elicitation/create', params: { message: 'hi' } }]);
    const a = await run(b.build());
    expectOne(a, 'mrtr/server-initiated-request', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0) });
  });

  it('fires when a modern client POSTs a JSON-RPC response', async () => {
    const b = capture();
    b.post({ jsonrpc: '2.0', id: 's-1', result: { action: 'accept' } });
    const a = await run(b.build());
    expectOne(a, 'mrtr/server-initiated-request', { exchange: 0, severity: 'error', conversation: claimOf(a, 0) });
  });

  it('stays silent on legacy traffic and on notifications in a modern stream', async () => {
    const b = capture();
    b.call('tools/call', book).legacy().sse([{ jsonrpc: '2.0', id: 's-1', method: 'elicitation/create', params: { message: 'hi' } }]).complete({ content: [] });
    b.call('tools/call', book).sse([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }]);
    expectNone(await run(b.build()), 'mrtr/server-initiated-request');
  });
});

describe('mrtr/expired-state-accepted', () => {
  it('fires when a retry sent after the token expired is completed', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ a: ask.roots() }, sdkToken(KEY, { s: 1 }, unix(b.now) + 30, 'x'));
    b.wait(120_000);
    b.retry(r1, { a: reply.roots('file:///x') }).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/expired-state-accepted', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when the server rejects the late token, or the token is fresh', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ a: ask.roots() }, sdkToken(KEY, { s: 1 }, unix(b.now) + 30, 'x'));
    const r2 = b.call('tools/call', { name: 'fresh' }).inputRequired({ a: ask.roots() }, sdkToken(KEY, { s: 2 }, unix(b.now) + 600, 'y'));
    b.retry(r2, { a: reply.roots('file:///x') }).complete();
    b.wait(120_000);
    b.retry(r1, { a: reply.roots('file:///x') }).error(-32602, 'Invalid or expired requestState', { data: { reason: 'invalid_request_state' } });
    expectNone(await run(b.build()), 'mrtr/expired-state-accepted');
  });
});

describe('mrtr/invalid-state-accepted', () => {
  /** A chain whose server signs with `serverKey`; the retry echoes `edit(token)`. */
  function chain(serverKey: string, edit: (t: string) => string, reject: boolean) {
    const b = capture();
    const token = sdkToken(serverKey, { s: 1 }, unix(b.now) + 600, 'x');
    const r1 = b.call('tools/call', book).inputRequired({ a: ask.roots() }, token);
    const r2 = b.retry(r1, { a: reply.roots('file:///x') }).state(edit(token));
    if (reject) r2.error(-32602, 'Invalid or expired requestState');
    return b.build();
  }
  // Flip one character of the MAC (not the last: its low bits are padding).
  const tamper = (t: string) => t.slice(0, -2) + (t.at(-2) === 'A' ? 'B' : 'A') + t.slice(-1);
  const same = (t: string) => t;

  it('fires when the server accepts a tampered token that fails verification', async () => {
    const a = await run(chain(KEY, tamper, false), { keys: [KEY] });
    const f = expectOne(a, 'mrtr/invalid-state-accepted', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expect(f.message).not.toContain(KEY);
  });

  it('stays silent without keys, when the server rejects it, and for its own tokens under a wrong key', async () => {
    expectNone(await run(chain(KEY, tamper, false)), 'mrtr/invalid-state-accepted');
    expectNone(await run(chain(KEY, tamper, true), { keys: [KEY] }), 'mrtr/invalid-state-accepted');
    expectNone(await run(chain(KEY, same, false), { keys: [KEY] }), 'mrtr/invalid-state-accepted');
    // The server's own token fails under the configured key: a key problem, reported by state/signature-invalid.
    const a = await run(chain(OTHER_KEY, same, false), { keys: [KEY] });
    expectNone(a, 'mrtr/invalid-state-accepted');
    expect(a.findings.filter((f) => f.rule === 'state/signature-invalid')).toHaveLength(1);
  });
});

describe('mrtr/too-many-rounds', () => {
  function chain(rounds: number) {
    const b = capture();
    let prev = b.call('tools/call', book).inputRequired({ a: ask.roots() }, 'tok-0');
    for (let i = 1; i < rounds - 1; i++) prev = b.retry(prev, { a: reply.roots('file:///x') }).inputRequired({ a: ask.roots() }, `tok-${i}`);
    b.retry(prev, { a: reply.roots('file:///x') }).complete();
    return b.build();
  }

  it('fires once, at the first round past the limit', async () => {
    const a = await run(chain(4), { maxRounds: 3 });
    expectOne(a, 'mrtr/too-many-rounds', { exchange: 3, severity: 'info', conversation: conversationOf(a, 0, 1, 2, 3) });
  });

  it('stays silent at the limit', async () => {
    expectNone(await run(chain(3), { maxRounds: 3 }), 'mrtr/too-many-rounds');
    expectNone(await run(chain(8)), 'mrtr/too-many-rounds');
  });
});

describe('mrtr/modified-state-accepted', () => {
  it('fires when the server completes a retry whose requestState the client edited, without any key', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'eyJzdGVwIjoxfQ');
    b.retry(r1, { c: reply.accept({ ok: true }) }).state('eyJzdGVwIjo5fQ').complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/modified-state-accepted', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toMatch(/differs from the one issued in round 1 \(from byte 11\).*answered complete/);
  });

  it('fires when the edited token is answered with another input_required round', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).state('tok-2').inputRequired({ d: ask.form('more?', { ok: { type: 'boolean' } }) }, 'tok-3');
    const a = await run(b.build());
    expectOne(a, 'mrtr/modified-state-accepted', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when the server rejects the edited token with an error (HTTP 200 or 400)', async () => {
    for (const status of [200, 400]) {
      const b = capture();
      const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
      b.retry(r1, { c: reply.accept({ ok: true }) }).state('tok-1-edited').error(-32602, 'requestState failed verification', { status });
      const a = await run(b.build());
      expectNone(a, 'mrtr/modified-state-accepted');
      expect(a.findings.some((f) => f.rule === 'mrtr/state-modified')).toBe(true); // the client side is still reported
    }
  });

  it('stays silent on a byte-identical echo, and on a retry still waiting for its answer', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    const r3 = b.call('tools/call', { ...book, arguments: { city: 'Rome' } }).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-9');
    b.retry(r3, { c: reply.accept({ ok: true }) }).state('tok-9-edited').noResponse();
    expectNone(await run(b.build()), 'mrtr/modified-state-accepted');
  });

  it('stays silent when the retry carries a token the server itself issued elsewhere (carried over, not edited)', async () => {
    const b = capture();
    const other = b.call('tools/call', { name: 'other', arguments: {} }).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-other');
    const r1 = b.call('tools/call', book).inputRequired({ c: ask.form('ok?', { ok: { type: 'boolean' } }) }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).state('tok-other').complete();
    b.retry(other, { c: reply.accept({ ok: true }) }).complete();
    const a = await run(b.build());
    expectNone(a, 'mrtr/modified-state-accepted');
  });
});
