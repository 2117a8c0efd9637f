// Tamper tests, labelled as such, on a round that carries a requestState (M10-M13,
// mrtr:232-243): flip a byte, present it on another tool, drop it, present another chain's
// token, re-use it twice in parallel, and re-send it after it expires (time is never faked:
// the plan says when, and the caller waits). Each is a re-send whose answer is judged:
// rejected (good) or accepted, with the lint rule the acceptance breaks; an accepted changed
// token is also set against the genuine token's answer (tamper-genuine.ts).
import type { ConsoleOrigin, ExchangeRecord, JsonRpcId } from '../protocol.js';
import { own } from '../decode/meta.js';
import { inspectToken } from '../tokens/index.js';
import { consoleRecord, linkOrigin, newRecordId, newRunId, readRound, sendSafely } from './exchange.js';
import { buildRetry, encodeHeaderValue, toHttp, withoutMrtrFields } from './request.js';
import { flipPayloadByte } from './tamper-flip.js';
import { compareWithGenuine } from './tamper-genuine.js';
import { summarize } from './round-summary.js';
import type { BuiltRequest, ConsoleRequest, ConsoleResponse, RoundReading, Transport } from './types.js';

// Importers found the answer summary here first; it lives in its own file.
export { summarize };

/** The tamper tests, in the order they run. */
export type TamperTest = 'flip-byte' | 'other-tool' | 'drop' | 'foreign-token' | 'parallel-reuse' | 'after-expiry';

/** What a tamper test concluded. `inconclusive`: the server could not be reached or answered nothing readable. */
export interface TamperVerdict {
  verdict: 'rejected' | 'accepted' | 'inconclusive';
  /** The lint rule an acceptance breaks. */
  rule?: string;
  /**
   * Accepted, but the answer was exactly the one the genuine token got on this round: the
   * tampering changed nothing the client can see (M11 lets unprotected state pass only there).
   */
  unchanged?: true;
  detail: string;
}

/** A captured round with a token, and what the tests need around it. */
export interface TamperSubject {
  url: string;
  /** The call (any round's request: MRTR fields are replaced). */
  request: BuiltRequest;
  /** The input_required answer that issued the token. */
  answer: Record<string, unknown>;
  /** The answers to send with the token (the captured retry's inputResponses). */
  inputResponses: Record<string, unknown>;
  /** Another target of the same server to present the token on, e.g. `{ name: 'other_tool', arguments: {} }`. */
  otherTarget?: { method?: string; params: Record<string, unknown> };
  /** A token the server issued to another chain (another tool's call). */
  foreignToken?: string;
  /** The capture's exchange of this round, for `derivedFrom`. */
  recordId?: string;
  /** The answer the genuine token got on this round (its retry's), when the retry was sent. */
  genuine?: RoundReading;
}

/** One planned test: the requests to send together, a control (a fresh first round) sent after them, and the judge. */
export interface TamperPlan {
  test: TamperTest;
  label: string;
  requests: ConsoleRequest[];
  ids: JsonRpcId[];
  control?: { request: ConsoleRequest; id: JsonRpcId };
  /** For after-expiry: when to send (epoch ms) and how long that is from now. */
  schedule?: { expiresAt: string; sendAt: number; waitMs: number };
  judge(responses: readonly ConsoleResponse[]): TamperVerdict;
}

/** One test's outcome, plain data for the report. */
export interface TamperResult {
  test: TamperTest;
  label: string;
  status: 'done' | 'scheduled' | 'not-run';
  verdict?: TamperVerdict['verdict'];
  rule?: string;
  unchanged?: true;
  detail: string;
  sent?: { body: string }[];
  answers?: { status: number; summary: string }[];
  schedule?: TamperPlan['schedule'];
}

const LABELS: Record<TamperTest, string> = {
  'flip-byte': 'Tamper: flip one byte of the token',
  'other-tool': 'Tamper: present the token on another tool',
  drop: 'Tamper: drop the token',
  'foreign-token': "Tamper: present another chain's token",
  'parallel-reuse': 'Tamper: re-use the token twice in parallel',
  'after-expiry': 'Tamper: re-send after the token expires',
};

/** Plans every test the subject allows; the others come back with the reason they cannot run. */
export function planTamperTests(subject: TamperSubject, opts: { ids?: () => JsonRpcId; now?: number } = {}): { plans: TamperPlan[]; notRun: TamperResult[] } {
  let n = 0;
  const nextId = opts.ids ?? (() => `tamper-${Date.now().toString(36)}-${++n}`);
  const token = own(subject.answer, 'requestState');
  if (typeof token !== 'string') return { plans: [], notRun: (Object.keys(LABELS) as TamperTest[]).map((t) => notRun(t, 'the round issued no requestState')) };
  const base = withoutMrtrFields(subject.request, 0);
  const asked = Object.keys((own(subject.answer, 'inputRequests') as object | undefined) ?? {});
  const retry = (state: string | undefined, target: BuiltRequest = base) => {
    const id = nextId();
    const built = buildRetry(target, state === undefined ? {} : { requestState: state }, subject.inputResponses, id);
    return { request: toHttp(subject.url, built), id };
  };
  const fresh = (target: BuiltRequest = base) => {
    const id = nextId();
    return { request: toHttp(subject.url, withoutMrtrFields(target, id)), id };
  };
  const plans: TamperPlan[] = [];
  const notRunList: TamperResult[] = [];
  const single = (test: TamperTest, sent: { request: ConsoleRequest; id: JsonRpcId }, rule: string, control?: { request: ConsoleRequest; id: JsonRpcId }, note = '', genuine?: RoundReading) =>
    plans.push({
      test, label: LABELS[test], requests: [sent.request], ids: [sent.id], ...(control ? { control } : {}),
      judge: (rs) => judgeOne(rs[0], sent.id, rule, asked, control ? [rs[1], control.id] : undefined, note, genuine),
    });

  // Only the changed token is set against the genuine answer: the other tests present a
  // token the server itself issued, so what they probe is binding and reuse, not integrity.
  const flipped = flipPayloadByte(token);
  single('flip-byte', retry(flipped.token), 'mrtr/invalid-state-accepted', fresh(), `${flipped.detail}; `, subject.genuine);

  if (subject.otherTarget) {
    const other = retarget(base, subject.otherTarget);
    single('other-tool', retry(token, other), 'mrtr/state-cross-request', fresh(other));
  } else notRunList.push(notRun('other-tool', 'name another tool of this server to present the token on'));

  single('drop', retry(undefined), 'mrtr/state-dropped', fresh());

  if (subject.foreignToken !== undefined && subject.foreignToken !== token) single('foreign-token', retry(subject.foreignToken), 'mrtr/state-cross-request', fresh());
  else notRunList.push(notRun('foreign-token', 'needs a token the server issued to another chain (call another tool first)'));

  const a = retry(token);
  const b = retry(token);
  plans.push({
    test: 'parallel-reuse', label: LABELS['parallel-reuse'], requests: [a.request, b.request], ids: [a.id, b.id],
    judge: (rs) => judgeParallel(rs, [a.id, b.id], asked),
  });

  const reading = inspectToken(token);
  if (reading.expiresAt === null) {
    notRunList.push(notRun('after-expiry', `the token carries no expiry (${reading.format}), so it never expires: see state/no-expiry`));
  } else {
    const exp = Date.parse(reading.expiresAt);
    const now = opts.now ?? Date.now();
    const sendAt = exp + 1000;
    const late = retry(token);
    plans.push({
      test: 'after-expiry', label: LABELS['after-expiry'], requests: [late.request], ids: [late.id],
      schedule: { expiresAt: reading.expiresAt, sendAt, waitMs: Math.max(0, sendAt - now) },
      judge: (rs) => judgeOne(rs[0], late.id, 'mrtr/expired-state-accepted', asked, undefined, `sent after the token expired at ${reading.expiresAt}; `),
    });
  }
  return { plans, notRun: notRunList };
}

/** Sends a plan's requests (together), then its control, and judges. Waits for a schedule only when told to. */
export async function runTamperPlan(
  plan: TamperPlan,
  send: Transport,
  opts: { waitForSchedule?: boolean; now?: () => number; sleep?: (ms: number) => Promise<void>; session?: string; derivedFrom?: string; seq?: () => number; run?: string } = {},
): Promise<{ result: TamperResult; records: ExchangeRecord[] }> {
  if (plan.schedule) {
    const wait = plan.schedule.sendAt - (opts.now ?? Date.now)();
    if (wait > 0 && !opts.waitForSchedule) {
      const mins = Math.ceil(wait / 60000);
      return { result: { test: plan.test, label: plan.label, status: 'scheduled', detail: `the token has not expired yet: it can be sent in ${mins} min, once it has (the page shows both times in your clock)`, schedule: { ...plan.schedule, waitMs: wait } }, records: [] };
    }
    if (wait > 0) await (opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
  }
  let seq = 0;
  const nextSeq = opts.seq ?? (() => seq++);
  // Each send carries its record id, link and origin, so a tap files it under the same record;
  // a test sent alone is a run of its own.
  const origin: ConsoleOrigin = { kind: 'tamper', run: opts.run ?? newRunId() };
  const linked = (req: ConsoleRequest) => sendSafely(send, { ...req, link: { id: newRecordId(), ...(opts.derivedFrom !== undefined ? { derivedFrom: opts.derivedFrom } : {}), ...linkOrigin(origin) } });
  const record = (req: ConsoleRequest, res: ConsoleResponse) =>
    consoleRecord(req, res, { id: newRecordId(), seq: nextSeq(), origin, ...(opts.session !== undefined ? { session: opts.session } : {}), ...(opts.derivedFrom !== undefined ? { derivedFrom: opts.derivedFrom } : {}) });
  const responses = await Promise.all(plan.requests.map(linked));
  const records = plan.requests.map((r, i) => record(r, responses[i]));
  const sent = [...plan.requests];
  if (plan.control) {
    const res = await linked(plan.control.request);
    responses.push(res);
    records.push(record(plan.control.request, res));
    sent.push(plan.control.request);
  }
  const v = plan.judge(responses);
  const ids = [...plan.ids, ...(plan.control ? [plan.control.id] : [])];
  return {
    result: {
      test: plan.test, label: plan.label, status: 'done', verdict: v.verdict, ...(v.rule !== undefined ? { rule: v.rule } : {}), ...(v.unchanged ? { unchanged: true as const } : {}), detail: v.detail,
      sent: sent.map((r) => ({ body: r.body })),
      answers: responses.map((res, i) => ({ status: res.status, summary: summarize(readRound(records[i], ids[i])) })),
      ...(plan.schedule ? { schedule: plan.schedule } : {}),
    },
    records,
  };
}

/** A request for another target of the same method family (name or uri replaced, arguments given). */
function retarget(base: BuiltRequest, other: { method?: string; params: Record<string, unknown> }): BuiltRequest {
  const method = other.method ?? base.body.method;
  const params = { ...other.params, _meta: base.body.params._meta };
  const value = method === 'resources/read' ? other.params.uri : other.params.name;
  const headers = base.headers.map((h) => {
    const name = h.name.toLowerCase();
    if (name === 'mcp-method') return { ...h, value: method };
    if (name === 'mcp-name' && typeof value === 'string') return { ...h, value: encodeHeaderValue(value) };
    return { ...h };
  }).filter((h) => !h.name.toLowerCase().startsWith('mcp-param-'));
  return { body: { ...base.body, method, params }, headers };
}

function readingOf(res: ConsoleResponse | undefined, id: JsonRpcId): RoundReading {
  if (!res) return { kind: 'failed', status: 0, message: 'no response' };
  return readRound(consoleRecord({ url: '', method: 'POST', headers: [], body: '' }, res, { id: '', seq: 0 }), id);
}

const sameAsk = (a: RoundReading, b: RoundReading) =>
  a.kind === 'input_required' && b.kind === 'input_required' && JSON.stringify(a.inputRequests) === JSON.stringify(b.inputRequests);

/**
 * Rejected: an error (JSON-RPC or HTTP), a tool error, the same question asked again, or
 * the same answer a fresh call gets (the server ignored the token and started over).
 * Accepted: the server went on as if the state were good; given the `genuine` token's
 * answer to the same round, an identical answer is marked `unchanged`. Exported for
 * check's own probes.
 */
export function judgeOne(res: ConsoleResponse | undefined, id: JsonRpcId, rule: string, asked: string[], control: [ConsoleResponse | undefined, JsonRpcId] | undefined, note: string, genuine?: RoundReading): TamperVerdict {
  const r = readingOf(res, id);
  const what = summarize(r);
  if (r.kind === 'failed' && r.status === 0) return { verdict: 'inconclusive', detail: `${note}the server could not be reached: ${what}` };
  if (r.kind === 'failed') return { verdict: r.status >= 400 ? 'rejected' : 'inconclusive', detail: `${note}${what}` };
  if (r.kind === 'error') return { verdict: 'rejected', detail: `${note}the server refused it (HTTP ${r.status}, ${what})` };
  if (r.kind === 'complete' && own(r.result, 'isError') === true) return { verdict: 'rejected', detail: `${note}the tool answered with an error (${what})` };
  if (r.kind === 'input_required') {
    const keys = Object.keys(r.inputRequests);
    if (keys.length > 0 && keys.join('\u0000') === asked.join('\u0000')) return { verdict: 'rejected', detail: `${note}the server asked the same question again (${what})` };
    if (control && sameAsk(r, readingOf(control[0], control[1]))) return { verdict: 'rejected', detail: `${note}the server ignored the token and started the call over (${what})` };
  }
  const accepted = `${note}the server went on as if the state were good (${what})`;
  if (!genuine) return { verdict: 'accepted', rule, detail: accepted };
  const cmp = compareWithGenuine(r, genuine);
  if (cmp.same) return { verdict: 'accepted', rule, unchanged: true, detail: `${note}the server took it without verifying it, but answered exactly as to the genuine token (${what}): tampering changed nothing observable here` };
  return { verdict: 'accepted', rule, detail: `${accepted}; ${cmp.difference}` };
}

function judgeParallel(rs: readonly ConsoleResponse[], ids: JsonRpcId[], asked: string[]): TamperVerdict {
  const vs = ids.map((id, i) => judgeOne(rs[i], id, 'state/replayed', asked, undefined, ''));
  if (vs.some((v) => v.verdict === 'inconclusive')) return { verdict: 'inconclusive', detail: vs.map((v) => v.detail).join('; ') };
  const ok = vs.filter((v) => v.verdict === 'accepted').length;
  if (ok === 2) return { verdict: 'accepted', rule: 'state/replayed', detail: 'the server accepted the same token on two retries at once: fine for a stateless server, a bug where the round redeems something once (mrtr:238-243)' };
  if (ok === 1) return { verdict: 'rejected', detail: 'the server let one retry through and refused the other: single use is enforced' };
  return { verdict: 'rejected', detail: `the server refused both retries (${vs[0].detail})` };
}

function notRun(test: TamperTest, why: string): TamperResult {
  return { test, label: LABELS[test], status: 'not-run', detail: why };
}
