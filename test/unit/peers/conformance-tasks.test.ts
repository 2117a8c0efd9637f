// The official conformance suite (@modelcontextprotocol/conformance) runs its task
// scenarios against the demo's tasks-extension serving (its fixture tools, ?fixtures=
// conformance) through a recording proxy; the demo passes every check, and the recorded
// traffic, deliberate probes and all, threads and lints with no finding the suite's own
// verdict contradicts. The suite needs Node 22's fs.globSync at link time: on Node 20 it
// runs behind test/peers/conformance/register.mjs, which supplies it.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, type Analysis } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { startRecordingProxy, type RecordingProxy } from '../../peers/recording-proxy.js';
import { serveDemo, type RunningDemo } from '../../peers/serve-demo.js';

const SCENARIOS = [
  'tasks-lifecycle', 'tasks-capability-negotiation', 'tasks-wire-fields', 'tasks-request-state-removal', 'tasks-mrtr-input',
  'tasks-request-headers', 'tasks-dispatch-and-envelope', 'tasks-required-task-error', 'tasks-mrtr-composition',
];
const suite = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json').replace(/package\.json$/, 'dist/index.js');
const register = fileURLToPath(new URL('../../peers/conformance/register.mjs', import.meta.url));

/** Runs one scenario; resolves to its output (the suite exits non-zero on a failed check). */
function runScenario(url: string, scenario: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', register, suite, 'server', '--url', url, '--scenario', scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { out += b.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

// What the suite sends on purpose to see how the server copes: true findings about the
// suite's client, each with the probe that causes it and how many times it is sent.
// Anything else is a false finding.
const PROBES: { rule: string; message: RegExp; count: number | 'any'; why: string }[] = [
  { rule: 'http/method-header', message: /Mcp-Method header is "tasks\/get" but the body says "tools\/call"/, count: 1, why: 'tasks-request-headers sends a mismatched Mcp-Method and expects -32020' },
  { rule: 'tasks/name-header', message: /Mcp-Name is "sep-2663-wrong-task-id-for-routing-header-mismatch"/, count: 1, why: 'tasks-request-headers sends a tasks/get whose Mcp-Name is not its taskId and expects -32020' },
  { rule: 'meta/removed-method', message: /client sent tasks\/(result|list) on 2026-07-28 traffic/, count: 2, why: 'tasks-dispatch-and-envelope sends the removed tasks/result and tasks/list and expects -32601' },
  { rule: 'tasks/update-not-outstanding', message: /answers key "unknown-key", which was never asked for/, count: 1, why: 'tasks-mrtr-input answers a key never asked for, to see it ignored' },
  // The suite's wait loops poll 200 ms apart, but some checks send one more tasks/get at
  // once after a loop ends: true on the wire (an info), on as many tasks as timing makes it.
  { rule: 'tasks/poll-too-fast', message: /polled task "fx-[^"]+" 1 time sooner than its pollIntervalMs/, count: 'any', why: 'an extra tasks/get right after a wait loop' },
];
const isProbe = (f: { rule: string; message: string }) => PROBES.some((p) => p.rule === f.rule && p.message.test(f.message));

let demo: RunningDemo;
let proxy: RecordingProxy;
const results: Record<string, { code: number | null; out: string }> = {};
let analysis: Analysis;

beforeAll(async () => {
  demo = await serveDemo();
  proxy = await startRecordingProxy({ target: demo.url });
  for (const s of SCENARIOS) results[s] = await runScenario(`${proxy.url}?fixtures=conformance`, s);
  await proxy.settled();
  const imported = importCapture(JSON.stringify(proxy.har()));
  if (!imported.ok) throw new Error(imported.error.message);
  analysis = await analyze(imported.exchanges);
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await demo?.close();
});

describe('the conformance suite\'s task scenarios against the demo', () => {
  it.each(SCENARIOS)('%s passes every check', (scenario) => {
    const { code, out } = results[scenario];
    expect(out, out).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(code, out).toBe(0);
  });

  it('lints the recorded traffic with no finding beyond the suite\'s deliberate probes', () => {
    expect(analysis.records.length).toBeGreaterThan(50);
    const unexpected = analysis.findings.filter((f) => !isProbe(f)).map((f) => `${f.rule} @${f.exchange}: ${f.message}`);
    // Named in the assertion's own message: CI's summary keeps only its first line.
    expect(unexpected, `findings beyond the probes: ${unexpected.join(' | ')}`).toEqual([]);
    for (const p of PROBES) if (p.count !== 'any') expect(analysis.findings.filter((f) => f.rule === p.rule && p.message.test(f.message)), p.why).toHaveLength(p.count);
  });
});
