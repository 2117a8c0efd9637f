// The reports the CLI writes a piece at a time are the whole documents, byte for byte:
// SARIF as JSON.stringify indents the whole log, JUnit and text as their whole-string forms.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateChromeHar } from '../../bench/generate-chrome-har.js';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { sarifReport, sarifReportChunks } from '../../../worker/report/sarif.js';
import { junitReport, junitReportChunks } from '../../../worker/report/junit.js';
import { textReport, textReportChunks } from '../../../worker/report/text.js';
import { ALL_RULES } from '../../../worker/lint/rules/index.js';

async function fixture(path: string) {
  const imported = importCapture(readFileSync(path, 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return analyze(imported.exchanges);
}

// A path with what JSON and XML must escape, and a name like the field the SARIF writer splits at.
const PATHS = ['x.har', 'dir/"results": []\n<&>.har'];

describe('reports written in pieces', () => {
  for (const file of ['test/fixtures/producers/chrome.har', 'test/fixtures/producers/mitmproxy.har']) {
    it(`write the SARIF log of ${file} as JSON.stringify indents it whole, a result a piece`, async () => {
      const a = await fixture(file);
      expect(a.findings.length).toBeGreaterThan(1);
      for (const path of PATHS) {
        const pieces = [...sarifReportChunks(a.findings, ALL_RULES, path, '1.0.0')];
        expect(pieces.join('')).toBe(JSON.stringify(sarifReport(a.findings, ALL_RULES, path, '1.0.0'), null, 2) + '\n');
        expect(pieces.length).toBe(a.findings.length + 2);
      }
    });
  }

  it('write the SARIF log of a capture without findings whole, as JSON.stringify indents it', async () => {
    for (const path of PATHS) expect([...sarifReportChunks([], ALL_RULES, path, '1.0.0')].join('')).toBe(JSON.stringify(sarifReport([], ALL_RULES, path, '1.0.0'), null, 2) + '\n');
  });

  it('write JUnit a test case a piece, with the totals counted before the first case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-junit-'));
    const path = join(dir, 'c.har');
    await generateChromeHar(path, 150);
    const a = await fixture(path);
    rmSync(dir, { recursive: true, force: true });
    expect(a.findings.some((f) => f.severity === 'error')).toBe(true);
    const pieces = [...junitReportChunks(a.conversations, a.findings, 'x.har')];
    expect(pieces.join('')).toBe(junitReport(a.conversations, a.findings, 'x.har'));
    // The head's totals are those of the cases written after it.
    const cases = pieces.filter((p) => p.includes('<testcase '));
    expect(cases.length).toBe(pieces.length - 2);
    const failing = cases.filter((p) => p.includes('<failure ')).length;
    expect(failing).toBeGreaterThan(0);
    expect(pieces[0]).toContain(`<testsuites name="mrtr-inspector lint" tests="${cases.length}" failures="${failing}">`);
    expect(pieces[0]).toContain(`tests="${cases.length}" failures="${failing}" errors="0">`);
  });

  it('write text a conversation a piece, ending with the totals line', async () => {
    const a = await fixture('test/fixtures/sdk/sdk-v2-manual.har');
    const input = { path: 'x.har', format: 'har' as const, exchanges: a.records.length };
    const pieces = [...textReportChunks(a, input, true)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(textReport(a, input, true));
    expect(pieces.every((p) => p.endsWith('\n'))).toBe(true);
    expect(pieces[pieces.length - 1]).toMatch(/^\n\d+ error\(s\), \d+ warning\(s\), \d+ info\(s\)\n$/);
  });
});
