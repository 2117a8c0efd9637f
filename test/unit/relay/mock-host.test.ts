// "Serve as mock" on the server: the page hands the relay a capture through its page API and
// the relay serves it as target mock-<name>, to external clients at the relay URL (recorded
// like any relayed exchange) and to the page through its forwarder; a duplicate name, an
// oversized or unreadable capture and a caller without the page cookie are refused, and
// "Stop serving" removes the target.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, parseJsonl, send, startRelay, TOKEN, type RelayHarness } from './relay-harness.js';
import { STREAMED_CALL, streamedCapture, timedStream } from '../../support/stream-timing.js';

const CAPTURE = readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8');

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'a-test', version: '9' } };
const call = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: meta } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The recorded gap between the streamed answer's events. */
const GAP = 200;
const streamedCall = (progressToken: string) => JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...STREAMED_CALL, _meta: { ...meta, progressToken } } });

let h: RelayHarness;
afterEach(async () => {
  await h?.close();
});

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  send(h.port, { method, path: `/relay/api/${path}`, headers: { origin: h.origin, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('mocks served by the relay for the page', () => {
  it('starts a mock from a capture, answers an external client at its relay URL, records that exchange, and stops', async () => {
    h = await startRelay();
    const started = await api('POST', 'mocks', { name: 'manual', capture: CAPTURE, source: 'sdk-v2-manual.har' });
    expect(started.status, started.text).toBe(201);
    const mock = started.json<{ mock: { targetId: string; relayUrl: string; summary: { calls: number } } }>().mock;
    expect(mock.targetId).toBe('mock-manual');
    expect(mock.relayUrl).toBe(`${h.origin}/relay/${TOKEN}/mock-manual/mcp`);
    expect(mock.summary.calls).toBeGreaterThan(3);
    // The target list names it, reached by the page through its forwarder.
    const targets = (await api('GET', 'targets')).json<{ mocks: { id: string; url: string }[] }>();
    expect(targets.mocks).toEqual([{ id: 'mock-manual', name: 'manual', url: `${h.origin}/relay/api/forward/mock-manual` }]);

    const external = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/mock-manual/mcp`, headers: mcpHeaders, body: call(41, 'confirm_action', { action: 'rotate the API keys' }) });
    expect(external.status).toBe(200);
    const answer = JSON.parse(external.text.startsWith('{') ? external.text : /data: (.*)/.exec(external.text)![1]) as { id: number; result: { resultType: string; requestState: string } };
    expect(answer.id).toBe(41);
    expect(answer.result.resultType).toBe('input_required');
    expect(answer.result.requestState).toMatch(/^mock\./);
    // Recorded like any relay target's exchange (no page is open: into the capture file).
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records.some((r) => r.request.url.endsWith('/relay/mock/manual/mcp') && r.state === 'complete'));

    // The page's forwarder reaches it too; a request with no recorded answer is a named mismatch.
    const viaPage = await send(h.port, { method: 'POST', path: '/relay/api/forward/mock-manual', headers: { origin: h.origin, ...mcpHeaders }, body: call(7, 'confirm_action', { action: 'deploy to prod' }) });
    expect(viaPage.status).toBe(200);
    const error = JSON.parse(viaPage.text) as { id: number; error: { code: number; message: string; data: { closest: string } } };
    expect(error.id).toBe(7);
    expect(error.error.message).toContain('Closest recorded request: tools/call confirm_action');
    const listed = (await api('GET', 'mocks')).json<{ mocks: { summary: { answered: number; used: number; unused: string[] }; mismatches: { closest: string | null; diff: string | null }[] }[] }>().mocks;
    expect(listed).toHaveLength(1);
    expect(listed[0].summary.answered).toBe(1);
    expect(listed[0].summary.unused.length).toBeGreaterThan(0);
    // The mismatch is listed with its closest recorded request and the JSON path diff.
    expect(listed[0].mismatches).toHaveLength(1);
    const last = listed[0].mismatches[0];
    expect(last.closest).toBe(error.error.data.closest);
    expect(last.diff).toContain('/arguments/action');

    const stopped = await api('DELETE', 'mocks/manual');
    expect(stopped.status).toBe(200);
    const after = await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/mock-manual/mcp`, headers: mcpHeaders, body: call(42, 'confirm_action', { action: 'rotate the API keys' }) });
    expect(after.status).toBe(404);
    expect(after.json().error).toContain('Unknown target "mock-manual"');
    expect((await api('DELETE', 'mocks/manual')).json().error).toBe('No mock named "manual" is served (served: none).');
  });

  it('streams a mock\'s answer as recorded by default, and at once when started with timing "fast"', async () => {
    h = await startRelay();
    const paced = await api('POST', 'mocks', { name: 'paced', capture: streamedCapture(GAP) });
    expect(paced.status, paced.text).toBe(201);
    expect(paced.json<{ mock: { timing: string } }>().mock.timing).toBe('recorded');
    expect((await api('POST', 'mocks', { name: 'fast', capture: streamedCapture(GAP), timing: 'fast' })).status).toBe(201);
    expect((await api('GET', 'mocks')).json<{ mocks: { name: string; timing: string }[] }>().mocks.map((m) => [m.name, m.timing])).toEqual([['paced', 'recorded'], ['fast', 'fast']]);

    const recorded = await timedStream(`http://127.0.0.1:${h.port}/relay/${TOKEN}/mock-paced/mcp`, streamedCall('mine'), mcpHeaders);
    const fast = await timedStream(`http://127.0.0.1:${h.port}/relay/${TOKEN}/mock-fast/mcp`, streamedCall('mine'), mcpHeaders);
    // Three events each way, with the client's progress token; the recorded gaps are kept
    // (no event early: bounds that only a slow machine could not meet are not asserted).
    for (const got of [recorded, fast]) {
      expect(got.contentType).toBe('text/event-stream');
      expect(got.messages.map((m) => m.params?.progressToken ?? (m.id === 5 ? 'answer' : m))).toEqual(['mine', 'mine', 'answer']);
    }
    // Recorded GAP and 2 GAP after the first event (itself recorded at the head's time).
    expect(recorded.times[1]).toBeGreaterThanOrEqual(0.8 * GAP);
    expect(recorded.times[2]).toBeGreaterThanOrEqual(0.8 * 2 * GAP);
    expect(fast.times[2] - fast.times[0]).toBeLessThan(GAP);
  });

  it('refuses a timing other than "recorded" or "fast", saying which are', async () => {
    h = await startRelay();
    const bad = await api('POST', 'mocks', { name: 'slow', capture: streamedCapture(GAP), timing: 'slow' });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toBe('The mock\'s "timing" must be "recorded" or "fast" ("recorded", the default, sends each answer and stream event as late as recorded; "fast" at once); got "slow".');
    expect((await api('POST', 'mocks', { name: 'slow', capture: streamedCapture(GAP), timing: 5 })).json().error).toMatch(/"timing" must be .*; got 5\.$/);
    expect((await api('GET', 'mocks')).json<{ mocks: unknown[] }>().mocks).toEqual([]);
  });

  it('serves a retry that does not echo the token with a warning, and refuses it when started strict', async () => {
    h = await startRelay();
    expect((await api('POST', 'mocks', { name: 'lax', capture: CAPTURE })).json<{ mock: { strict: boolean } }>().mock.strict).toBe(false);
    expect((await api('POST', 'mocks', { name: 'strict', capture: CAPTURE, strict: true })).json<{ mock: { strict: boolean } }>().mock.strict).toBe(true);
    const retry = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'confirm_action', arguments: { action: 'rotate the API keys' }, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: meta } });
    const read = (text: string) => JSON.parse(text.startsWith('{') ? text : /data: (.*)/.exec(text)![1]) as { id: number; result?: { resultType?: string }; error?: { code: number; data: { reason: string } } };
    const outcome: Record<string, ReturnType<typeof read>> = {};
    for (const name of ['lax', 'strict']) {
      const path = `/relay/${TOKEN}/mock-${name}/mcp`;
      expect(read((await send(h.port, { method: 'POST', path, headers: mcpHeaders, body: call(1, 'confirm_action', { action: 'rotate the API keys' }) })).text).result?.resultType).toBe('input_required');
      outcome[name] = read((await send(h.port, { method: 'POST', path, headers: mcpHeaders, body: retry })).text);
    }
    expect(outcome.lax.error).toBeUndefined();
    expect(outcome.strict.error?.data.reason).toBe('token-not-echoed');
    const views = (await api('GET', 'mocks')).json<{ mocks: { name: string; strict: boolean; summary: { warnings: string[] }; mismatches: unknown[] }[] }>().mocks;
    expect(views.map((m) => [m.name, m.strict, m.summary.warnings.length, m.mismatches.length])).toEqual([['lax', false, 1, 0], ['strict', true, 0, 1]]);
    const bad = await api('POST', 'mocks', { name: 'odd', capture: CAPTURE, strict: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json().error).toMatch(/^The mock's "strict" must be true or false .*; got "yes"\.$/);
  });

  it('refuses a second mock of the same name with a clear message, and keeps the first', async () => {
    h = await startRelay();
    expect((await api('POST', 'mocks', { name: 'twice', capture: CAPTURE })).status).toBe(201);
    const again = await api('POST', 'mocks', { name: 'twice', capture: CAPTURE });
    expect(again.status).toBe(409);
    expect(again.json().error).toBe('A mock named "twice" is already served (target mock-twice). Stop serving it first, or pick another name.');
    expect((await api('GET', 'mocks')).json<{ mocks: unknown[] }>().mocks).toHaveLength(1);
  });

  it('bounds the capture size and the number of mocks, and says what is wrong with a bad name or capture', async () => {
    h = await startRelay({ mocks: { max: 1, maxCaptureBytes: 4096 } });
    const big = await api('POST', 'mocks', { name: 'big', capture: CAPTURE });
    expect(big.status).toBe(413);
    expect(big.json().error).toBe("The mock's capture too large (limit 4096 bytes).");
    const badName = await api('POST', 'mocks', { name: 'no spaces', capture: '{}' });
    expect(badName.status).toBe(400);
    expect(badName.json().error).toContain('"name" must be 1-48 letters, digits');
    const unreadable = await api('POST', 'mocks', { name: 'broken', capture: '{"not": "a capture"' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.json().error).toMatch(/^The capture for mock "broken" could not be read: /);
    const notJson = await send(h.port, { method: 'POST', path: '/relay/api/mocks', headers: { origin: h.origin }, body: 'name=x' });
    expect(notJson.status).toBe(400);

    const small = { log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [JSON.parse(CAPTURE).log.entries[0]] } };
    const one = await api('POST', 'mocks', { name: 'one', capture: JSON.stringify(small) });
    expect(one.status, one.text).toBe(201);
    const second = await api('POST', 'mocks', { name: 'two', capture: JSON.stringify(small) });
    expect(second.status).toBe(429);
    expect(second.json().error).toBe('1 mocks are served already, the most at once; stop one first (one).');
  });

  it('refuses every mocks call without the page cookie, or from another origin', async () => {
    h = await startRelay();
    expect((await api('POST', 'mocks', { name: 'kept', capture: CAPTURE })).status).toBe(201);
    for (const [method, path] of [['GET', 'mocks'], ['POST', 'mocks'], ['DELETE', 'mocks/kept'], ['GET', 'mocks/kept']] as const) {
      const noCookie = await api(method, path, method === 'POST' ? { name: 'x', capture: CAPTURE } : undefined, { cookie: '' });
      expect(noCookie.status, `${method} ${path}`).toBe(403);
      expect(noCookie.json().error).toMatch(/no page cookie/);
      const foreign = await api(method, path, method === 'POST' ? { name: 'x', capture: CAPTURE } : undefined, { origin: 'http://evil.example' });
      expect(foreign.status, `${method} ${path}`).toBe(403);
    }
    // Nothing changed: the mock is still served, and no other was started.
    expect((await api('GET', 'mocks')).json<{ mocks: { name: string }[] }>().mocks.map((m) => m.name)).toEqual(['kept']);
  });
});
