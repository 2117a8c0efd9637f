// `check`: discover a server, drive every selected tool, prompt and resource through all
// its rounds, probe each multi-round call, and hand back the verdicts with all the
// traffic (as console records: the caller lints them and may save them as a capture).
// Runs over any Transport, so the CLI (Node's fetch, or a stdio bridge) and the page's
// worker share it.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import { own } from '../decode/meta.js';
import { loadCatalog } from '../services/console-catalog.js';
import { consoleRecord, newRecordId, newRunId } from '../console/exchange.js';
import { summarize } from '../console/tamper.js';
import type { Transport } from '../console/types.js';
import { budgeted } from './budget.js';
import { askedForm, driveCall, type AnswerMode, type CheckCall, type DriveContext } from './drive.js';
import { argumentsFor } from './fill.js';
import { probeCall } from './probes.js';
import { declaresTasks, driveTask } from './task-drive.js';
import { skipReason } from './select.js';
import type { CheckOptions, CheckRun, ProbeResult, ProbeVerdict, Skipped } from './types.js';
import { PROBE_SPECS } from './verdicts.js';

/** Progress as the check goes: one line per step, for a terminal or the page. */
export type CheckProgress = (line: string) => void;

const MAX_RESOURCES = 20;

/** Runs the whole check against `opts.url` over `send`. Never throws for a bad server. */
export async function runCheck(opts: CheckOptions, send: Transport, progress: CheckProgress = () => {}): Promise<CheckRun> {
  const started = Date.now();
  const budget = budgeted(send, { ...(opts.maxCalls !== undefined ? { maxCalls: opts.maxCalls } : {}), ...(opts.maxTimeMs !== undefined ? { maxTimeMs: opts.maxTimeMs } : {}), concurrency: opts.concurrency ?? 4 });
  const records: ExchangeRecord[] = [];
  const notes: string[] = [];
  const probes: ProbeResult[] = [];
  const skipped: Skipped[] = [];
  const run: CheckRun = { target: opts.url, serverInfo: null, notes, probes, skipped, records, calls: 0, elapsedMs: 0, summary: { passed: 0, failed: 0, warning: 0, 'not-applicable': 0 } };

  const discovery = { kind: 'discovery' as const, run: newRunId() };
  const catalog = await loadCatalog(opts.url, { toggles: { elicitationForm: true, elicitationUrl: true, sampling: true, roots: true }, clientInfo: { name: 'mrtr-inspector-check', version: '0.1.0' } }, budget.send,
    (req, res) => records.push(consoleRecord(req, res, { id: newRecordId(), seq: 0, origin: discovery })));
  run.serverInfo = catalog.serverInfo;
  for (const p of catalog.problems) notes.push(p);
  if (catalog.discover === null) {
    const unreachable = records.every((r) => !r.response);
    run.unchecked = unreachable ? 'unreachable' : 'legacy';
    notes.push(unreachable
      ? `cannot reach ${opts.url}: nothing was checked`
      : 'server/discover did not answer as a 2026-07-28 server: a legacy (2025-era) server has no multi round-trip requests, so no MRTR probe could be run; the lists below are what it answered to 2026-07-28 requests');
  } else if (catalog.supportedVersions.length > 0 && !catalog.supportedVersions.includes('2026-07-28')) {
    notes.push(`the server supports ${catalog.supportedVersions.join(', ')} but not 2026-07-28: its multi round-trip handling could not be checked`);
  }

  const calls: CheckCall[] = [];
  for (const t of catalog.tools) {
    const target = `tools/call ${t.name}`;
    const why = skipReason(t.name, opts, { annotations: t.annotations });
    if (why) skipped.push({ target, reason: why });
    else calls.push({ target, method: 'tools/call', params: { name: t.name, arguments: argumentsFor(t.inputSchema, opts.args?.[t.name]) }, ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}), ...(t.annotations ? { annotations: t.annotations } : {}) });
  }
  for (const p of catalog.prompts) {
    const target = `prompts/get ${p.name}`;
    const why = skipReason(p.name, opts);
    if (why) skipped.push({ target, reason: why });
    else {
      const args: Record<string, unknown> = {};
      for (const a of p.arguments) if (a.required) args[a.name] = 'check';
      calls.push({ target, method: 'prompts/get', params: { name: p.name, arguments: { ...args, ...(opts.args?.[p.name] ?? {}) } } });
    }
  }
  for (const [i, r] of catalog.resources.entries()) {
    const target = `resources/read ${r.uri}`;
    const why = i >= MAX_RESOURCES ? `only the first ${MAX_RESOURCES} resources are read` : skipReason(r.uri, opts);
    if (why) skipped.push({ target, reason: why });
    else calls.push({ target, method: 'resources/read', params: { uri: r.uri } });
  }

  const tasks = declaresTasks(catalog.discover);
  let counter = 0;
  const ids = (): JsonRpcId => `check-${++counter}`;
  const ctx: DriveContext = { url: opts.url, send: budget.send, ids, roots: opts.roots ?? [], ...(opts.stateOnlyDelayMs !== undefined ? { stateOnlyDelayMs: opts.stateOnlyDelayMs } : {}) };
  const result = (target: string, probe: ProbeResult['probe'], verdict: ProbeVerdict, detail: string) => probes.push({ probe, target, verdict, ...PROBE_SPECS[probe], detail });

  // Every call driven with accepted answers first: their tokens are the "other call's token" of the swap probe.
  const driven = await pool(calls, opts.concurrency ?? 4, async (call) => {
    progress(`driving ${call.target}`);
    const d = await driveCall(call, 'accept', ctx);
    records.push(...d.state.rounds.map((r) => r.record));
    return d;
  });
  const tokens = driven.map((d) => d.state.rounds.map((r) => (r.reading.kind === 'input_required' ? own(r.reading.result, 'requestState') : undefined)).find((t): t is string => typeof t === 'string'));

  await pool(calls.map((c, i) => i), opts.concurrency ?? 4, async (i) => {
    const call = calls[i];
    const { state } = driven[i];
    const last = state.rounds[state.current ?? state.rounds.length - 1];
    const own: ProbeResult[] = [];
    if (!last) return;
    const lastReading = last.reading;
    if (lastReading.kind === 'failed' && lastReading.status === 0) own.push(mk(call.target, 'drive', 'not-applicable', `not sent or unreachable: ${lastReading.message}`));
    else if (state.status === 'paused' && state.pending.some((q) => q.kind !== 'elicitation-url')) own.push(mk(call.target, 'drive', 'failed', `after schema-valid answers the server asked the same questions again (${summarize(lastReading)}): the answers never reach it, so the call cannot complete`));
    else if (state.status === 'capped') own.push(mk(call.target, 'drive', 'warning', `still asking after ${state.rounds.length} rounds (${summarize(lastReading)})`));
    else if (lastReading.kind === 'failed') own.push(mk(call.target, 'drive', 'warning', `no JSON-RPC answer (${summarize(lastReading)}); M23 asks for a JSON-RPC error`));
    else own.push(mk(call.target, 'drive', 'passed', `${state.rounds.length} round${state.rounds.length === 1 ? '' : 's'}: ${summarize(lastReading)}${lastReading.kind === 'error' ? ' (arguments were made up from the schema: give real ones with --args)' : ''}`));
    probes.push(...own);
    if (askedForm(state)) {
      for (const mode of ['decline', 'cancel'] as const satisfies readonly AnswerMode[]) {
        const d = await driveCall(call, mode, ctx, { kind: 'call', run: newRunId() });
        records.push(...d.state.rounds.map((r) => r.record));
        const end = d.state.rounds[d.state.rounds.length - 1].reading;
        const verdict: ProbeVerdict = end.kind === 'failed' ? (end.status === 0 ? 'not-applicable' : 'warning') : 'passed';
        result(call.target, mode, verdict, `${d.state.rounds.length} round(s): ${summarize(end)}`);
      }
    } else for (const mode of ['decline', 'cancel'] as const) result(call.target, mode, 'not-applicable', 'the call asked for no form');
    if (tasks && call.method === 'tools/call') {
      const t = await driveTask(call, ctx);
      records.push(...t.records);
      result(call.target, 'task', t.verdict, t.detail);
    }
    progress(`probing ${call.target}`);
    const other = calls.find((c) => c !== call && c.method === call.method);
    const foreignToken = tokens.find((t, j) => j !== i && t !== undefined);
    probes.push(...(await probeCall(call, state, { url: opts.url, send: budget.send, ids, maxWaitMs: opts.maxWaitMs ?? 0, ...(other ? { other } : {}), ...(foreignToken !== undefined ? { foreignToken } : {}) }, records)));
  });

  if (budget.exhausted) notes.push(`stopped early: ${budget.exhausted}; the probes it left unsent are not applicable`);
  // One timeline for the capture: records in the order they were sent.
  records.sort((a, b) => a.startedAt - b.startedAt);
  records.forEach((r, i) => (r.seq = i));
  const order = new Map(calls.map((c, i) => [c.target, i]));
  probes.sort((a, b) => (order.get(a.target) ?? 0) - (order.get(b.target) ?? 0));
  for (const p of probes) run.summary[p.verdict]++;
  run.calls = budget.calls;
  run.elapsedMs = Date.now() - started;
  return run;
}

function mk(target: string, probe: ProbeResult['probe'], verdict: ProbeVerdict, detail: string): ProbeResult {
  return { probe, target, verdict, ...PROBE_SPECS[probe], detail };
}

/** Runs `work` on every item with at most `limit` at once; results in item order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
