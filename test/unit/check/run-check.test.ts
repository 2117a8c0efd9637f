// The check engine against live servers this test starts on 127.0.0.1: the deliberately
// broken server (each planted fault a failed probe at its tool), the demo in both modes,
// and an official SDK v2 server (no failed probe).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../worker/check/run.js';
import type { CheckRun, ProbeResult } from '../../../worker/check/types.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { serveBrokenServer } from '../../peers/broken-server.js';
import { serveDemo, serveSdkServer, unreachableUrl, type Running } from '../console/servers.js';

let broken: Running;
let demo: Running;
let sdk: Running;
beforeAll(async () => {
  [broken, demo, sdk] = await Promise.all([serveBrokenServer(), serveDemo(), serveSdkServer()]);
});
afterAll(async () => {
  await Promise.all([broken?.close(), demo?.close(), sdk?.close()]);
});

const send = fetchTransport({ timeoutMs: 10_000 });
const failed = (run: CheckRun) => run.probes.filter((p) => p.verdict === 'failed').map((p) => `${p.target} ${p.probe}`).sort();
const at = (run: CheckRun, target: string, probe: ProbeResult['probe']) => run.probes.find((p) => p.target === target && p.probe === probe);

describe('check on a deliberately broken server', () => {
  it('reports every planted fault as a failed probe at its tool, and nothing else as failed', async () => {
    const run = await runCheck({ url: broken.url, allowDestructive: true, stateOnlyDelayMs: 0, maxWaitMs: 5000 }, send);
    expect(failed(run)).toEqual([
      'tools/call forgeable_order token-modified',
      'tools/call lossy_form drive',
      'tools/call redeem_coupon replay-after-complete',
      'tools/call redeem_coupon token-parallel-reuse',
      'tools/call stale_quote token-expired',
    ]);
    // Its state's note is quoted in the answer, so the changed token changed what it did.
    expect(at(run, 'tools/call forgeable_order', 'token-modified')).toMatchObject({ clause: 'M10, M11 (mrtr:232-233)', detail: expect.stringMatching(/its answer differs from the genuine token's: content\[0\]\.text changed/) });
    expect(at(run, 'tools/call redeem_coupon', 'replay-after-complete')?.detail).toMatch(/single-use \(M13\)/);
    // The same expiry fault is not applicable when the token may not be waited out.
    const quick = await runCheck({ url: broken.url, tools: ['stale_quote'], stateOnlyDelayMs: 0, maxWaitMs: 0 }, send);
    expect(at(quick, 'tools/call stale_quote', 'token-expired')).toMatchObject({ verdict: 'not-applicable' });
    expect(quick.skipped.map((s) => s.target)).toContain('tools/call redeem_coupon');
  }, 60_000);
});

describe('check on the demo', () => {
  it('finds no failed probe and no warning in normal mode (a full check, wall time printed)', async () => {
    const t0 = Date.now();
    const run = await runCheck({ url: demo.url, allowDestructive: true }, send);
    console.log(`full check of the demo: ${Date.now() - t0} ms wall time, ${run.calls} requests, ${run.probes.length} probes`);
    expect(failed(run)).toEqual([]);
    expect(run.summary.warning).toBe(0);
    expect(run.summary.passed).toBeGreaterThan(50);
    expect(run.notes).toEqual([]);
    // The demo declares the tasks extension: research_report, called as a task, is driven
    // through its input requests (answered by tasks/update) to its end.
    expect(at(run, 'tools/call research_report', 'task')).toMatchObject({ verdict: 'passed', detail: expect.stringMatching(/^task completed .*input_required/) });
    expect(at(run, 'tools/call confirm_action', 'task')).toMatchObject({ verdict: 'not-applicable' });
    // Its input went through tasks/get and tasks/update, which carry no requestState: the
    // report says so on the task probe and on each token probe, not just "one round".
    expect(at(run, 'tools/call research_report', 'task')?.detail).toMatch(/the token probes do not apply to its input: a task asks through tasks\/get and is answered with tasks\/update, which carry no requestState/);
    for (const probe of ['token-modified', 'token-truncated', 'token-swapped', 'replay-after-complete'] as const)
      expect(at(run, 'tools/call research_report', probe)).toMatchObject({ verdict: 'not-applicable', detail: expect.stringMatching(/called as a task it took input, but a task asks through tasks\/get .*no token to probe/) });
    // A one-round tool that made no task that asked gets the plain reason only.
    expect(at(run, 'tools/call slow_report', 'token-modified')?.detail).toBe('the call finished in one round: nothing multi-round to probe');
  }, 120_000);

  it('fails the modified token where the misbehaving demo takes it, and warns where it answers missing input with an error', async () => {
    const run = await runCheck({ url: `${demo.url}?misbehave=1`, allowDestructive: true, stateOnlyDelayMs: 0 }, send);
    expect(failed(run)).toEqual(['tools/call confirm_action token-modified', 'tools/call setup_wizard token-modified']);
    // Each acts on what its forged token says: the action to do, the workspace to create.
    for (const tool of ['confirm_action', 'setup_wizard']) expect(at(run, `tools/call ${tool}`, 'token-modified')?.detail).toMatch(/its answer differs from the genuine token's: content\[0\]\.text changed/);
    expect(at(run, 'prompts/get review_prompt', 'responses-missing')).toMatchObject({ verdict: 'warning', clause: 'M25 (mrtr:266-267)' });
  }, 120_000);

  it('lists and skips every tool not marked read-only unless destructive tools are allowed', async () => {
    const run = await runCheck({ url: demo.url }, send);
    expect(run.skipped.find((s) => s.target === 'tools/call confirm_action')?.reason).toMatch(/not annotated readOnlyHint: true.*--allow-destructive/);
    expect(run.probes.some((p) => p.target.startsWith('tools/call'))).toBe(false);
  }, 60_000);

  it('stops at the call budget and says so', async () => {
    const run = await runCheck({ url: demo.url, allowDestructive: true, maxCalls: 8 }, send);
    expect(run.calls).toBe(8);
    expect(run.notes.join('\n')).toMatch(/stopped early: the budget of 8 requests is spent/);
  }, 60_000);
});

describe('check on an official SDK v2 server', () => {
  it('finds no failed probe', async () => {
    const run = await runCheck({ url: sdk.url, allowDestructive: true, stateOnlyDelayMs: 0 }, send);
    expect(failed(run)).toEqual([]);
    expect(at(run, 'tools/call café_order', 'drive')).toMatchObject({ verdict: 'passed' });
    expect(at(run, 'tools/call café_order', 'token-modified')).toMatchObject({ verdict: 'passed' });
  }, 60_000);
});

describe('check on servers it cannot probe', () => {
  it('says a server cannot be reached', async () => {
    const run = await runCheck({ url: await unreachableUrl() }, send);
    expect(run.notes.join('\n')).toMatch(/cannot reach/);
    expect(run.probes).toEqual([]);
  });

  it('says what could not be checked on a legacy server', async () => {
    // What a 2025-era SDK 1.x server answers a request that did not initialize first.
    const server: Server = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Server not initialized' }, id: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const run = await runCheck({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }, send);
      expect(run.notes.join('\n')).toMatch(/legacy \(2025-era\) server has no multi round-trip requests, so no MRTR probe could be run/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
