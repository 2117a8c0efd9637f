// The benchmark's second capture shape (large bodies, mostly SSE, one to ten rounds, JWS
// tokens) is real traffic to the analysis: it imports, threads every retry by its token,
// and the CLI's lean analysis gives what the full one gives.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { decodeExchange, releaseBodies } from '../../../worker/decode/exchange.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { generateBodiesCapture } from '../../bench/generate-capture.js';

const outcome = (a: Analysis) => ({ conversations: a.conversations, findings: a.findings, tokens: [...a.tokens] });

describe('the bodies benchmark shape', () => {
  it('threads every retry by its JWS token, verifies with the bench key, and lean equals full', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-bodies-'));
    try {
      const file = join(dir, 'bodies.har');
      const keyText = await generateBodiesCapture(file, 400);
      const imported = importCapture(readFileSync(file, 'utf8'));
      if (!imported.ok) throw new Error(imported.error.message);
      const parsed = parseKey(keyText);
      if (!parsed.ok) throw new Error(parsed.error);
      const full = await analyze(structuredClone(imported.exchanges), { keys: [parsed.key] });
      const copy = structuredClone(imported.exchanges);
      const decoded = copy.map((r) => { const d = decodeExchange(r); releaseBodies(r); return d; });
      const lean = await analyze(copy, { keys: [parsed.key], decoded });
      expect(outcome(lean)).toEqual(outcome(full));

      const calls = full.conversations.filter((c) => c.method === 'tools/call');
      const lengths = new Set(calls.map((c) => c.rounds.length));
      expect(lengths.has(1)).toBe(true);
      expect(Math.max(...lengths)).toBeGreaterThanOrEqual(6);
      for (const c of calls) for (const r of c.rounds.slice(1)) expect(r.link).toBe('state');
      expect([...full.tokens.values()].every((t) => t.format === 'jws' && t.verified === true)).toBe(true);
      const sse = imported.exchanges.filter((r) => r.response?.headers.some((h) => h.value === 'text/event-stream'));
      expect(sse.length).toBeGreaterThan(imported.exchanges.length / 2);
      expect(full.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
