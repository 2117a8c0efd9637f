// Session replay of a recorded SDK session (test/fixtures/sdk/sdk-v2-auto.har) against the
// embedded demo, unchanged and changed, and the ignore list.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { planReplay, runReplay } from '../../../worker/console/replay.js';
import { replayFailed, replayJunit, replayText } from '../../../worker/console/replay-report.js';
import { DEFAULT_IGNORE, diffResults, parsePath, pathText } from '../../../worker/console/result-diff.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { DEMO_STATE_KEY } from '../../../worker/demo-key.js';
import { parseKey } from '../../../worker/tokens/index.js';
import { serveChangedDemo, serveDemo, type Running } from './servers.js';

const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';
const send = fetchTransport({ timeoutMs: 10_000 });
const key = parseKey(DEMO_STATE_KEY);
const keys = key.ok ? [key.key] : [];

async function recorded() {
  const imported = importCapture(readFileSync(AUTO, 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return analyze(imported.exchanges);
}

let demo: Running;
let changed: Running;
beforeAll(async () => {
  demo = await serveDemo();
  changed = await serveChangedDemo();
});
afterAll(async () => {
  await demo.close();
  await changed.close();
});

describe('session replay', () => {
  it('replays the recorded SDK session against the demo server with zero diffs and a clean lint', async () => {
    const capture = await recorded();
    const run = await runReplay(planReplay(capture), { target: demo.url, send });
    expect(run.outcomes.map((o) => o.status)).toEqual(Array(11).fill('same'));
    expect(run.outcomes.find((o) => o.name === 'setup_wizard')).toMatchObject({ rounds: 4, recordedRounds: 4 });
    const findings = (await analyze(run.records, { keys })).findings;
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(replayFailed(run, findings)).toBe(false);
    expect(replayText(run, findings, { path: AUTO })).toContain('Replay passed.');
  });

  it('is a capture session of its own: fresh ids, echoed new tokens, console records derived from the recording', async () => {
    const capture = await recorded();
    const run = await runReplay(planReplay(capture), { target: demo.url, send, session: 'replay-1' });
    const recordedIds = new Set(capture.records.map((r) => r.id));
    expect(run.records.every((r) => r.source === 'console' && r.session === 'replay-1' && recordedIds.has(r.derivedFrom!))).toBe(true);
    expect(run.records.map((r) => r.seq)).toEqual(run.records.map((_, i) => i));
    const analysis = await analyze(run.records);
    const wizard = analysis.conversations.find((c) => c.name === 'setup_wizard')!;
    expect(wizard.rounds.map((r) => r.link)).toEqual([null, 'state', 'state', 'state']);
    const recordedTokens = new Set(capture.conversations.flatMap((c) => c.rounds.map((r) => r.stateIssued)).filter(Boolean));
    expect(wizard.rounds.slice(1).every((r) => r.stateSent !== null && !recordedTokens.has(r.stateSent))).toBe(true);
    const ids = analysis.conversations.flatMap((c) => c.rounds.map((r) => r.requestId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows the diff of each final answer that changed on a changed server', async () => {
    const run = await runReplay(planReplay(await recorded()), { target: changed.url, send });
    const different = run.outcomes.filter((o) => o.status === 'different');
    expect(different.map((o) => o.name).sort()).toEqual(['confirm_action', 'setup_wizard']);
    const wizard = different.find((o) => o.name === 'setup_wizard')!;
    expect(wizard.changes).toEqual([
      { path: 'result.content[0].text', kind: 'changed', before: '"Created workspace \\"Acme Labs\\" on the pro plan."', after: '"CHANGED Created workspace \\"Acme Labs\\" on the pro plan."' },
    ]);
    const text = replayText(run, [], { path: AUTO });
    expect(text).toContain('DIFFERENT tools/call setup_wizard');
    expect(text).toContain('changed result.content[0].text');
    expect(text).toContain('Replay FAILED.');
    expect(replayJunit(run, [], { path: AUTO })).toMatch(/<testsuites name="mrtr-inspector replay" tests="\d+" failures="2">/);
  });

  it('leaves ignored paths out of the diff', async () => {
    const plan = planReplay(await recorded(), { conversations: ['c10'] });
    expect(plan.items.map((i) => i.name)).toEqual(['setup_wizard']);
    const run = await runReplay(plan, { target: changed.url, send, ignore: [...DEFAULT_IGNORE, 'result.content[*].text'] });
    expect(run.outcomes[0].status).toBe('same');
  });

  it("flags the misbehaving demo's traffic: error findings in the new traffic fail the replay", async () => {
    const run = await runReplay(planReplay(await recorded()), { target: `${demo.url}?misbehave=1`, send });
    const findings = (await analyze(run.records, { keys })).findings;
    const errors = [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.rule))];
    expect(errors.length).toBeGreaterThan(0);
    expect(replayFailed(run, findings)).toBe(true);
  });

  it('skips legacy conversations and says why', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/legacy-2025.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const plan = planReplay(await analyze(imported.exchanges));
    expect(plan.items).toEqual([]);
    expect(plan.skipped.length).toBeGreaterThan(0);
    expect(plan.skipped.some((s) => s.reason.includes('legacy'))).toBe(true);
  });
});

describe('result diff', () => {
  it('reads and writes paths with brackets for keys that are not identifiers', () => {
    const segs = ['result', '_meta', 'io.modelcontextprotocol/serverInfo', 'version'];
    const text = pathText(segs);
    expect(text).toBe('result._meta["io.modelcontextprotocol/serverInfo"].version');
    expect(parsePath(text)).toEqual(segs);
    expect(parsePath('result.content[0')).toBeNull();
  });

  it('ignores ids, tokens and timestamps by default, and nothing else', () => {
    const a = { jsonrpc: '2.0', id: 1, result: { requestState: 'a', createdAt: 1, when: '2026-01-01T00:00:00Z', text: 'x', _meta: { progressToken: 3 } } };
    const b = { jsonrpc: '2.0', id: 9, result: { requestState: 'b', createdAt: 2, when: '2026-02-02T10:00:00Z', text: 'y', _meta: { progressToken: 4 } } };
    expect(diffResults(a, b).changes).toEqual([{ path: 'result.text', kind: 'changed', before: '"x"', after: '"y"' }]);
    expect(diffResults(a, b, { ignore: [], ignoreTimestampValues: false }).changes.map((c) => c.path)).toEqual([
      'id', 'result.requestState', 'result.createdAt', 'result.when', 'result.text', 'result._meta.progressToken',
    ]);
    expect(diffResults({ l: [1] }, { l: [1, 2] }).changes).toEqual([{ path: 'l[1]', kind: 'added', after: '2' }]);
  });
});
