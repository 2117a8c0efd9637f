// MRTR chain rules about what the client does on its retries.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { claimOf, conversationOf, expectNone, expectOne, findings, run } from './lint-helpers.js';

const book = { name: 'book', arguments: { city: 'Oslo' } };
const confirm = () => ask.form('Book it?', { ok: { type: 'boolean' } }, ['ok']);

describe('mrtr/state-modified', () => {
  it('fires when the retry echoes a different token, naming the byte', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-AAAA');
    b.retry(r1, { c: reply.accept({ ok: true }) }).state('tok-AAAB').complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/state-modified', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('byte 7');
    expect(f.message).toContain('round 1');
  });

  it('stays silent on a byte-exact echo', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-AAAA');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'mrtr/state-modified');
  });
});

describe('mrtr/state-invented', () => {
  it('fires when the retry carries a state the previous round never issued', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() });
    b.retry(r1, { c: reply.accept({ ok: true }) }).state('made-up').complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/state-invented', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent on an unknown token on a first round', async () => {
    const b = capture();
    b.call('tools/call', book).state('from-another-capture').complete();
    const r1 = b.call('tools/call', { name: 'x' }).inputRequired({ c: confirm() });
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'mrtr/state-invented');
  });
});

describe('mrtr/state-dropped', () => {
  it('fires when the retry omits the issued state', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).state(null).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/state-dropped', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when no state was issued and none is sent', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() });
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'mrtr/state-dropped');
  });
});

describe('mrtr/retry-reused-id', () => {
  it('fires when a retry reuses the id of an earlier round', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    const r2 = b.retry(r1, { c: reply.accept({ ok: true }) }).inputRequired({ c: confirm() }, 'tok-2');
    b.retry(r2, { c: reply.accept({ ok: true }) }).withId(r1.id!).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/retry-reused-id', { exchange: 2, severity: 'error', conversation: conversationOf(a, 0, 1, 2) });
  });

  it('stays silent when ids are new, and "1" is not 1', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book, 1).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).withId('1').complete();
    expectNone(await run(b.build()), 'mrtr/retry-reused-id');
  });
});

describe('mrtr/state-cross-request', () => {
  it('fires when another tool call echoes a chain\'s token', async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-book');
    b.call('tools/call', { name: 'cancel', arguments: {} }).state('tok-book').complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/state-cross-request', { exchange: 1, severity: 'error', conversation: conversationOf(a, 1) });
    expect(f.conversation).not.toBe(conversationOf(a, 0));
    expect(f.message).toContain(conversationOf(a, 0));
  });

  it("fires when another tool call carries inputResponses answering an open chain's keys", async () => {
    const b = capture();
    b.call('tools/call', book).inputRequired({ pick_seat: ask.form('Seat?', { seat: { type: 'string' } }) }, 'tok-book');
    b.call('tools/call', { name: 'cancel', arguments: {} }).responses({ pick_seat: reply.accept({ seat: '1A' }) }).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/state-cross-request', { exchange: 1, severity: 'error', conversation: conversationOf(a, 1) });
  });

  it('stays silent on the real retry and on unrelated calls', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-book');
    b.call('tools/call', { name: 'cancel', arguments: {} }).complete();
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    // A replay of the same call with the same token is state/replayed's business, not this rule's.
    b.wait(60_000).retry(r1, { c: reply.accept({ ok: true }) }).complete();
    const a = await run(b.build());
    expectNone(a, 'mrtr/state-cross-request');
    expect(findings(a, 'state/replayed')).toHaveLength(1);
  });
});

describe('mrtr/state-parallel-reuse', () => {
  it('fires once when two retries carry the same token at the same time', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    const t = b.now;
    b.retry(r1, { c: reply.accept({ ok: true }) }).at(t, 500).complete();
    b.retry(r1, { c: reply.accept({ ok: true }) }).at(t + 100, 500).complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/state-parallel-reuse', { exchange: 2, severity: 'warning', conversation: claimOf(a, 2) });
    // Both named by their round in the call, as the thread numbers them; no exchange numbers.
    expect(f.message).toContain('request (id 3) in round 3 sent a requestState that request (id 2) in round 2 of this call');
    expect(f.message).not.toMatch(/exchange/);
  });

  it('stays silent when one retry is answered before the next is sent', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    const r3 = b.call('tools/call', { name: 'other' }).inputRequired({ c: confirm() }, 'tok-2');
    b.retry(r3, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'mrtr/state-parallel-reuse');
  });
});

describe('mrtr/response-missing', () => {
  it('is an error when the chain goes on after the key was skipped', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm(), s: ask.sampling('q') }, 'tok-1');
    const r2 = b.retry(r1, { c: reply.accept({ ok: true }) }).inputRequired({ s: ask.sampling('q') }, 'tok-2');
    b.retry(r2, { s: reply.sampling() }).complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/response-missing', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1, 2) });
    expect(f.message).toContain('"s"');
  });

  it('is a warning when the retry ends the chain (giving up is legal)', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm(), s: ask.sampling('q') }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/response-missing', { exchange: 1, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when every key is answered (a decline is an answer)', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm(), s: ask.sampling('q') }, 'tok-1');
    b.retry(r1, { c: reply.decline(), s: reply.sampling() }).complete();
    expectNone(await run(b.build()), 'mrtr/response-missing');
  });
});

describe('mrtr/response-kind-mismatch', () => {
  it('fires when a sampling request is answered with an ElicitResult', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ s: ask.sampling('q') }, 'tok-1');
    b.retry(r1, { s: reply.accept({ text: 'x' }) }).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/response-kind-mismatch', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expectNone(a, 'sampling/result-shape');
  });

  it('fires on the wrapped {method, result} envelope', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: { method: 'roots/list', result: reply.roots('file:///x') } }).complete();
    const a = await run(b.build());
    expectOne(a, 'mrtr/response-kind-mismatch', { exchange: 1, severity: 'error', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent when each key gets its own result type', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm(), s: ask.sampling('q'), r: ask.roots() }, 'tok-1');
    b.retry(r1, { c: reply.cancel(), s: reply.sampling(), r: reply.roots('file:///x') }).complete();
    expectNone(await run(b.build()), 'mrtr/response-kind-mismatch');
  });
});

describe('mrtr/response-unrequested', () => {
  it('fires on keys the previous round never asked for', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }), extra: reply.decline() }).complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/response-unrequested', { exchange: 1, severity: 'info', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('"extra"');
  });

  it('stays silent when the keys match', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).complete();
    expectNone(await run(b.build()), 'mrtr/response-unrequested');
  });
});

describe('mrtr/retry-changed-request', () => {
  it('fires when a retry changes the arguments', async () => {
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).params({ arguments: { city: 'Bergen' } }).complete();
    const a = await run(b.build());
    const f = expectOne(a, 'mrtr/retry-changed-request', { exchange: 1, severity: 'info', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('Bergen');
  });

  it('stays silent when only inputResponses and requestState are added, or arguments are reordered', async () => {
    const b = capture();
    const r1 = b.call('tools/call', { name: 'book', arguments: { city: 'Oslo', n: 2 } }).inputRequired({ c: confirm() }, 'tok-1');
    b.retry(r1, { c: reply.accept({ ok: true }) }).params({ arguments: { n: 2, city: 'Oslo' } }).complete();
    const a = await run(b.build());
    expectNone(a, 'mrtr/retry-changed-request');
    expect(findings(a, 'mrtr/state-dropped')).toEqual([]);
  });
});
