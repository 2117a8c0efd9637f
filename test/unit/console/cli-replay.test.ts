// `mrtr-inspector replay` as CI runs it: the package's bin against servers this test starts
// (spawned asynchronously: the servers live in this process and must keep answering).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { API_KEY, AUTH, credentialedHar, serveChangedDemo, serveDemo, serveRecordingDemo, unreachableUrl, type RecordingServer, type Running } from './servers.js';
import { runCli } from '../../support/cli-process.js';

const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';

let demo: Running;
let changed: Running;
let recording: RecordingServer;
beforeAll(async () => {
  demo = await serveDemo();
  changed = await serveChangedDemo();
  recording = await serveRecordingDemo();
}, 120_000);
afterAll(async () => {
  await demo?.close();
  await changed?.close();
  await recording?.close();
});

describe('mrtr-inspector replay', () => {
  it('exits 0 when every final answer matches and the new traffic lints clean', async () => {
    const r = await runCli('replay', AUTO, '--target', demo.url, '--key', DEMO_STATE_KEY);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('11 same, 0 different');
    expect(r.stdout).toContain('Replay passed.');
  });

  it('exits 1 and shows the diff when a final answer changed', async () => {
    const r = await runCli('replay', AUTO, '--target', changed.url, '--format', 'json');
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ kind: 'replay', passed: false, summary: { different: 2 } });
    const wizard = doc.outcomes.find((o: { name: string }) => o.name === 'setup_wizard');
    expect(wizard.changes[0]).toMatchObject({ path: 'result.content[0].text', kind: 'changed' });
  });

  it('exits 0 on the changed server when the changed path is ignored, and writes JUnit to a file', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'replay-')), 'replay.xml');
    const r = await runCli('replay', AUTO, '--target', changed.url, '--ignore', 'result.content[*].text', '--format', 'junit', '--output', out);
    expect(r.code).toBe(0);
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('<testsuites name="mrtr-inspector replay"');
    expect(xml).toContain('failures="0"');
  });

  it('exits 1 on error-severity findings in the new traffic (the misbehaving demo)', async () => {
    const r = await runCli('replay', AUTO, '--target', `${demo.url}?misbehave=1`, '--key', DEMO_STATE_KEY);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Findings in the replay traffic \(errors first\):\n\s+error/);
  });

  it('exits 2 and says where when the target cannot be reached', async () => {
    const url = await unreachableUrl();
    const r = await runCli('replay', AUTO, '--target', url);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach the target ${url}`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stdout).toBe('');
  });

  it('exits 2 for unusable input: a missing file, no --target, a bad ignore path, a legacy-only capture', async () => {
    expect((await runCli('replay', 'no/such.har', '--target', demo.url)).stderr).toContain('cannot read no/such.har: no such file');
    const noTarget = await runCli('replay', AUTO);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('replay needs --target');
    expect((await runCli('replay', AUTO, '--target', demo.url, '--ignore', 'result[0')).code).toBe(2);
    const legacy = await runCli('replay', 'test/fixtures/sdk/legacy-2025.har', '--target', demo.url);
    expect(legacy.code).toBe(2);
    expect(legacy.stderr).toContain('nothing to replay');
  });

  it('withholds captured credentials from a target of another origin and says how to send them; --send-credentials sends them', async () => {
    const har = join(mkdtempSync(join(tmpdir(), 'replay-')), 'credentialed.har');
    writeFileSync(har, credentialedHar('http://recorded.example:8080/mcp'));
    recording.headers.length = 0;
    const held = await runCli('replay', har, '--target', recording.url);
    expect(held.code).toBe(0);
    expect(held.stdout).toContain(`Captured credentials (authorization, x-api-key) were not sent to ${recording.url} (a different origin from the recording); pass --send-credentials to send them.`);
    expect(recording.headers.length).toBeGreaterThan(11);
    expect(recording.headers.filter((h) => 'authorization' in h || 'x-api-key' in h)).toEqual([]);
    recording.headers.length = 0;
    const sent = await runCli('replay', har, '--target', recording.url, '--send-credentials', '--format', 'json');
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ credentialsWithheld: [] });
    expect(sent.stdout).not.toContain('Captured credentials');
    expect(recording.headers.length).toBeGreaterThan(11);
    expect(recording.headers.every((h) => h.authorization === AUTH && h['x-api-key'] === API_KEY)).toBe(true);
    expect((await runCli('replay', '--help')).stdout).toContain('--send-credentials');
  });

  it('leaves the lint command as it was, and lists replay in the help', async () => {
    const lint = await runCli('lint', AUTO, '--format', 'json', '--key', DEMO_STATE_KEY);
    expect(lint.code).toBe(0);
    expect(JSON.parse(lint.stdout).summary.errors).toBe(0);
    const help = await runCli('--help');
    expect(help.stdout).toContain('mrtr-inspector lint <capture.har|capture.jsonl>');
    expect(help.stdout).toContain('mrtr-inspector replay <capture.har|capture.jsonl> --target <url>');
    expect((await runCli('lint', AUTO, '--target', demo.url)).code).toBe(2);
  });
});
