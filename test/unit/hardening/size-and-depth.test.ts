// Huge and deep input: a 50 MB body, a 1 MB token, JSON nested 10k deep in bodies and
// tokens. analyze must finish and give data that structured clone (the worker boundary,
// IndexedDB) and JSON.stringify (the CLI report) can carry: V8 overflows its stack on
// either from a few thousand levels, so deep parts are elided at a fixed depth.
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_DEPTH } from '../../../worker/decode/jsonrpc.js';
import { importCapture, exportHar } from '../../../worker/capture/index.js';
import { capture } from '../../support/capture-builder.js';
import { analyzeUsable, deepArray, deepObject } from './hostile.js';

const ELIDED = `[elided: nested deeper than ${MAX_MESSAGE_DEPTH} levels]`;

/** Depth of a parsed value, iteratively (the values here may be deep). */
function depth(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    max = Math.max(max, d);
    for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

describe('size', () => {
  it('analyses a capture with a 50 MB response body', async () => {
    const b = capture();
    b.call('tools/call', { name: 'dump' }).complete({ content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }] });
    b.call('tools/call', { name: 'after' });
    const records = b.build();
    expect(records[0].response!.body!.length).toBeGreaterThan(50 * 1024 * 1024);
    const a = await analyzeUsable(records);
    expect(a.conversations.map((c) => c.status)).toEqual(['complete', 'complete']);
  }, 20_000);

  it('analyses a 50 MB request body and a 50 MB event whose data is not JSON', async () => {
    const b = capture();
    b.call('tools/call', { name: 'up' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"up","arguments":{"blob":"${'y'.repeat(50 * 1024 * 1024)}"}}}`);
    b.call('tools/call', { name: 'sse' }).sse();
    const records = b.build();
    records[1].response!.events!.unshift({ t: records[1].response!.receivedAt, data: 'z'.repeat(50 * 1024 * 1024) });
    const a = await analyzeUsable(records);
    expect(a.decoded[0].sent[0].kind).toBe('request');
    expect(a.decoded[1].problems).toEqual([expect.objectContaining({ at: 0, message: expect.stringMatching(/^event 0: not JSON/) })]);
    expect(a.decoded[1].received.map((m) => m.kind)).toEqual(['invalid', 'result']);
  }, 20_000);

  it('reads, threads and lints a 1 MB requestState token of every shape, keeping it verbatim', async () => {
    const mb = 1024 * 1024;
    const shapes = [
      'A'.repeat(mb),
      Buffer.from(JSON.stringify({ exp: 9e9, pad: 'p'.repeat(mb) })).toString('base64url'),
      `eyJhbGciOiJIUzI1NiJ9.${'B'.repeat(mb)}.${'C'.repeat(43)}`,
      JSON.stringify({ list: Array.from({ length: mb / 8 }, (_, i) => i) }),
    ];
    const b = capture();
    for (const [i, tok] of shapes.entries()) {
      const first = b.call('tools/call', { name: `t${i}` }).inputRequired({ k: { method: 'roots/list', params: {} } }, tok);
      b.retry(first, { k: { roots: [] } }).complete();
    }
    const a = await analyzeUsable(b.build());
    expect(a.conversations.map((c) => c.rounds.map((r) => r.link))).toEqual(shapes.map(() => [null, 'state']));
    expect(a.conversations.map((c) => c.rounds[1].stateSent)).toEqual(shapes);
    expect([...a.tokens.keys()].sort()).toEqual([...shapes].sort());
  }, 20_000);
});

describe('depth', () => {
  it('elides JSON nested 10k deep in a request body, a JSON answer and an SSE answer, past the depth bound', async () => {
    const b = capture();
    b.call('tools/call', { name: 'deep' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deep","arguments":{"a":${deepArray(10_000)}}}}`);
    b.call('tools/call', { name: 'deep-json' });
    b.call('tools/call', { name: 'deep-sse' }).sse();
    const records = b.build();
    records[1].response!.body = `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","o":${deepObject(10_000)}}}`;
    records[2].response!.events![0].data = `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"deep","data":${deepArray(10_000)}}}`;
    const a = await analyzeUsable(records);
    const args = a.decoded[0].sent[0].params!.arguments;
    const result = a.decoded[1].received[0].result!;
    const data = a.decoded[2].received[0].error!.data;
    expect([a.decoded[0].sent[0].kind, a.decoded[1].received[0].kind, a.decoded[2].received[0].kind]).toEqual(['request', 'result', 'error']);
    // Levels are counted from the body: message, params, arguments, then the array.
    expect(depth(args)).toBe(MAX_MESSAGE_DEPTH - 2);
    expect(JSON.stringify(args)).toContain(ELIDED);
    expect(result.resultType).toBe('complete');
    expect(depth(result)).toBe(MAX_MESSAGE_DEPTH - 1);
    expect(depth(data)).toBe(MAX_MESSAGE_DEPTH - 2);
    expect(a.conversations.map((c) => c.status)).toEqual(['complete', 'complete', 'error']);
  });

  it('keeps bodies up to the depth bound intact', async () => {
    const b = capture();
    b.call('tools/call', { name: 'ok' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ok","arguments":{"a":${deepArray(MAX_MESSAGE_DEPTH - 3)}}}}`);
    const a = await analyzeUsable(b.build());
    const args = a.decoded[0].sent[0].params!.arguments;
    expect(depth(args)).toBe(MAX_MESSAGE_DEPTH - 2);
    expect(JSON.stringify(args)).not.toContain('elided');
  });

  it('survives 10k-deep clientInfo, _meta, inputRequests and inputResponses (threading and lint read them)', async () => {
    const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":${deepObject(10_000)}},"io.modelcontextprotocol/clientCapabilities":${deepObject(10_000)}}`;
    const b = capture();
    const first = b.call('tools/call', { name: 'd' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"d","arguments":${deepObject(10_000)},"_meta":${meta}}}`);
    b.call('tools/call', { name: 'd' }).rawBody(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"d","arguments":${deepObject(10_000)},"requestState":"tok","inputResponses":{"k":${deepArray(10_000)}},"_meta":${meta}}}`);
    const records = b.build();
    void first;
    records[0].response!.body = `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"tok","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m","requestedSchema":${deepObject(10_000)}}}}}}`;
    const a = await analyzeUsable(records);
    expect(a.conversations).toHaveLength(1);
    expect(a.conversations[0].rounds.map((r) => r.link)).toEqual([null, 'state']);
    expect(a.conversations[0].rounds[0].inputRequests).toEqual({ k: 'elicitation/create' });
  });

  it('reads a 10k-deep token payload and keeps the reading cloneable', async () => {
    const payloads = [deepArray(10_000), deepObject(10_000)];
    const tokens = [...payloads, ...payloads.map((p) => Buffer.from(p).toString('base64url'))];
    const b = capture();
    for (const [i, tok] of tokens.entries()) {
      const first = b.call('tools/call', { name: `t${i}` }).inputRequired({ k: { method: 'roots/list', params: {} } }, tok);
      b.retry(first, { k: { roots: [] } }).complete();
    }
    const a = await analyzeUsable(b.build());
    expect(a.conversations.map((c) => c.rounds[1].link)).toEqual(tokens.map(() => 'state'));
    for (const t of tokens) expect(depth(a.tokens.get(t)!.payload)).toBeLessThanOrEqual(64);
  });

  it('imports and analyses a HAR whose bodies nest 10k deep', async () => {
    const b = capture();
    b.call('tools/call', { name: 'deep' }).rawBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deep","arguments":{"a":${deepArray(10_000)}}}}`);
    const out = importCapture(exportHar(b.build(), { sanitize: false }));
    if (!out.ok) throw new Error(out.error.message);
    await analyzeUsable(out.exchanges);
  });
});
