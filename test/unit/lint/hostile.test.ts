// Bodies are hostile: no rule may throw (the engine would turn a throw into an
// "internal error" finding) or read through the prototype chain.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { expectNoInternalErrors, run } from './lint-helpers.js';

const weird: unknown[] = [null, 0, -1, 'x', '', [], [1, 2], {}, { __proto__: { method: 'roots/list' } }, true, 1e308];

describe('rules on hostile bodies', () => {
  it('survive malformed inputRequests, inputResponses, _meta and results', async () => {
    const b = capture();
    for (const w of weird) {
      const r1 = b.call('tools/call', { name: 'x', arguments: w }).inputRequired({ a: w, b: { method: 'elicitation/create', params: w }, c: { method: 'sampling/createMessage', params: { messages: w, maxTokens: w } } } as Record<string, unknown>, 'tok');
      b.retry(r1, { a: w, b: { action: w, content: w }, c: w, constructor: w, __proto__: w } as Record<string, unknown>).meta({ 'io.modelcontextprotocol/clientCapabilities': w }).complete({ resultType: w });
      b.call('tools/call', { name: w }).result({ resultType: 'input_required', inputRequests: w, requestState: w });
      b.call('tools/call', { name: 'y' }).inputRequired({ f: { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: w, required: w } } } });
    }
    b.call('tools/call', { name: 'z' }).answer('not json-rpc', 42, null);
    b.post('{"jsonrpc":"2.0","id":1,"result":');
    const e = b.call('tools/call', { name: 'e' }).inputRequired({ f: ask.form('m', { a: { type: 'string', enum: [1, null] } }) }, 'tok-e');
    b.retry(e, { f: reply.accept({ a: { deep: [1] } }) }).complete();
    // Own "__proto__" / "constructor" keys, as JSON.parse makes them.
    const p1 = b.call('tools/call', { name: 'proto' }).answer(JSON.parse('{"jsonrpc":"2.0","id":0,"result":{"resultType":"input_required","requestState":"tok-proto","inputRequests":{"__proto__":{"method":"roots/list"},"constructor":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"object"}}}}}}}}'));
    p1.withId(p1.id!);
    p1.issuedState = 'tok-proto';
    b.retry(p1).rawBody(JSON.stringify({ jsonrpc: '2.0', id: 1000, method: 'tools/call', params: { name: 'proto', requestState: 'tok-proto', _meta: {} } }).replace('"_meta":{}', '"_meta":{"__proto__":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}},"inputResponses":{"__proto__":{"roots":[]},"constructor":{"action":"accept","content":{"__proto__":1}}}'));
    const a = await run(b.build());
    expectNoInternalErrors(a);
    // Inherited names are never read as data: the own "__proto__" request key is a roots request.
    expect(a.findings.filter((f) => f.rule === 'mrtr/input-request-kind' && f.message.includes('__proto__'))).toEqual([]);
  });

  it('survive arbitrary JSON in every body position (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), async (reqs, resps, result) => {
        const b = capture();
        const r1 = b.call('tools/call', { name: 'p', arguments: resps }).result({ resultType: 'input_required', inputRequests: reqs, requestState: 'tok-p' });
        b.retry(r1, { k: resps, ...(typeof resps === 'object' && resps !== null && !Array.isArray(resps) ? resps : {}) }).result(
          typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : { resultType: result },
        );
        const a = await run(b.build());
        expect(a.findings.filter((f) => f.message.startsWith('internal error'))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
