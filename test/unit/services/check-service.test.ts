// The page's "Check this server" service (worker/services/check.ts) over a stand-in of the
// Console's link (sends through Node's fetch, keeps what it is handed), against the demo:
// the report grouped per target with failures first and each probe naming an exchange that
// was recorded, the drives labelled `check`, Stop sending nothing more, the CLI's formats,
// and a user's own open call left exactly as it was by the check's traffic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { createStepper } from '../../../worker/console/stepper.js';
import { buildRequest, capabilitiesFrom } from '../../../worker/console/request.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import type { Transport } from '../../../worker/console/types.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { createCheckService } from '../../../worker/services/check.js';
import type { ConsoleLink } from '../../../worker/services/console-link.js';
import { Keyring } from '../../../worker/services/keyring.js';
import { serveDemo, type Running } from '../console/servers.js';

let demo: Running;
beforeAll(async () => { demo = await serveDemo(); });
afterAll(async () => { await demo?.close(); });

const RANK = { failed: 0, warning: 1, passed: 2, 'not-applicable': 3 } as const;

/** The link as the page's is: each send answered under its link id; `keep` records what it is handed. */
function standInLink(onSend: () => void = () => {}) {
  const http = fetchTransport({ timeoutMs: 10_000 });
  const kept: ExchangeRecord[] = [];
  let sends = 0;
  const send: Transport = async (req) => {
    sends++;
    onSend();
    const res = await http(req);
    return req.link ? { ...res, recordId: req.link.id } : res;
  };
  const link = { send, keep: async (records: readonly ExchangeRecord[]) => (kept.push(...records), 'session-1') } as unknown as ConsoleLink;
  return { link, kept, sends: () => sends };
}

describe('Check this server, in the worker', () => {
  it('reports the misbehaving demo per target, failures first, each probe linked to a recorded exchange', async () => {
    const { link, kept } = standInLink();
    const svc = createCheckService({ link, keyring: new Keyring() });
    const steps: string[] = [];
    const got = await svc.start(`${demo.url}?misbehave=1`, { allow: ['confirm_action', 'setup_wizard'] }, (p) => steps.push(`${p.calls}/${p.maxCalls} ${p.target} ${p.probe ?? ''}`));
    if (!got.ok) throw new Error(got.error.message);
    const v = got.value;
    expect(v.passed).toBe(false);
    expect(v.stopped).toBe(false);
    expect(v.session).toBe('session-1');
    expect(v.maxCalls).toBe(2000);
    // Failed targets first, and within each target its failed probes first.
    expect(v.targets[0].counts.failed).toBeGreaterThan(0);
    expect(v.targets.map((t) => t.target).slice(0, 2).sort()).toEqual(['tools/call confirm_action', 'tools/call setup_wizard']);
    for (const t of v.targets) for (let i = 1; i < t.probes.length; i++) expect(RANK[t.probes[i].verdict]).toBeGreaterThanOrEqual(RANK[t.probes[i - 1].verdict]);
    const modified = v.targets[0].probes[0];
    expect(modified).toMatchObject({ probe: 'token-modified', verdict: 'failed', clause: 'M10, M11 (mrtr:232-233)' });
    // Every probe that sent something names an exchange the session was handed.
    const ids = new Set(kept.map((r) => r.id));
    const linked = v.targets.flatMap((t) => t.probes).filter((p) => p.exchange !== undefined);
    expect(linked.length).toBeGreaterThan(20);
    for (const p of linked) expect(ids.has(p.exchange!)).toBe(true);
    expect(kept.find((r) => r.id === modified.exchange)?.origin?.kind).toBe('tamper');
    const drive = v.targets[0].probes.find((p) => p.probe === 'drive')!;
    expect(kept.find((r) => r.id === drive.exchange)?.origin?.kind).toBe('check');
    // All of it is labelled: the connect, the drives (tasks too) as one check run, the probes as tamper runs.
    expect([...new Set(kept.map((r) => r.origin?.kind))].sort()).toEqual(['check', 'discovery', 'tamper']);
    expect(new Set(kept.filter((r) => r.origin?.kind === 'check').map((r) => r.origin?.run)).size).toBe(1);
    const task = v.targets[0].probes.find((p) => p.probe === 'task')!;
    expect(kept.find((r) => r.id === task.exchange)?.origin?.kind).toBe('check');
    // Tools not ticked are listed as skipped, in the page's words.
    expect(v.skipped.find((s) => s.target === 'tools/call research_report')?.reason).toMatch(/may change data; tick it/);
    expect(steps.some((s) => /tools\/call confirm_action token-modified$/.test(s))).toBe(true);
    // The downloads are the CLI's formats.
    const json = JSON.parse(svc.export('json')!.text);
    expect(json).toMatchObject({ kind: 'check', passed: false });
    expect(json.probes.some((p: { probe: string; verdict: string }) => p.probe === 'token-modified' && p.verdict === 'failed')).toBe(true);
    const sarif = JSON.parse(svc.export('sarif')!.text);
    expect(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'check/token-modified')).toBe(true);
    expect(svc.export('junit')).toMatchObject({ fileName: expect.stringMatching(/^check-127\.0\.0\.1-\d+\.xml$/), text: expect.stringContaining('<failure') });
    expect(svc.guarded([{ name: 'a', annotations: { readOnlyHint: true } }, { name: 'b', annotations: { destructiveHint: true } }])).toEqual([{ name: 'b', reason: 'annotated destructiveHint: true' }]);
  }, 90_000);

  it('stops sending on Stop and ends with what it has, recording only what went out', async () => {
    let svc: ReturnType<typeof createCheckService> | undefined;
    let stoppedAt = -1;
    const stand = standInLink(() => { if (stand.sends() === 12) stoppedAt = 12, svc!.stop(); });
    svc = createCheckService({ link: stand.link, keyring: new Keyring() });
    expect(svc.stop()).toBe(false);
    const got = await svc.start(demo.url, { allow: ['confirm_action', 'setup_wizard'] });
    if (!got.ok) throw new Error(got.error.message);
    expect(stoppedAt).toBe(12);
    // Requests already waiting for a free slot when Stop came are refused too: at most the 4 in flight finish.
    expect(stand.sends()).toBeLessThanOrEqual(12 + 4);
    expect(got.value).toMatchObject({ stopped: true, calls: stand.sends() });
    expect(got.value.notes.join('\n')).toMatch(/stopped early: stopped by the user/);
    expect(stand.kept.length).toBe(stand.sends());
    expect(svc.running()).toBe(false);
  }, 60_000);

  it('leaves a user\'s own open call on the same tool as it was: status and findings', async () => {
    const http = fetchTransport({ timeoutMs: 10_000 });
    const caps = capabilitiesFrom({ elicitationForm: true, elicitationUrl: true, sampling: true, roots: true });
    const user = await createStepper({ send: http }).start({ url: demo.url, request: buildRequest({ method: 'tools/call', params: { name: 'confirm_action', arguments: { action: 'deploy' } }, id: 1, capabilities: caps, clientInfo: { name: 'user-client', version: '1' } }) });
    const own = user.rounds.map((r) => r.record);
    const { link, kept } = standInLink();
    const got = await createCheckService({ link, keyring: new Keyring() }).start(demo.url, { allow: ['confirm_action'] });
    expect(got.ok).toBe(true);
    const judge = async (records: ExchangeRecord[]) => {
      const a = await analyze(records.map((r, seq) => ({ ...r, seq })));
      const c = a.conversations.find((x) => x.exchanges.includes(0))!;
      return { status: c.status, exchanges: c.rounds.length, findings: a.findings.filter((f) => f.conversation === c.id).map((f) => f.rule).sort() };
    };
    const alone = await judge(own);
    const beside = await judge([...own, ...kept]);
    expect(alone.status).toBe('abandoned'); // the call was left waiting for its answer (a finished capture)
    expect(beside.status).toBe(alone.status);
    expect(beside.findings).toEqual(alone.findings);
  }, 60_000);
});
