// The probes of one multi-round call, run after the call was driven to its end: the
// Console's tamper tests (modified, other tool, dropped, swapped, parallel reuse, expired)
// plus check's own (truncated, replayed after completion, inputResponses missing, with an
// unknown key, of the wrong kind, arguments changed, a re-used JSON-RPC id). Each answer is
// judged with the tamper tests' judge; the verdict then follows the clause's strength.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import { own } from '../decode/meta.js';
import { inspectToken } from '../tokens/index.js';
import { inputKind } from '../console/answers.js';
import { buildRetry, toHttp, withoutMrtrFields } from '../console/request.js';
import type { StepperState, StepRound } from '../console/stepper.js';
import { judgeOne, planTamperTests, runTamperPlan, summarize, type TamperResult, type TamperTest } from '../console/tamper.js';
import { tamperSubjectFromStep } from '../console/tamper-subject.js';
import type { BuiltRequest, ConsoleRequest, InputRequest, RoundReading, Transport } from '../console/types.js';
import { SAMPLING_REPLY, type CheckCall } from './drive.js';
import { sendProbe } from './probe-send.js';
import { isOneTime } from './select.js';
import type { ProbeId, ProbeResult, ProbeVerdict } from './types.js';
import { PROBE_SPECS } from './verdicts.js';

/** What the probes of one call need. */
export interface ProbeContext {
  url: string;
  send: Transport;
  ids: () => JsonRpcId;
  /** Another call of the same server to present the token on. */
  other?: CheckCall;
  /** A token the server issued to another call. */
  foreignToken?: string;
  maxWaitMs: number;
  session?: string;
  /** How to wait for a token's expiry (the check's: it ends early on Stop). */
  sleep?: (ms: number) => Promise<void>;
  /** Told before each probe starts sending (progress). */
  starting?: (probe: ProbeId) => void;
  /** Why the call's task input cannot be probed either, when it was called as a task that asked. */
  taskNote?: string;
}

const TAMPER_PROBE: Record<TamperTest, ProbeId> = {
  'flip-byte': 'token-modified', 'other-tool': 'token-other-tool', drop: 'token-dropped',
  'foreign-token': 'token-swapped', 'parallel-reuse': 'token-parallel-reuse', 'after-expiry': 'token-expired',
};

/** Probes that need a round asking for input; listed as not applicable when the call had none. */
export const ROUND_PROBES: readonly ProbeId[] = [
  'token-modified', 'token-truncated', 'token-other-tool', 'token-swapped', 'token-dropped', 'token-parallel-reuse', 'token-expired',
  'replay-after-complete', 'responses-missing', 'responses-unknown-key', 'responses-wrong-kind', 'arguments-changed', 'retry-id',
];

type Asking = StepRound & { reading: Extract<RoundReading, { kind: 'input_required' }> };

/** Runs every probe on a driven call; `records` gets their traffic. */
export async function probeCall(call: CheckCall, state: StepperState, ctx: ProbeContext, records: ExchangeRecord[]): Promise<ProbeResult[]> {
  const out: ProbeResult[] = [];
  const result = (probe: ProbeId, verdict: ProbeVerdict, detail: string, sent?: { run?: string; records: readonly ExchangeRecord[] }) =>
    out.push({ probe, target: call.target, verdict, ...PROBE_SPECS[probe], detail,
      ...(sent?.run !== undefined ? { run: sent.run } : {}), ...(sent?.records[0] ? { exchange: sent.records[0].id } : {}) });
  const starting = ctx.starting ?? (() => {});
  // The deepest round that asked and was answered: its state carries the most (the answers
  // so far), so a changed byte lands on data rather than on the name the server routes on.
  const asking = [...state.rounds].reverse().find((r): r is Asking => r.reading.kind === 'input_required' && state.rounds.some((c) => c.parent === r.index));
  if (!asking) {
    const why = state.rounds.some((r) => r.reading.kind === 'input_required') ? 'the call never got past its first question' : 'the call finished in one round: nothing multi-round to probe';
    for (const p of ROUND_PROBES) result(p, 'not-applicable', ctx.taskNote ? `${why}; ${ctx.taskNote}` : why);
    return out;
  }
  const oneTime = isOneTime(call.annotations);
  const token = own(asking.reading.result, 'requestState');
  const expiry = typeof token === 'string' ? inspectToken(token).expiresAt : null;
  const asked = Object.keys(asking.reading.inputRequests);
  const retry = state.rounds.find((c) => c.parent === asking.index)!;
  const answers = (own(JSON.parse(retry.request.body).params, 'inputResponses') as Record<string, unknown> | undefined) ?? {};
  const original: BuiltRequest = { body: JSON.parse(asking.request.body), headers: asking.request.headers };
  const base = withoutMrtrFields(original, 0);
  const send = async (reqs: { request: ConsoleRequest; id: JsonRpcId }[], control?: { request: ConsoleRequest; id: JsonRpcId }) => {
    const ex = await sendProbe(ctx.send, reqs, { ...(ctx.session !== undefined ? { session: ctx.session } : {}), derivedFrom: asking.record.id, ...(control ? { control } : {}) });
    records.push(...ex.records);
    return ex;
  };
  const retryWith = (state: string | undefined, responses: Record<string, unknown>, target: BuiltRequest = base, id: JsonRpcId = ctx.ids()) =>
    ({ request: toHttp(ctx.url, buildRetry(target, state === undefined ? {} : { requestState: state }, responses, id)), id });

  // The Console's tamper tests, on the round that asked.
  if (typeof token === 'string') {
    const subject = tamperSubjectFromStep(state, asking.index, ctx.url, {
      ...(ctx.other ? { otherTarget: { method: ctx.other.method, params: ctx.other.params } } : {}),
      ...(ctx.foreignToken !== undefined ? { foreignToken: ctx.foreignToken } : {}),
    });
    if ('error' in subject) for (const t of Object.values(TAMPER_PROBE)) result(t, 'not-applicable', subject.error);
    else {
      const { plans, notRun } = planTamperTests(subject, { ids: ctx.ids });
      for (const plan of plans) {
        const waitable = !plan.schedule || plan.schedule.waitMs <= ctx.maxWaitMs;
        if (!waitable) {
          result('token-expired', 'not-applicable', `the token expires at ${plan.schedule!.expiresAt}, later than --max-wait allows waiting`);
          continue;
        }
        const probe = TAMPER_PROBE[plan.test];
        starting(probe);
        const r = await runTamperPlan(plan, ctx.send, { waitForSchedule: true, derivedFrom: asking.record.id, ...(ctx.sleep ? { sleep: ctx.sleep } : {}), ...(ctx.session !== undefined ? { session: ctx.session } : {}) });
        records.push(...r.records);
        const note = probe === 'token-parallel-reuse' && r.result.verdict === 'accepted' ? `; ${replayNote(oneTime, expiry)}` : '';
        const run = r.records[0]?.origin?.run;
        const why = probe === 'token-modified' && r.result.unchanged ? `; ${HARMLESS_NOTE}` : note;
        result(probe, tamperVerdict(probe, r.result, oneTime, expiry), r.result.detail + why, { ...(run !== undefined ? { run } : {}), records: r.records });
      }
      for (const n of notRun) result(TAMPER_PROBE[n.test], 'not-applicable', n.detail);
    }
    starting('token-truncated');
    const cut = token.slice(0, Math.floor(token.length / 2));
    const t = retryWith(cut, answers);
    const fresh = ctx.ids();
    const control = { request: toHttp(ctx.url, withoutMrtrFields(base, fresh)), id: fresh };
    const ex = await send([t], control);
    const v = judgeOne(ex.responses[0], t.id, 'mrtr/invalid-state-accepted', asked, [ex.responses[1], fresh], `sent the first ${cut.length} of ${token.length} characters; `, retry.reading);
    result('token-truncated', tamperVerdict('token-truncated', v, oneTime, expiry), v.unchanged ? `${v.detail}; ${HARMLESS_NOTE}` : v.detail, ex);
  } else {
    for (const p of ['token-modified', 'token-truncated', 'token-other-tool', 'token-swapped', 'token-dropped', 'token-parallel-reuse', 'token-expired'] as const)
      result(p, 'not-applicable', 'the round issued no requestState');
  }

  // The completing retry, re-sent once the call is over.
  const last = state.rounds[state.current ?? state.rounds.length - 1];
  // A completing retry that carried no state re-sent is a repeat of the call with its answers:
  // M12b bounds the replay of state, so without state only a one-time tool must refuse (M13).
  const lastCarried = last.parent !== null && typeof own(JSON.parse(last.request.body).params, 'requestState') === 'string';
  if (state.status === 'complete' && last.parent !== null && !lastCarried && !oneTime)
    result('replay-after-complete', 'not-applicable', 'the completing retry carried no requestState, so there is no state to replay, and the tool is not one-time (M13)');
  else if (state.status === 'complete' && last.parent !== null) {
    const lastAsk = state.rounds[last.parent].reading;
    const lastAsked = lastAsk.kind === 'input_required' ? Object.keys(lastAsk.inputRequests) : [];
    starting('replay-after-complete');
    const id = ctx.ids();
    const body = { ...JSON.parse(last.request.body), id };
    const ex = await send([{ request: { ...last.request, body: JSON.stringify(body) }, id }]);
    const v = judgeOne(ex.responses[0], id, 'state/replayed', lastAsked, undefined, '');
    result('replay-after-complete', v.verdict === 'rejected' ? 'passed' : v.verdict === 'inconclusive' ? 'not-applicable' : replayVerdict(oneTime, expiry),
      v.verdict === 'accepted' ? `${v.detail}; ${replayNote(oneTime, expiry)}` : v.detail, ex);
  } else result('replay-after-complete', 'not-applicable', `the call did not complete (${summarize(last.reading)})`);

  const state0 = typeof token === 'string' ? token : undefined;
  if (asked.length > 0) {
    starting('responses-missing');
    const m = retryWith(state0, {});
    const ex = await send([m]);
    const r = ex.readings[0];
    const askedAgain = r.kind === 'input_required' && Object.keys(r.inputRequests).length > 0;
    // A tool error is an error too: M25 asks for a new question "rather than returning an error".
    result('responses-missing', askedAgain ? 'passed' : r.kind === 'failed' && r.status === 0 ? 'not-applicable' : 'warning',
      askedAgain ? `asked again (${summarize(r)})` : r.kind === 'complete' && !isToolError(r) ? `went on without the answers it asked for (${summarize(r)})` : `answered with an error instead of asking again (${summarize(r)})`, ex);

    starting('responses-unknown-key');
    const u = retryWith(state0, { ...answers, 'mrtr-inspector-unknown': { action: 'accept', content: {} } });
    const exU = await send([u]);
    const ru = exU.readings[0];
    result('responses-unknown-key', ru.kind === 'error' || (ru.kind === 'failed' && ru.status !== 0) ? 'warning' : ru.kind === 'failed' ? 'not-applicable' : 'passed',
      ru.kind === 'error' || ru.kind === 'failed' ? `refused an extra key instead of ignoring it (${summarize(ru)})` : `ignored it (${summarize(ru)})`, exU);

    starting('responses-wrong-kind');
    const wrong: Record<string, unknown> = {};
    for (const k of asked) wrong[k] = wrongKind(asking.reading.inputRequests[k]);
    const w = retryWith(state0, wrong);
    const exW = await send([w]);
    const rw = exW.readings[0];
    const refused = rw.kind === 'error' || isToolError(rw) || (rw.kind === 'input_required' && Object.keys(rw.inputRequests).length > 0);
    result('responses-wrong-kind', refused ? 'passed' : rw.kind === 'failed' && rw.status === 0 ? 'not-applicable' : 'warning',
      refused ? `refused or asked again (${summarize(rw)})` : rw.kind === 'failed' ? `no JSON-RPC answer (${summarize(rw)})` : `took answers of the wrong kind (${summarize(rw)})`, exW);
  } else for (const p of ['responses-missing', 'responses-unknown-key', 'responses-wrong-kind'] as const) result(p, 'not-applicable', 'the round asked for nothing (requestState only)');

  const changed = changedArguments(base);
  if (changed) {
    starting('arguments-changed');
    const c = retryWith(state0, answers, changed.request);
    const ex = await send([c]);
    const v = judgeOne(ex.responses[0], c.id, 'mrtr/state-cross-request', asked, undefined, `${changed.detail}; `);
    result('arguments-changed', v.verdict === 'accepted' ? 'warning' : v.verdict === 'rejected' ? 'passed' : 'not-applicable', v.detail, ex);
  } else result('arguments-changed', 'not-applicable', 'the call has no argument to change');

  starting('retry-id');
  const firstId = state.rounds[0].id;
  const reused = retryWith(state0, answers, base, firstId);
  const exR = await send([reused]);
  const rr = exR.readings[0];
  const newIdOk = retry.reading.kind !== 'failed';
  if (rr.kind === 'failed' && rr.status >= 200 && rr.status < 300) result('retry-id', 'failed', `a retry re-using id ${JSON.stringify(firstId)} got no answer under that id (${rr.message})`, exR);
  else if (rr.kind === 'failed' && rr.status === 0) result('retry-id', 'not-applicable', summarize(rr), exR);
  else if (rr.kind === 'failed' || !newIdOk) result('retry-id', 'warning', `new id: ${summarize(retry.reading)}; re-used id: ${summarize(rr)}`, exR);
  else result('retry-id', 'passed', `new id: ${summarize(retry.reading)}; re-used id ${JSON.stringify(firstId)}: ${summarize(rr)}`, exR);
  return out;
}

function isToolError(r: RoundReading): boolean {
  return r.kind === 'complete' && own(r.result, 'isError') === true;
}

/** An answer of another kind than asked: a sampling reply to a form, a form answer to the rest. */
function wrongKind(req: InputRequest | undefined): Record<string, unknown> {
  return inputKind(req).startsWith('elicitation') ? structuredClone(SAMPLING_REPLY) : { action: 'accept', content: {} };
}

/** The call with one argument changed (a string lengthened, a number raised, a boolean flipped). */
function changedArguments(base: BuiltRequest): { request: BuiltRequest; detail: string } | null {
  const args = own(base.body.params, 'arguments');
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  for (const [k, v] of Object.entries(args)) {
    const next = typeof v === 'string' ? `${v}-changed` : typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : undefined;
    if (next === undefined) continue;
    return { request: { ...base, body: { ...base.body, params: { ...base.body.params, arguments: { ...args, [k]: next } } } }, detail: `changed argument "${k}" from ${JSON.stringify(v)} to ${JSON.stringify(next)}` };
  }
  return null;
}

function replayVerdict(oneTime: boolean, expiry: string | null): ProbeVerdict {
  return oneTime ? 'failed' : expiry === null ? 'warning' : 'passed';
}

function replayNote(oneTime: boolean, expiry: string | null): string {
  if (oneTime) return 'the tool is annotated as not idempotent or destructive, so its state is single-use (M13)';
  return expiry === null ? 'nothing bounds the replay: the token carries no expiry (M12b)' : `the replay is bounded by the token's expiry (${expiry}); single use is required only for one-time state (M13)`;
}

/** Why a changed token answered as the genuine one is a warning and not a failure (M11). */
const HARMLESS_NOTE = 'M11 requires integrity protection only where the state influences authorization, resource access or business logic, and lets a server skip it where tampering does nothing worse than fail the request: check by hand that this state never drives any of those';

/**
 * A tamper result as a verdict: acceptance fails a MUST, warns on a SHOULD. A changed or
 * truncated token that was accepted fails only when the answer moved: answered exactly as
 * the genuine token was, nothing shows that the state mattered (M11), so it is a warning.
 */
function tamperVerdict(probe: ProbeId, r: Pick<TamperResult, 'verdict' | 'unchanged'>, oneTime: boolean, expiry: string | null): ProbeVerdict {
  if (r.verdict === 'rejected') return 'passed';
  if (r.verdict !== 'accepted') return 'not-applicable';
  switch (probe) {
    case 'token-modified':
    case 'token-truncated':
      return r.unchanged ? 'warning' : 'failed';
    case 'token-expired':
      return 'failed';
    case 'token-parallel-reuse':
      return replayVerdict(oneTime, expiry);
    default:
      return 'warning';
  }
}
