// The test capture builder itself: defaults are a well-formed 2026 exchange.
import { describe, expect, it } from 'vitest';
import { ask, capture, headerValue } from '../../support/capture-builder.js';

describe('capture builder', () => {
  it('builds a modern POST with headers, _meta, a fresh id and a JSON answer', () => {
    const b = capture({ start: 1000 });
    b.call('tools/call', { name: 'book', arguments: {} });
    b.call('tools/list');
    const [r0, r1] = b.build();
    const h = Object.fromEntries(r0.request.headers.map((x) => [x.name, x.value]));
    expect(h).toMatchObject({ accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'book' });
    const body = JSON.parse(r0.request.body!);
    expect(body.id).toBe(1);
    expect(body.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(JSON.parse(r0.response!.body!).result.resultType).toBe('complete');
    expect(JSON.parse(r1.request.body!).id).toBe(2);
    expect([r0.seq, r1.seq, r0.startedAt, r1.startedAt]).toEqual([0, 1, 1000, 2000]);
    expect(r1.request.headers.some((x) => x.name === 'mcp-name')).toBe(false);
  });

  it('retries with the issued state and a new id, and answers over SSE on request', () => {
    const b = capture();
    const r1 = b.call('tools/call', { name: 'book' }).inputRequired({ r: ask.roots() }, 'tok-1');
    b.retry(r1, { r: { roots: [] } }).sse();
    const [, retry] = b.build();
    const body = JSON.parse(retry.request.body!);
    expect(body).toMatchObject({ id: 2, params: { name: 'book', requestState: 'tok-1', inputResponses: { r: { roots: [] } } } });
    expect(retry.response!.events).toHaveLength(1);
    expect(retry.response!.headers).toContainEqual({ name: 'content-type', value: 'text/event-stream' });
  });

  it('encodes non-ASCII header values with the base64 sentinel', () => {
    expect(headerValue('Hello, 世界')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(headerValue('plain')).toBe('plain');
    expect(headerValue(' padded')).toMatch(/^=\?base64\?/);
  });
});
