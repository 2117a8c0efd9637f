// Property tests over threading and lint: arbitrary sequences of builder-made exchanges
// (tokens and keys from small pools so echoes, reuse and forks happen; ids reused across
// types; answers over JSON or SSE, errors, silence, garbage; legacy server requests) must
// give an analysis whose cross-references all hold, that is deterministic, independent of
// the order the records are given in, and that survives structured clone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import type { ExchangeRecord, JsonRpcId } from '../../../worker/protocol.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

const TOKENS = ['tok-a', 'tok-b', '<b>x</b>', '__proto__'];
const KEYS = ['k1', 'k2', '__proto__', 'constructor'];
const IDS: JsonRpcId[] = [1, 2, '1', 'x', 0.5, -1, null];
const METHODS = ['tools/call', 'tools/call', 'tools/call', 'tools/call', 'prompts/get', 'resources/read', 'tools/list', 'ping'];
const INPUT_KINDS: Record<string, unknown>[] = [ask.form('m', { f: { type: 'string' } }), ask.roots(), ask.sampling('hi'), { method: 'bogus/kind' }, { nope: 1 }];
const RESPONSES: unknown[] = [reply.accept({ f: 'v' }), reply.decline(), reply.roots('file:///'), reply.sampling(), 42, null];

/** `arb` one time in `of`, else undefined. */
const sometimes = <T>(arb: fc.Arbitrary<T>, of: number) => fc.oneof({ arbitrary: arb, weight: 1 }, { arbitrary: fc.constant(undefined), weight: of - 1 });

const keyMap = <T>(values: fc.Arbitrary<T>) => fc.dictionary(fc.constantFrom(...KEYS), values, { maxKeys: 3 }).map((d) => JSON.parse(JSON.stringify(d)) as Record<string, T>);

const answer = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('input' as const), requests: keyMap(fc.constantFrom(...INPUT_KINDS)), token: fc.oneof({ arbitrary: fc.constantFrom(...TOKENS), weight: 3 }, { arbitrary: fc.constant(undefined), weight: 1 }) }), weight: 4 },
  fc.record({ kind: fc.constant('complete' as const) }),
  fc.record({ kind: fc.constant('error' as const), code: fc.constantFrom(-32602, -32603, -32000, 1.5), status: fc.constantFrom(200, 400, 500) }),
  fc.record({ kind: fc.constant('none' as const) }),
  fc.record({ kind: fc.constant('accepted' as const) }),
  fc.record({ kind: fc.constant('garbage' as const), body: fc.constantFrom('not json', '{"jsonrpc":"2.0","id":', '[]', '{"error":"proxy says no"}', '[1,{"jsonrpc":"2.0"}]') }),
  fc.record({ kind: fc.constant('server-request' as const), id: fc.constantFrom<JsonRpcId>('s1', 's2', 1) }),
);

const step = fc.record({
  method: fc.constantFrom(...METHODS),
  name: fc.constantFrom('a', 'b'),
  args: fc.constantFrom<Record<string, unknown>>({}, { x: 1 }),
  id: sometimes(fc.constantFrom(...IDS), 3),
  state: sometimes(fc.constantFrom(...TOKENS), 2),
  responses: sometimes(keyMap(fc.constantFrom(...RESPONSES)), 2),
  answer,
  sse: fc.boolean(),
  legacy: sometimes(fc.constant(true), 4),
  client: sometimes(fc.constantFrom('A', 'B'), 2),
  session: sometimes(fc.constantFrom('s-1', 's-2'), 3),
  duration: fc.integer({ min: 1, max: 1500 }),
  answerPost: sometimes(fc.constantFrom<JsonRpcId>('s1', 's2', 1), 8),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** Builds the records; `order[i]` is step i's slot in time (distinct, so time order is total). */
function build(steps: Step[], order: readonly number[]): ExchangeRecord[] {
  const b = capture();
  const t0 = b.now;
  steps.forEach((s, i) => {
    const start = t0 + order[i] * 1000;
    if (s.answerPost !== undefined) {
      // A legacy client POSTing its answer to a server request (JSON-RPC response in the body).
      b.post({ jsonrpc: '2.0', id: s.answerPost, result: { action: 'accept', content: {} } }).at(start, s.duration).header('mcp-session-id', s.session ?? null);
      return;
    }
    const params: Record<string, unknown> = ['tools/call', 'prompts/get'].includes(s.method) ? { name: s.name, arguments: s.args } : s.method === 'resources/read' ? { uri: `file:///${s.name}` } : {};
    const call = b.call(s.method, params, s.id === undefined ? 1000 + i : s.id).at(start, s.duration);
    if (s.state !== undefined) call.state(s.state);
    if (s.responses !== undefined) call.responses(s.responses);
    if (s.legacy) call.legacy();
    if (s.client !== undefined) call.client(s.client);
    if (s.session !== undefined) call.header('mcp-session-id', s.session);
    const a = s.answer;
    if (a.kind === 'input') call.inputRequired(a.requests, a.token);
    else if (a.kind === 'complete') call.complete();
    else if (a.kind === 'error') call.error(a.code, 'failed', { status: a.status });
    else if (a.kind === 'none') call.noResponse();
    else if (a.kind === 'accepted') call.accepted();
    else if (a.kind === 'garbage') call.answer(JSON.parse(JSON.stringify(a.body)));
    if (a.kind === 'server-request') call.sse([{ jsonrpc: '2.0', id: a.id, method: 'elicitation/create', params: { message: 'm' } }]).complete();
    else if (s.sse && a.kind !== 'accepted' && a.kind !== 'none') call.sse();
  });
  return b.build();
}

const capture$ = fc.array(step, { minLength: 1, maxLength: 24, size: 'max' }).chain((steps) =>
  fc.tuple(
    fc.constant(steps),
    // Send order: as listed (chains form), or any order (retries before their originals).
    fc.oneof(fc.constant([...steps.keys()]), fc.shuffledSubarray([...steps.keys()], { minLength: steps.length, maxLength: steps.length })),
    fc.infiniteStream(fc.nat()),
  ));

/** Every cross-reference in the analysis points at something that exists. */
function expectConsistent(a: Analysis): void {
  const seqs = new Set(a.records.map((r) => r.seq));
  const convIds = new Set(a.conversations.map((c) => c.id));
  expect(convIds.size, 'conversation ids are unique').toBe(a.conversations.length);
  const claimed = new Map<string, string>();
  for (const c of a.conversations) {
    expect(c.exchanges.every((s, i) => seqs.has(s) && (i === 0 || c.exchanges[i - 1] < s)), `exchanges of ${c.id} ascending, unique, existing: ${c.exchanges}`).toBe(true);
    c.rounds.forEach((r, i) => {
      expect(c.exchanges, `round ${i} of ${c.id}`).toContain(r.exchange);
      if (i === 0) expect(r.parent).toBeNull();
      else expect(r.parent !== null && r.parent >= 0 && r.parent < i, `parent of round ${i} of ${c.id} is ${r.parent}`).toBe(true);
      const req = `${r.exchange}:${r.message}`;
      expect(claimed.get(req), `request ${req} claimed by ${claimed.get(req)} and ${c.id}`).toBeUndefined();
      claimed.set(req, c.id);
      const d = a.decoded.find((x) => x.seq === r.exchange)!;
      expect(['request', 'notification']).toContain(d.sent[r.message]?.kind);
      if (r.answer >= 0) expect(['result', 'error']).toContain(d.received[r.answer]?.kind);
      for (const cand of r.candidates ?? []) expect(convIds.has(cand)).toBe(true);
      for (const it of r.legacy ?? []) {
        expect(c.exchanges).toContain(it.exchange);
        if (it.answeredIn !== undefined) expect(c.exchanges).toContain(it.answeredIn);
      }
    });
    if (c.replayOf !== undefined) expect(convIds.has(c.replayOf)).toBe(true);
  }
  for (const f of a.findings) {
    expect(seqs.has(f.exchange), `finding ${f.rule} names exchange ${f.exchange}`).toBe(true);
    if (f.conversation !== null) expect(convIds.has(f.conversation), `finding ${f.rule} names conversation ${f.conversation}`).toBe(true);
    expect(f.message.startsWith('internal error'), f.message).toBe(false);
  }
  for (const c of a.conversations) for (const r of c.rounds) {
    for (const t of [r.stateSent, r.stateIssued]) if (t !== null) expect(a.tokens.has(t)).toBe(true);
  }
}

/** The parts of an analysis that must not depend on the order records were given in. */
const outcome = (a: Analysis) => ({ conversations: a.conversations, findings: a.findings, tokens: [...a.tokens].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)) });

describe('threading and lint on arbitrary captures (property)', () => {
  it('every finding, round, parent, candidate and claim points at something that exists, and no request is claimed twice', async () => {
    await fc.assert(
      fc.asyncProperty(capture$, async ([steps, order]) => {
        expectConsistent(await analyze(build(steps, order)));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('is deterministic, independent of record order, and structured-cloneable whole', async () => {
    await fc.assert(
      fc.asyncProperty(capture$, async ([steps, order, rand]) => {
        const records = build(steps, order);
        const a = await analyze(structuredClone(records));
        const again = await analyze(structuredClone(records));
        expect(again.decoded).toEqual(a.decoded);
        expect(outcome(again)).toEqual(outcome(a));
        const shuffled = structuredClone(records);
        const r = rand[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = r.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        expect(outcome(await analyze(shuffled))).toEqual(outcome(a));
        const copy = structuredClone(a);
        expect(copy.conversations).toEqual(a.conversations);
        expect(copy.findings).toEqual(a.findings);
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it('keeps the cross-references when exchanges arrive twice or without their earlier rounds (property)', async () => {
    await fc.assert(
      fc.asyncProperty(capture$, fc.array(fc.nat(), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 3 }), async ([steps, order], dups, drops) => {
        let records = build(steps, order);
        for (const d of drops) records = records.filter((_, i) => i !== d % Math.max(records.length, 1));
        for (const d of dups) if (records.length) records.push(structuredClone(records[d % records.length]));
        const a = await analyze(records);
        expectConsistent(a);
        expect(new Set(a.records.map((r) => r.seq)).size).toBe(a.records.length);
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});
