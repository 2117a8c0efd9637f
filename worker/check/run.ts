// `check`: discover a server, drive every selected tool, prompt and resource through all
// its rounds, probe each multi-round call, and hand back the verdicts with all the
// traffic (as console records: the caller lints them and may save them as a capture).
// Runs over any Transport, so the CLI (Node's fetch, or a stdio bridge) and the page's
// worker share it.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import { own } from '../decode/meta.js';
import { loadCatalog } from '../services/console-catalog.js';
import { consoleRecord, linkOrigin, newRecordId, newRunId } from '../console/exchange.js';
import { summarize } from '../console/tamper.js';
import type { Transport } from '../console/types.js';
import { budgeted } from './budget.js';
import { askedForm, driveCall, type AnswerMode, type CheckCall, type DriveContext } from './drive.js';
import { argumentsFor } from './fill.js';
import { probeCall } from './probes.js';
import { declaresTasks, driveTask, TASK_TOKEN_NOTE } from './task-drive.js';
import { skipReason } from './select.js';
import type { CheckOptions, CheckRun, ProbeId, ProbeResult, ProbeVerdict, Skipped } from './types.js';
import { PROBE_SPECS } from './verdicts.js';

/** Where the check is: the call and probe it started last, and the requests sent so far. */
export interface CheckStep {
  /** One line for a terminal: `driving tools/call x`, `probing tools/call x: token-modified`. */
  line: string;
  target: string;
  probe?: ProbeId;
  calls: number;
}

/** Progress as the check goes, for a terminal or the page. */
export type CheckProgress = (step: CheckStep) => void;

/** How a caller steers a running check: aborting `signal` (the page's Stop) sends nothing more. */
export interface CheckControl {
  signal?: AbortSignal;
  /** How a skipped tool can be let in, ending its reason (the CLI names its options). */
  howToAllow?: string;
}

const MAX_RESOURCES = 20;

/** Runs the whole check against `opts.url` over `send`. Never throws for a bad server. */
export async function runCheck(opts: CheckOptions, send: Transport, progress: CheckProgress = () => {}, control: CheckControl = {}): Promise<CheckRun> {
  const started = Date.now();
  const budget = budgeted(send, { ...(opts.maxCalls !== undefined ? { maxCalls: opts.maxCalls } : {}), ...(opts.maxTimeMs !== undefined ? { maxTimeMs: opts.maxTimeMs } : {}), concurrency: opts.concurrency ?? 4, ...(control.signal ? { signal: control.signal } : {}) });
  const at = (target: string, probe?: ProbeId) => progress({ line: `${probe ? 'probing' : 'driving'} ${target}${probe ? `: ${probe}` : ''}`, target, ...(probe ? { probe } : {}), calls: budget.calls });
  const skip = (name: string, tool?: { annotations?: unknown }) => skipReason(name, opts, tool, control.howToAllow);
  const records: ExchangeRecord[] = [];
  const notes: string[] = [];
  const probes: ProbeResult[] = [];
  const skipped: Skipped[] = [];
  const run: CheckRun = { target: opts.url, serverInfo: null, notes, probes, skipped, records, calls: 0, elapsedMs: 0, summary: { passed: 0, failed: 0, warning: 0, 'not-applicable': 0 } };

  const discovery = { kind: 'discovery' as const, run: newRunId() };
  // Linked like every other send, so a tap (the page's service worker) files it under the record's id and origin.
  const discover: Transport = (req) => budget.send({ ...req, link: { id: newRecordId(), ...linkOrigin(discovery) } });
  const catalog = await loadCatalog(opts.url, { toggles: { elicitationForm: true, elicitationUrl: true, sampling: true, roots: true }, clientInfo: { name: 'mrtr-inspector-check', version: '0.1.0' } }, discover,
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
    const why = skip(t.name, { annotations: t.annotations });
    if (why) skipped.push({ target, reason: why });
    else calls.push({ target, method: 'tools/call', params: { name: t.name, arguments: argumentsFor(t.inputSchema, opts.args?.[t.name]) }, ...(t.inputSchema !== undefined ? { inputSchema: t.inputSchema } : {}), ...(t.annotations ? { annotations: t.annotations } : {}) });
  }
  for (const p of catalog.prompts) {
    const target = `prompts/get ${p.name}`;
    const why = skip(p.name);
    if (why) skipped.push({ target, reason: why });
    else {
      const args: Record<string, unknown> = {};
      for (const a of p.arguments) if (a.required) args[a.name] = 'check';
      calls.push({ target, method: 'prompts/get', params: { name: p.name, arguments: { ...args, ...(opts.args?.[p.name] ?? {}) } } });
    }
  }
  for (const [i, r] of catalog.resources.entries()) {
    const target = `resources/read ${r.uri}`;
    const why = i >= MAX_RESOURCES ? `only the first ${MAX_RESOURCES} resources are read` : skip(r.uri);
    if (why) skipped.push({ target, reason: why });
    else calls.push({ target, method: 'resources/read', params: { uri: r.uri } });
  }

  const tasks = declaresTasks(catalog.discover);
  let counter = 0;
  const ids = (): JsonRpcId => `check-${++counter}`;
  const ctx: DriveContext = { url: opts.url, send: budget.send, ids, roots: opts.roots ?? [], ...(opts.stateOnlyDelayMs !== undefined ? { stateOnlyDelayMs: opts.stateOnlyDelayMs } : {}) };
  const result = (target: string, probe: ProbeResult['probe'], verdict: ProbeVerdict, detail: string, exchange?: string) => probes.push(mk(target, probe, verdict, detail, exchange));
  // The calls the check drives as a client are one labelled run (origin `check`); its probes are tamper runs.
  const checkRun = { kind: 'check' as const, run: newRunId() };
  const sleep = abortableSleep(control.signal);

  // Every call driven with accepted answers first: their tokens are the "other call's token" of the swap probe.
  const driven = await pool(calls, opts.concurrency ?? 4, async (call) => {
    at(call.target);
    const d = await driveCall(call, 'accept', ctx, checkRun);
    records.push(...d.state.rounds.map((r) => r.record));
    return d;
  });
  const tokens = driven.map((d) => d.state.rounds.map((r) => (r.reading.kind === 'input_required' ? own(r.reading.result, 'requestState') : undefined)).find((t): t is string => typeof t === 'string'));

  await pool(calls.map((c, i) => i), opts.concurrency ?? 4, async (i) => {
    const call = calls[i];
    const { state } = driven[i];
    const last = state.rounds[state.current ?? state.rounds.length - 1];
    if (!last) return;
    const lastReading = last.reading;
    const first = state.rounds[0]?.record.id;
    if (lastReading.kind === 'failed' && lastReading.status === 0) result(call.target, 'drive', 'not-applicable', `not sent or unreachable: ${lastReading.message}`, first);
    else if (state.status === 'paused' && state.pending.some((q) => q.kind !== 'elicitation-url')) result(call.target, 'drive', 'failed', `after schema-valid answers the server asked the same questions again (${summarize(lastReading)}): the answers never reach it, so the call cannot complete`, first);
    else if (state.status === 'capped') result(call.target, 'drive', 'warning', `still asking after ${state.rounds.length} rounds (${summarize(lastReading)})`, first);
    else if (lastReading.kind === 'failed') result(call.target, 'drive', 'warning', `no JSON-RPC answer (${summarize(lastReading)}); M23 asks for a JSON-RPC error`, first);
    else result(call.target, 'drive', 'passed', `${state.rounds.length} round${state.rounds.length === 1 ? '' : 's'}: ${summarize(lastReading)}${lastReading.kind === 'error' ? ' (arguments were made up from the schema: give real ones with --args)' : ''}`, first);
    if (askedForm(state)) {
      for (const mode of ['decline', 'cancel'] as const satisfies readonly AnswerMode[]) {
        at(call.target, mode);
        const d = await driveCall(call, mode, ctx, checkRun);
        records.push(...d.state.rounds.map((r) => r.record));
        const end = d.state.rounds[d.state.rounds.length - 1].reading;
        const verdict: ProbeVerdict = end.kind === 'failed' ? (end.status === 0 ? 'not-applicable' : 'warning') : 'passed';
        result(call.target, mode, verdict, `${d.state.rounds.length} round(s): ${summarize(end)}`, d.state.rounds[0]?.record.id);
      }
    } else for (const mode of ['decline', 'cancel'] as const) result(call.target, mode, 'not-applicable', 'the call asked for no form');
    let taskAsked = false;
    if (tasks && call.method === 'tools/call') {
      at(call.target, 'task');
      const t = await driveTask(call, ctx, checkRun);
      records.push(...t.records);
      taskAsked = t.taskAsked;
      result(call.target, 'task', t.verdict, t.detail, t.records[0]?.id);
    }
    const other = calls.find((c) => c !== call && c.method === call.method);
    const foreignToken = tokens.find((t, j) => j !== i && t !== undefined);
    probes.push(...(await probeCall(call, state, {
      url: opts.url, send: budget.send, ids, maxWaitMs: opts.maxWaitMs ?? 0, sleep, starting: (probe) => at(call.target, probe),
      ...(other ? { other } : {}), ...(foreignToken !== undefined ? { foreignToken } : {}),
      ...(taskAsked ? { taskNote: `called as a task it took input, but ${TASK_TOKEN_NOTE}` } : {}),
    }, records)));
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

function mk(target: string, probe: ProbeResult['probe'], verdict: ProbeVerdict, detail: string, exchange?: string): ProbeResult {
  return { probe, target, verdict, ...PROBE_SPECS[probe], detail, ...(exchange !== undefined ? { exchange } : {}) };
}

/** A sleep that ends early once `signal` is aborted (a Stop does not wait out a token's expiry). */
function abortableSleep(signal: AbortSignal | undefined): (ms: number) => Promise<void> {
  return (ms) => new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
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
