// The `mrtr-inspector lint` command as users run it: `npx --no-install mrtr-inspector`
// from the repo root, its output formats, and its exit status.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { buildCliIfStale } from '../../support/cli-process.js';

const schema = JSON.parse(readFileSync('../shared/spec/lint-output.schema.json', 'utf8'));
const validate = new Ajv2020({ strict: false }).compile(schema);
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const MANUAL = 'test/fixtures/sdk/sdk-v2-manual.har';
const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';

// The package's bin, run directly (npx adds a second or more per call; one test goes
// through npx to prove the command README.md and docs/cli.md show).
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ['cli/bin.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// Only when stale: other test files run the built CLI at the same time, and a rebuild
// rewrites its files under them (a run saw an empty or missing file).
beforeAll(() => buildCliIfStale(), 120_000);

describe('mrtr-inspector lint', () => {
  it('prints JSON that matches the published schema, with threading, tokens and findings', () => {
    const r = cli('lint', MANUAL, '--format', 'json', '--key', DEMO_STATE_KEY);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.tool).toEqual({ name: 'mrtr-inspector', version: pkg.version });
    expect(doc.input).toEqual({ path: MANUAL, format: 'har', exchanges: 11 });
    const wizard = doc.conversations.find((c: { name: string }) => c.name === 'setup_wizard');
    expect(wizard.exchanges).toEqual([1, 2, 3, 4]);
    expect(wizard.rounds.map((x: { link: string }) => x.link)).toEqual([null, 'state', 'state', 'state']);
    expect(wizard.rounds[0].inputRequests).toEqual({ name: 'elicitation/create' });
    expect(wizard.rounds[1].inputResponses).toEqual(['name']);
    expect(wizard.rounds[0].requestState).toMatchObject({ format: 'sdk-hmac-v1', verified: true });
    expect(wizard.rounds[3].requestState).toBeNull();
    expect(doc.findings).toEqual([expect.objectContaining({ rule: 'mrtr/state-modified', severity: 'error', exchange: 10, clause: 'mrtr:254' })]);
    expect(doc.summary).toEqual({ errors: 1, warnings: 0, infos: 0 });
  });

  it('exits 0 when no error-severity finding appears', () => {
    const r = cli('lint', AUTO, '--format', 'json', '--key', DEMO_STATE_KEY);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary.errors).toBe(0);
  });

  it('says verified is null when no key was given', () => {
    const doc = JSON.parse(cli('lint', AUTO, '--format', 'json').stdout);
    const states = doc.conversations.flatMap((c: { rounds: { requestState: unknown }[] }) => c.rounds).map((x: { requestState: { verified: unknown } | null }) => x.requestState).filter(Boolean);
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s: { verified: unknown }) => s.verified === null)).toBe(true);
  });

  it('flags every token as failing verification under a wrong key', () => {
    const r = cli('lint', AUTO, '--format', 'json', '--key', 'hex:' + '00'.repeat(32));
    expect(r.code).toBe(1);
    const rules = new Set(JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule));
    expect(rules.has('state/signature-invalid')).toBe(true);
  });

  it('prints readable text grouped by conversation, without colour when not a terminal', () => {
    const r = cli('lint', MANUAL, '--key', DEMO_STATE_KEY);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('tools/call setup_wizard  c1  complete  4 round(s)');
    expect(r.stdout).toMatch(/✖ error {2}mrtr\/state-modified {2}#10/);
    expect(r.stdout).not.toContain('\x1b[');
  });

  it('writes SARIF 2.1.0 and JUnit XML', () => {
    const sarif = JSON.parse(cli('lint', MANUAL, '--format', 'sarif', '--key', DEMO_STATE_KEY).stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results).toEqual([expect.objectContaining({ ruleId: 'mrtr/state-modified', level: 'error' })]);
    expect(sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(['mrtr/state-modified']);
    const junit = cli('lint', MANUAL, '--format', 'junit', '--key', DEMO_STATE_KEY).stdout;
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toMatch(/<testsuites name="mrtr-inspector lint" tests="5" failures="1">/);
    expect(junit).toContain('mrtr/state-modified');
  });

  it('never prints a configured key, in any format', () => {
    const planted = 'planted-secret-key-value-0123456789abcdef';
    for (const format of ['text', 'json', 'sarif', 'junit']) {
      const r = cli('lint', MANUAL, '--format', format, '--key', planted);
      expect(r.stdout + r.stderr).not.toContain(planted);
    }
    const bad = cli('lint', MANUAL, '--key', 'hex:zz' + planted);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--key number 1');
    expect(bad.stderr).not.toContain(planted);
  });

  it('exits 2 with what and where when the input cannot be used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mrtr-cli-'));
    const missing = cli('lint', join(dir, 'nope.har'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.har: no such file/);
    const broken = join(dir, 'broken.har');
    writeFileSync(broken, '{"log": {"entries": [\n  {"request": ');
    const r = cli('lint', broken);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('broken.har');
    expect(r.stderr).toMatch(/line 2/);
    expect(r.stdout).toBe('');
    expect(cli('lint').code).toBe(2);
    expect(cli('lint', AUTO, '--format', 'xml').stderr).toContain('--format must be text, json, sarif or junit');
    expect(cli('lint', AUTO, '--max-rounds', '0').code).toBe(2);
  });

  it('honours --max-rounds', () => {
    const r = cli('lint', MANUAL, '--format', 'json', '--max-rounds', '2', '--key', DEMO_STATE_KEY);
    const f = JSON.parse(r.stdout).findings.filter((x: { rule: string }) => x.rule === 'mrtr/too-many-rounds');
    expect(f).toHaveLength(1);
    expect(f[0].severity).toBe('info');
  });

  it('runs as `npx --no-install mrtr-inspector` from the repo root', () => {
    const r = spawnSync('npx', ['--no-install', 'mrtr-inspector', 'lint', MANUAL, '--format', 'json'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).input.exchanges).toBe(11);
  }, 120_000); // npx resolves the bin before running it: 10 s on a loaded 2-core machine

  it('prints its version and help', () => {
    expect(cli('--version').stdout.trim()).toBe(pkg.version);
    const help = cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('mrtr-inspector lint <capture.har|capture.jsonl>');
  });
});
