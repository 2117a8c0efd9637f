// The CLI's one-pass analysis (worker/engine/batch.ts) and the live engine (what `analyze`
// runs, and the page keeps) give byte-identical reports in every format: on every fixture
// capture, with and without a key, on captures of the three bench generators, and on any
// generated capture (property).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, type Analysis, type AnalyzeOptions } from '../../../worker/analysis.js';
import { analyzeBatch } from '../../../worker/engine/batch.js';
import { importCapture } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { jsonReportChunks, type ReportInput } from '../../../worker/report/json.js';
import { sarifReport } from '../../../worker/report/sarif.js';
import { junitReport } from '../../../worker/report/junit.js';
import { textReport } from '../../../worker/report/text.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { build, step } from '../../support/live-capture.js';
import { generateBodiesCapture, generateCapture } from '../../bench/generate-capture.js';
import { generateChromeHar } from '../../bench/generate-chrome-har.js';

/** Every report the CLI writes, as text. */
function reports(a: Analysis, input: ReportInput): Record<string, string> {
  return {
    json: [...jsonReportChunks(a, input, '1.2.3')].join(''),
    text: textReport(a, input, false),
    color: textReport(a, input, true),
    sarif: JSON.stringify(sarifReport(a.findings, ALL_RULES, input.path, '1.2.3'), null, 2),
    junit: junitReport(a.conversations, a.findings, input.path),
  };
}

/** The two paths over copies of the same records; their reports must match byte for byte. */
async function bothPaths(records: readonly ExchangeRecord[], opts: AnalyzeOptions = {}) {
  const input: ReportInput = { path: 'capture.har', format: 'har', exchanges: records.length };
  const engine = await analyze(structuredClone(records), opts);
  const batch = await analyzeBatch(structuredClone(records), opts);
  return { engine: reports(engine, input), batch: reports(batch, input), findings: batch.findings.length };
}

function importFile(path: string): ExchangeRecord[] {
  const imported = importCapture(readFileSync(path, 'utf8'), { allowPartial: true });
  if (!imported.ok) throw new Error(`${path}: ${imported.error.message}`);
  return imported.exchanges;
}

/** Whether a fixture is a capture at all (some are bodies or manifests beside them). */
const isCapture = (path: string) => importCapture(readFileSync(path, 'utf8'), { allowPartial: true }).ok;

function fixtures(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return fixtures(p);
    return /\.(har|jsonl)$/.test(name) || (name.endsWith('.json') && name !== 'manifest.json') ? [p] : [];
  });
}

const demoKey = parseKey('mrtr-inspector-demo-key-not-a-secret-0001');
if (!demoKey.ok) throw new Error(demoKey.error);

describe('the batch analysis', () => {
  const files = fixtures('test/fixtures').filter(isCapture).sort();

  it('finds fixture captures to compare', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    it(`reports ${file} byte for byte as the engine does, with and without a key`, async () => {
      const records = importFile(file);
      for (const opts of [{}, { keys: [demoKey.key] }, { maxRounds: 2, ttlBoundSeconds: 1 }]) {
        const { engine, batch } = await bothPaths(records, opts);
        expect(batch).toEqual(engine);
      }
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'mrtr-batch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const generators = { rounds: generateCapture, bodies: generateBodiesCapture, chrome: generateChromeHar };
  for (const [shape, generate] of Object.entries(generators)) {
    it(`reports a generated capture of the ${shape} shape as the engine does, with its findings`, async () => {
      const path = join(dir, `${shape}.har`);
      await generate(path, 400);
      const records = importFile(path);
      const { engine, batch, findings } = await bothPaths(records, { keys: [demoKey.key] });
      expect(findings).toBeGreaterThan(0);
      expect(batch).toEqual(engine);
    });
  }

  it('reads each token with the keys of the server that issued it, as the engine does', async () => {
    const path = join(dir, 'keyed.har');
    const secret = await generateCapture(path, 300);
    const key = parseKey(secret);
    if (!key.ok) throw new Error(key.error);
    const records = importFile(path);
    // Half the exchanges go to a second server, which has no key.
    records.forEach((r, i) => { if (i % 2 === 1) r.request.url = 'http://127.0.0.1:3001/mcp'; });
    const keysFor = (url: string) => (url.includes(':3000/') ? [key.key] : []);
    const { engine, batch } = await bothPaths(records, { keysFor });
    expect(batch.json).toContain('"verified":true');
    expect(batch.json).toContain('"verified":null');
    expect(batch).toEqual(engine);
  });

  it('reports any generated capture as the engine does, finished or not, repeats included (property)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 16 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 3 }), async (steps, final, again) => {
      const records = build(steps);
      // A record delivered again later (a live record re-sent): the last copy wins.
      const withRepeats = [...records, ...again.map((i) => structuredClone(records[i % records.length]))];
      const { engine, batch } = await bothPaths(withRepeats, { final });
      expect(batch).toEqual(engine);
    }), { numRuns: 150 });
  });

  it('drops each record\'s bodies once decoded when asked to, and still reports as the engine does', async () => {
    const records = importFile('test/fixtures/sdk/sdk-v2-manual.har');
    const engine = await analyze(structuredClone(records));
    const given = structuredClone(records);
    const batch = await analyzeBatch(given, { releaseBodies: true });
    expect(given.every((r) => r.request.body === undefined)).toBe(true);
    const input: ReportInput = { path: 'x.har', format: 'har', exchanges: records.length };
    expect(reports(batch, input)).toEqual(reports(engine, input));
  });
});
