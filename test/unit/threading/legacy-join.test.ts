// Which call a legacy (2025-11-25) server request on stdio belongs to, when several calls
// wait on the one pipe: what the server request names (progress token, related task), then
// the wire order. Traffic is built line by line through wrap's own pairing, with the clock
// reading wrap gets when it reads several lines at once (the same millisecond).
import { describe, expect, it } from 'vitest';
import { StdioPairing, WIRE_STEP_MS } from '../../../cli/wrap/stdio-pairing.js';
import { analyze } from '../../../worker/analysis.js';
import type { Conversation, ExchangeRecord } from '../../../worker/protocol.js';

type Line = ['c' | 's', Record<string, unknown>];
const rpc = (o: Record<string, unknown>) => ({ jsonrpc: '2.0', ...o });
const init = (): Line[] => [
  ['c', rpc({ id: 'i', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {}, elicitation: {} }, clientInfo: { name: 'c', version: '1' } } })],
  ['s', rpc({ id: 'i', result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } })],
  ['c', rpc({ method: 'notifications/initialized' })],
];
const call = (id: number, name: string, meta?: Record<string, unknown>): Line =>
  ['c', rpc({ id, method: 'tools/call', params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) } })];
const done = (id: number): Line => ['s', rpc({ id, result: { content: [{ type: 'text', text: `done ${id}` }] } })];
const sampling = (id: number, meta?: Record<string, unknown>): Line =>
  ['s', rpc({ id, method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 9, ...(meta ? { _meta: meta } : {}) } })];
const answer = (id: number): Line => ['c', rpc({ id, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } })];

// Every line read in the same millisecond, as wrap reads a burst.
function capture(lines: readonly Line[], now = () => 1_800_000_000_000): ExchangeRecord[] {
  const latest = new Map<string, ExchangeRecord>();
  const p = new StdioPairing({ name: 'ev', client: 'stdio:ev:1', emit: (r) => latest.set(r.id, structuredClone(r)), now });
  for (const [side, m] of lines) (side === 'c' ? p.clientLine : p.serverLine).call(p, JSON.stringify(m));
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

// The tool names whose rounds hold each server request, by its method.
async function joins(lines: readonly Line[]): Promise<Record<string, string[]>> {
  const a = await analyze(capture(lines));
  const out: Record<string, string[]> = {};
  for (const c of a.conversations as Conversation[]) {
    for (const it of c.rounds.flatMap((r) => r.legacy ?? [])) (out[`${it.method} ${JSON.stringify(it.id)}`] ??= []).push(c.name ?? c.method);
  }
  return out;
}

describe('legacy server requests on stdio: joined from wire evidence, else left open', () => {
  it('stamps lines read in the same millisecond a microsecond apart, in wire order, true to the millisecond', () => {
    const rs = capture([...init(), call(1, 'a'), call(2, 'b'), done(2), done(1)]);
    const times = rs.flatMap((r) => [r.startedAt, ...(r.response?.events ?? []).map((e) => e.t)]).sort((x, y) => x - y);
    expect(new Set(times).size).toBe(times.length);
    for (const t of times) expect(Math.floor(t)).toBe(1_800_000_000_000);
    expect(times[1] - times[0]).toBeCloseTo(WIRE_STEP_MS, 4);
    // A clock that moves on is taken as it is.
    let t = 1_800_000_000_000;
    const moving = capture([call(1, 'a'), done(1)], () => (t += 5));
    expect(moving[0].startedAt).toBe(1_800_000_000_005);
    expect(moving[0].response?.events?.[0].t).toBe(1_800_000_000_010);
  });

  it('joins a request to the one call still waiting when the client answered it, though all lines came in one millisecond', async () => {
    // echo answered before the sampling request's answer, so only sampleLLM was still waiting.
    const lines = [...init(), call(1, 'sampleLLM'), call(2, 'echo'), sampling(0), done(2), answer(0), done(1)];
    expect(await joins(lines)).toEqual({ 'sampling/createMessage 0': ['sampleLLM'] });
  });

  it('leaves out a call answered just before the server asked (not in flight then)', async () => {
    // add was answered the line before the server asked, so it was not in flight; echo was,
    // but was answered before the client answered the request: only sampleLLM is left.
    const lines = [...init(), call(1, 'sampleLLM'), call(2, 'add'), call(3, 'echo'), done(2), sampling(0), done(3), answer(0), done(1)];
    expect(await joins(lines)).toEqual({ 'sampling/createMessage 0': ['sampleLLM'] });
  });

  it('leaves a request unjoined when several calls were still waiting when the client answered it', async () => {
    const lines = [...init(), call(1, 'sampleLLM'), call(2, 'startElicitation'), sampling(0), answer(0), done(1), done(2)];
    expect(await joins(lines)).toEqual({});
  });

  it('joins a request that carries a waiting call\'s progress token, whatever the order says', async () => {
    const lines = [...init(), call(1, 'a', { progressToken: 'p-a' }), call(2, 'b', { progressToken: 'p-b' }), sampling(0, { progressToken: 'p-b' }), answer(0), done(1), done(2)];
    expect(await joins(lines)).toEqual({ 'sampling/createMessage 0': ['b'] });
  });

  it('joins a request whose related task is the one a waiting tasks/result reads', async () => {
    const result = (id: number, taskId: string): Line => ['c', rpc({ id, method: 'tasks/result', params: { taskId } })];
    const related = { 'io.modelcontextprotocol/related-task': { taskId: 'task-2' } };
    const lines = [...init(), result(1, 'task-1'), result(2, 'task-2'), sampling(0, related), answer(0), done(1), done(2)];
    const got = await joins(lines);
    expect(got).toEqual({ 'sampling/createMessage 0': ['tasks/result'] });
    const a = await analyze(capture(lines));
    const owner = a.conversations.find((c) => c.rounds.some((r) => r.legacy?.length));
    expect(owner?.rounds[0].requestId).toBe(2);
  });

  it('leaves it unjoined when the token it names is on two waiting calls, or on none in flight', async () => {
    const twice = [...init(), call(1, 'a', { progressToken: 7 }), call(2, 'b', { progressToken: 7 }), sampling(0, { progressToken: 7 }), answer(0), done(1), done(2)];
    expect(await joins(twice)).toEqual({});
    // Named by nothing in flight: the wire order decides (here: both wait, so open).
    const none = [...init(), call(1, 'a', { progressToken: 1 }), call(2, 'b', { progressToken: 2 }), sampling(0, { progressToken: 3 }), answer(0), done(1), done(2)];
    expect(await joins(none)).toEqual({});
  });
});
