// requestState token rules: each fires once per distinct token, where it was issued.
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { b64Json, jwsHs256, sdkToken, unix } from '../../support/tokens.js';
import { conversationOf, expectNone, expectOne, run } from './lint-helpers.js';

const KEY = 'a-test-key-that-is-at-least-32-bytes-long!';
const OTHER_KEY = 'some-other-key-that-is-32-bytes-or-more!!';
const book = { name: 'book', arguments: { city: 'Oslo' } };

/** A two-round chain whose first answer issues `token`, echoed by the retry. */
function chain(token: (now: number) => string) {
  const b = capture();
  const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, token(b.now));
  b.retry(r1, { r: reply.roots('file:///x') }).complete();
  return b.build();
}

describe('state/unprotected', () => {
  it('fires once for readable base64 JSON, at the issuing exchange', async () => {
    const a = await run(chain((now) => b64Json({ method: 'tools/call', exp: unix(now) + 300 })));
    expectOne(a, 'state/unprotected', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('fires once even when the server re-issues the same token', async () => {
    const token = b64Json({ method: 'tools/call', exp: 4102444800 });
    const b = capture();
    const r1 = b.call('tools/call', book).inputRequired({ r: ask.roots() }, token);
    const r2 = b.retry(r1, { r: reply.roots('file:///x') }).inputRequired({ r: ask.roots() }, token);
    b.retry(r2, { r: reply.roots('file:///x') }).complete();
    const a = await run(b.build());
    expectOne(a, 'state/unprotected', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1, 2) });
  });

  it('stays silent for SDK HMAC tokens, JWS and opaque handles', async () => {
    expectNone(await run(chain((now) => sdkToken(KEY, { s: 1 }, unix(now) + 300, 'b'))), 'state/unprotected');
    expectNone(await run(chain((now) => jwsHs256(KEY, { method: 'tools/call', exp: unix(now) + 300 }))), 'state/unprotected');
    expectNone(await run(chain(() => 'h_9f8e7d6c5b4a')), 'state/unprotected');
  });
});

describe('state/signature-invalid', () => {
  it('fires once, at the issuing exchange, when the configured key does not verify the token', async () => {
    const a = await run(chain((now) => sdkToken(OTHER_KEY, { s: 1 }, unix(now) + 300, 'b')), { keys: [KEY] });
    const f = expectOne(a, 'state/signature-invalid', { exchange: 0, severity: 'error', conversation: conversationOf(a, 0, 1) });
    expect(f.message).not.toContain(KEY);
  });

  it('stays silent with the right key, and without any key', async () => {
    expectNone(await run(chain((now) => sdkToken(KEY, { s: 1 }, unix(now) + 300, 'b')), { keys: [KEY] }), 'state/signature-invalid');
    expectNone(await run(chain((now) => sdkToken(OTHER_KEY, { s: 1 }, unix(now) + 300, 'b'))), 'state/signature-invalid');
  });
});

describe('state/no-expiry', () => {
  it('fires for a decodable token without an expiry claim', async () => {
    const a = await run(chain(() => b64Json({ method: 'tools/call', step: 1 })));
    expectOne(a, 'state/no-expiry', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent with exp, and for opaque handles', async () => {
    expectNone(await run(chain((now) => b64Json({ method: 'tools/call', exp: unix(now) + 60 }))), 'state/no-expiry');
    expectNone(await run(chain(() => 'h_9f8e7d6c5b4a')), 'state/no-expiry');
  });
});

describe('state/long-ttl', () => {
  it('fires when exp - iat exceeds the bound', async () => {
    const a = await run(chain((now) => jwsHs256(KEY, { method: 'tools/call', iat: unix(now), exp: unix(now) + 3600 })));
    const f = expectOne(a, 'state/long-ttl', { exchange: 0, severity: 'info', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('3600 s');
  });

  it('uses the answer time as the issue time of SDK tokens', async () => {
    const a = await run(chain((now) => sdkToken(KEY, { s: 1 }, unix(now) + 86400, 'b')));
    expectOne(a, 'state/long-ttl', { exchange: 0, severity: 'info', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent within the bound, or when the bound is raised', async () => {
    expectNone(await run(chain((now) => jwsHs256(KEY, { method: 'tools/call', iat: unix(now), exp: unix(now) + 600 }))), 'state/long-ttl');
    expectNone(await run(chain((now) => sdkToken(KEY, { s: 1 }, unix(now) + 3600, 'b')), { ttlBoundSeconds: 7200 }), 'state/long-ttl');
    // No issue time at all: nothing to measure.
    expectNone(await run(chain((now) => b64Json({ method: 'tools/call', exp: unix(now) + 86400 }))), 'state/long-ttl');
  });
});

describe('state/no-request-binding', () => {
  it('fires for a decodable token that names no method or digest', async () => {
    const a = await run(chain((now) => b64Json({ step: 2, exp: unix(now) + 60 })));
    expectOne(a, 'state/no-request-binding', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
  });

  it('stays silent with a method claim, an SDK bind tag, or an opaque handle', async () => {
    expectNone(await run(chain((now) => b64Json({ method: 'tools/call', exp: unix(now) + 60 }))), 'state/no-request-binding');
    expectNone(await run(chain((now) => sdkToken(KEY, { s: 1 }, unix(now) + 300, 'tools/call:book'))), 'state/no-request-binding');
    expectNone(await run(chain(() => 'h_9f8e7d6c5b4a')), 'state/no-request-binding');
  });

  it('stays silent for a JWS whose aud, sub or jti names the method or the tool', async () => {
    for (const claims of [
      { aud: 'tools/call book', exp: 4102444800 },
      { aud: ['https://api.example.com', 'urn:mcp:tools/call:book'], exp: 4102444800 },
      { sub: 'book', exp: 4102444800 },
      { jti: 'tools/call#7f3a', exp: 4102444800 },
    ]) expectNone(await run(chain(() => jwsHs256(KEY, claims))), 'state/no-request-binding');
  });

  it('stays silent for digest claims named hash or h, and a req claim', async () => {
    expectNone(await run(chain(() => jwsHs256(KEY, { h: 'sha256:9f86d0', exp: 4102444800 }))), 'state/no-request-binding');
    expectNone(await run(chain(() => jwsHs256(KEY, { hash: '9f86d081884c7d65', exp: 4102444800 }))), 'state/no-request-binding');
    expectNone(await run(chain(() => b64Json({ req: 'c7', exp: 4102444800 }))), 'state/no-request-binding');
  });

  it('fires for a JWS whose aud and sub name something else, and says which claims it read', async () => {
    const a = await run(chain(() => jwsHs256(KEY, { aud: 'https://api.example.com', sub: 'alice', exp: 4102444800 })));
    const f = expectOne(a, 'state/no-request-binding', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('read aud "https://api.example.com", sub "alice": none names tools/call or "book"');
  });

  it('does not count a claim that only contains the tool name inside a longer word', async () => {
    const a = await run(chain(() => jwsHs256(KEY, { aud: 'bookkeeping-api', exp: 4102444800 })));
    const f = expectOne(a, 'state/no-request-binding', { exchange: 0, severity: 'warning', conversation: conversationOf(a, 0, 1) });
    expect(f.message).toContain('read aud "bookkeeping-api"');
  });
});
