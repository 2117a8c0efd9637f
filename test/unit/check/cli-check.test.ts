// `mrtr-inspector check` as CI runs it: the built CLI against servers this test starts
// (spawned asynchronously: the servers live in this process and must keep answering).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { readCapture } from '../../../cli/capture-input.js';
import { buildCliIfStale, runCli } from '../../support/cli-process.js';
import { serveBrokenServer } from '../../peers/broken-server.js';
import { serveDemo, unreachableUrl, type Running } from '../console/servers.js';

let demo: Running;
let broken: Running;
const dir = mkdtempSync(join(tmpdir(), 'check-'));
beforeAll(async () => {
  // Built only when stale: a rebuild under another test's running CLI could show it a half-written file.
  buildCliIfStale();
  [demo, broken] = await Promise.all([serveDemo(), serveBrokenServer()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([demo?.close(), broken?.close()]);
});

describe('mrtr-inspector check', () => {
  it('exits 0 on the demo and saves a capture whose probe exchanges carry their origin', async () => {
    const save = join(dir, 'demo.jsonl');
    const r = await runCli('check', demo.url, '--allow-destructive', '--save', save);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/0 failed, 0 warnings, \d+ passed/);
    expect(r.stdout).toContain('Check passed.');
    const imported = await readCapture(save, false);
    if (!imported.ok) throw new Error(imported.message);
    const origins = new Set(imported.exchanges.map((e) => e.origin?.kind));
    // The calls check drives as a client are one `check` run; the probes are tamper runs.
    expect([...origins].sort()).toEqual(['check', 'discovery', 'tamper']);
    expect(new Set(imported.exchanges.filter((e) => e.origin?.kind === 'check').map((e) => e.origin?.run)).size).toBe(1);
    const analysis = await analyze(imported.exchanges);
    expect(analysis.conversations.some((c) => c.name === 'setup_wizard' && c.rounds.length >= 3)).toBe(true);
  }, 120_000);

  it('exits 1 on the broken server, with one JUnit case per target per probe and the faults as failures', async () => {
    const r = await runCli('check', broken.url, '--allow-destructive', '--format', 'junit');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/<testsuites name="mrtr-inspector check" tests="64" failures="5">/);
    expect(r.stdout).toContain('name="tools/call forgeable_order :: token-modified"><failure');
    expect(r.stdout).toContain('name="tools/call stale_quote :: token-expired"><failure');
  }, 120_000);

  it('puts each failed probe in the SARIF log as an error of rule check/<probe>', async () => {
    const out = join(dir, 'check.sarif');
    const r = await runCli('check', broken.url, '--tool', 'forgeable_order', '--format', 'sarif', '--output', out);
    expect(r.code).toBe(1);
    const log = JSON.parse(readFileSync(out, 'utf8'));
    const results = log.runs[0].results as { ruleId: string; level: string; message: { text: string } }[];
    expect(results.find((x) => x.ruleId === 'check/token-modified')).toMatchObject({ level: 'error', message: { text: expect.stringMatching(/^tools\/call forgeable_order: .*\[M10, M11 \(mrtr:232-233\)\]$/) } });
    expect(log.runs[0].tool.driver.rules.map((x: { id: string }) => x.id)).toContain('check/token-modified');
  }, 120_000);

  it('prints JSON with the verdicts and the skipped tools', async () => {
    const r = await runCli('check', broken.url, '--skip', 'lossy_*', '--format', 'json');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ kind: 'check', passed: false });
    expect(doc.skipped).toEqual([
      { target: 'tools/call redeem_coupon', reason: expect.stringMatching(/^not annotated readOnlyHint: true/) },
      { target: 'tools/call lossy_form', reason: 'matches --skip' },
    ]);
    expect(doc.records).toBeUndefined();
  }, 120_000);

  it('exits 2 and says so when the server cannot be reached', async () => {
    const r = await runCli('check', await unreachableUrl());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach .*Is the server running/);
  }, 60_000);

  it('checks a stdio server started from the command after --', async () => {
    const r = await runCli('check', '--tool', 'confirm_action', '--format', 'json', '--', 'node_modules/.bin/tsx', 'test/peers/stdio/demo-stdio-server.ts');
    const doc = JSON.parse(r.stdout);
    expect(doc.target).toBe('stdio://demo-stdio-server');
    expect(doc.summary.failed).toBe(0);
    expect(doc.probes.find((p: { probe: string }) => p.probe === 'token-modified')).toMatchObject({ verdict: 'passed' });
    expect(r.code).toBe(0);
  }, 120_000);
});
