// The CLI's lean analysis (each record decoded as it is imported and its bodies dropped at
// once, `decoded` handed to analyze; or `releaseBodies`) gives exactly the conversations,
// findings and token readings of the full analysis that keeps every body.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { decodeExchange, releaseBodies } from '../../../worker/decode/exchange.js';
import type { DecodedExchange, ExchangeRecord } from '../../../worker/protocol.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { generateCapture } from '../../bench/generate-capture.js';

const outcome = (a: Analysis) => ({ conversations: a.conversations, findings: a.findings, tokens: [...a.tokens] });

/** Both lean forms of the CLI, each on its own copy of the records. */
async function lean(records: readonly ExchangeRecord[], opts: Parameters<typeof analyze>[1] = {}) {
  const copy = structuredClone(records) as ExchangeRecord[];
  const decoded: DecodedExchange[] = copy.map((r) => {
    const d = decodeExchange(r);
    releaseBodies(r);
    return d;
  });
  const given = await analyze(copy, { ...opts, decoded });
  const released = await analyze(structuredClone(records) as ExchangeRecord[], { ...opts, releaseBodies: true });
  for (const r of [...given.records, ...released.records]) {
    expect(r.request.body).toBeUndefined();
    expect(r.response?.body ?? r.response?.events ?? r.response?.tail).toBeUndefined();
  }
  return { given, released };
}

const TOKENS = ['tok-a', 'tok-b', '__proto__'];
const KEYS = ['k1', 'k2', 'constructor'];
const step = fc.record({
  method: fc.constantFrom('tools/call', 'tools/call', 'prompts/get', 'tools/list'),
  state: fc.option(fc.constantFrom(...TOKENS), { nil: undefined }),
  responses: fc.option(fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(reply.accept({ f: 'v' }), reply.decline(), 42), { maxKeys: 2 }), { nil: undefined }),
  answer: fc.constantFrom('input', 'complete', 'error', 'none', 'garbage'),
  token: fc.option(fc.constantFrom(...TOKENS), { nil: undefined }),
  sse: fc.boolean(),
  duplicate: fc.boolean(),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function build(steps: Step[]): ExchangeRecord[] {
  const b = capture();
  steps.forEach((s, i) => {
    const call = b.call(s.method, s.method === 'tools/list' ? {} : { name: 'a', arguments: { x: 1 } }, 100 + i);
    if (s.state !== undefined) call.state(s.state);
    if (s.responses !== undefined) call.responses(JSON.parse(JSON.stringify(s.responses)));
    if (s.answer === 'input') call.inputRequired({ k1: ask.form('m', { f: { type: 'string' } }) }, s.token);
    else if (s.answer === 'complete') call.complete();
    else if (s.answer === 'error') call.error(-32602, 'bad', { status: 400 });
    else if (s.answer === 'none') call.noResponse();
    else call.answer('not json');
    if (s.sse && s.answer !== 'none') call.sse();
  });
  const records = b.build();
  // A repeated seq (the last copy wins) must line up with its decoded exchange too.
  if (steps.some((s) => s.duplicate) && records.length > 0) records.push(structuredClone(records[0]));
  return records;
}

describe('lean analysis', () => {
  it('agrees with the full analysis on arbitrary captures (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 16 }), async (steps) => {
      const records = build(steps);
      const full = await analyze(structuredClone(records));
      const { given, released } = await lean(records);
      expect(outcome(given)).toEqual(outcome(full));
      expect(outcome(released)).toEqual(outcome(full));
      expect(given.decoded).toEqual(full.decoded);
    }), { numRuns: 150 });
  }, 60_000);

  it.each(['sdk/sdk-v2-auto.har', 'sdk/sdk-v2-manual.har', 'sdk/legacy-2025.har', 'producers/chrome.har'])('agrees with the full analysis on %s, with a key', async (name) => {
    const imported = importCapture(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const key = parseKey(DEMO_STATE_KEY);
    if (!key.ok) throw new Error(key.error);
    const full = await analyze(structuredClone(imported.exchanges), { keys: [key.key] });
    const { given, released } = await lean(imported.exchanges, { keys: [key.key] });
    expect(outcome(given)).toEqual(outcome(full));
    expect(outcome(released)).toEqual(outcome(full));
  });

  it('agrees with the full analysis on a generated benchmark capture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-lean-'));
    try {
      const file = join(dir, 'capture.har');
      await generateCapture(file, 600);
      const imported = importCapture(readFileSync(file, 'utf8'));
      if (!imported.ok) throw new Error(imported.error.message);
      const full = await analyze(structuredClone(imported.exchanges));
      const { given } = await lean(imported.exchanges);
      expect(outcome(given)).toEqual(outcome(full));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores a decoded list that does not match the records, and decodes them itself', async () => {
    const records = build([{ method: 'tools/call', state: undefined, responses: undefined, answer: 'input', token: 'tok-a', sse: false, duplicate: false }]);
    const full = await analyze(structuredClone(records));
    expect(outcome(await analyze(structuredClone(records), { decoded: [] }))).toEqual(outcome(full));
  });
});
