// The mock's decisions: which recorded answer a client's request gets. A first request is
// matched by its method and params (name and arguments); a retry follows the call round by
// round from the token the mock issued, and among the recorded variants of the next round
// (accept, decline, error…) takes the one the client's answers match best. A request with
// no answer in the book gets a JSON-RPC error naming the closest recorded request and the
// difference: a mismatch is an answer, never a hang.
import { asObject, MRTR_METHODS } from '../decode/meta.js';
import { keyScore } from '../thread/retry-match.js';
import { canonicalJson } from '../thread/round.js';
import { answerFor, type OutMessage } from './answer.js';
import { answerActions, pickVariant, requestKey, type Echo, type MockBook, type RecordedCall, type RecordedRound } from './book.js';
import { closestRequest, closestTo, describeChanges, nameOf } from './closest.js';
import { TASK_METHODS, TaskFollower } from './tasks.js';

/** The JSON-RPC error code of "no recorded answer fits" (implementation-defined range). */
export const MOCK_MISMATCH = -32099;
/** The code the SDK answers a bad requestState with; the mock uses it for tokens too. */
export const INVALID_STATE = -32602;

export interface MockOptions {
  /** Also refuse a retry that does not echo the token, or answers a key never asked. */
  strict?: boolean;
  /** Mints the opaque tokens the mock issues (tests pass a counter). */
  newToken?: () => string;
}

/** What the mock does with one client message. */
export type MockOutcome =
  | { kind: 'answer'; call: RecordedCall; round: number; recorded: RecordedRound; messages: OutMessage[]; warning?: string }
  | { kind: 'accepted' }
  | { kind: 'mismatch'; id: unknown; error: { code: number; message: string; data: { reason: string; closest?: string } } };

interface Chain {
  key: string;
  variants: RecordedCall[];
  call: RecordedCall;
  round: number;
  open: boolean;
  /** Filed in `chains` (for retries that do not echo the token). */
  filed: boolean;
}

type Mismatch = Extract<MockOutcome, { kind: 'mismatch' }>;

const keysOf = (o: Record<string, unknown> | null) => (o ? Object.keys(o) : []);

export class MockMatcher {
  private readonly tokens = new Map<string, { chain: Chain; call: RecordedCall; round: number }>();
  private readonly chains = new Map<string, Chain[]>();
  /** Rounds served, by call, for choosing among equal first requests and for the summary. */
  readonly served = new Map<RecordedCall, Set<number>>();
  readonly mismatches: string[] = [];
  /** Each mismatch as parts: its message, and the closest recorded request and the JSON path
   *  differences when one was found (the page lists them; the message says the same). */
  readonly mismatchDetails: { message: string; reason: string; closest?: string; diff?: string }[] = [];
  readonly warnings: string[] = [];
  private readonly firstServes = new Map<RecordedCall, number>();
  private minted = 0;
  private readonly tasks: TaskFollower;

  constructor(readonly book: MockBook, private readonly opts: MockOptions = {}) {
    this.tasks = new TaskFollower(book);
  }

  /** Decides the answer to one parsed client message. */
  handle(message: unknown): MockOutcome {
    const m = asObject(message);
    if (!m || Array.isArray(message)) return this.fail(null, -32600, 'invalid-request', 'the mock serves one JSON-RPC message per request; this is not a JSON object');
    if (typeof m.method !== 'string') return { kind: 'accepted' }; // a client's answer (legacy push)
    if (!('id' in m)) return { kind: 'accepted' }; // a notification
    const method = m.method;
    const params = asObject(m.params);
    const responses = asObject(params?.inputResponses) ?? null;
    const state = params?.requestState;
    if (TASK_METHODS.has(method) && this.book.byTask.size > 0) {
      const d = this.tasks.decide(method, params?.taskId, responses, this.opts.strict === true);
      if (d.kind === 'fail') return this.fail(m.id, d.reason === 'unknown-task' || d.reason === 'no-task-id' ? INVALID_STATE : MOCK_MISMATCH, d.reason, d.message);
      this.tasks.moved(d);
      return this.serve(m.id, params, null, d.call, d.round, d.warning, d.taskId);
    }
    const isRetry = MRTR_METHODS.has(method) && (state !== undefined || responses !== null);
    return isRetry ? this.retry(m.id, method, params, responses, state) : this.first(m.id, method, params);
  }

  private first(id: unknown, method: string, params: Record<string, unknown> | undefined): MockOutcome {
    const key = requestKey(method, params);
    const list = this.book.byKey.get(key);
    if (!list) return this.unmatched(id, method, params, false, 'no-recorded-request', `no recorded ${method} has these params`);
    // Equal first requests take the recorded calls in turn, so two recorded runs of one
    // call are both served before either is served again.
    let call = list[0];
    for (const c of list) if ((this.firstServes.get(c) ?? 0) < (this.firstServes.get(call) ?? 0)) call = c;
    this.firstServes.set(call, (this.firstServes.get(call) ?? 0) + 1);
    const chain: Chain = { key, variants: list, call, round: 0, open: false, filed: false };
    return this.serve(id, params, chain, call, 0);
  }

  private retry(id: unknown, method: string, params: Record<string, unknown> | undefined, responses: Record<string, unknown> | null, state: unknown): MockOutcome {
    const known = typeof state === 'string' ? this.tokens.get(state) : undefined;
    let echo: Echo = 'issued';
    let from = known;
    if (!from) {
      echo = state === undefined ? 'none' : 'foreign';
      // As the threader's rule 2: the same call, open, asking for the keys the client answers.
      const open = (this.chains.get(requestKey(method, params)) ?? []).filter((c) => c.open && keyScore(keysOf(responses), c.call.rounds[c.round].asked) > 0);
      const chain = open[open.length - 1];
      if (!chain) {
        const why = echo === 'foreign' ? 'its requestState was not issued by this mock, and no open call of the same tool and arguments asked for these inputResponses keys' : 'no open call of the same tool and arguments asked for these inputResponses keys';
        return this.unmatched(id, method, params, true, echo === 'foreign' ? 'unknown-token' : 'no-open-call', why, echo === 'foreign' ? INVALID_STATE : MOCK_MISMATCH);
      }
      from = { chain, call: chain.call, round: chain.round };
    }
    const where = nameOf(from.call, from.round);
    // A token names one call: sent with another tool or other arguments it is refused, as a
    // server that binds its tokens to the call would.
    if (known && requestKey(method, params) !== from.chain.key)
      return this.unmatched(id, method, params, true, 'token-for-another-call', `Invalid requestState: it was issued by ${where}, a call with another method, name or arguments`, INVALID_STATE, from.call, from.round);
    const at = from.call.rounds[from.round];
    const asked = at.asked ? Object.keys(at.asked) : [];
    const got = keysOf(responses);
    const missing = asked.filter((k) => !got.includes(k));
    const extra = got.filter((k) => !asked.includes(k));
    if (missing.length > 0) return this.fail(id, MOCK_MISMATCH, 'missing-answer', `inputResponses lacks ${missing.map((k) => JSON.stringify(k)).join(', ')}, asked for by ${where}${extra.length ? `; it answers ${extra.map((k) => JSON.stringify(k)).join(', ')} instead, which that round never asked` : ''}`);
    let warning: string | undefined;
    if (extra.length > 0) {
      const text = `inputResponses answers ${extra.map((k) => JSON.stringify(k)).join(', ')}, never asked by ${where}`;
      if (this.opts.strict) return this.fail(id, MOCK_MISMATCH, 'unasked-key', text);
      warning = text;
    }
    // The next rounds the recording has, in every variant of the call, after a round that
    // asked for the same keys at the same depth.
    const askedText = this.askedText(at);
    const next: { call: RecordedCall; round: number; r: RecordedRound }[] = [];
    for (const call of from.chain.variants)
      for (const [i, r] of call.rounds.entries())
        if (r.parent !== null && r.depth === at.depth + 1 && this.askedText(call.rounds[r.parent]) === askedText) next.push({ call, round: i, r });
    const sameEcho = next.filter((n) => n.r.echo === echo);
    let pool = sameEcho;
    if (sameEcho.length === 0) {
      if (echo === 'foreign') return this.fail(id, INVALID_STATE, 'token-not-echoed', `Invalid requestState: it is not the token this mock issued in ${where}; echo that token byte for byte`);
      if (echo === 'none') {
        const text = `the retry does not echo the requestState issued in ${where}`;
        if (this.opts.strict) return this.fail(id, INVALID_STATE, 'token-not-echoed', `Invalid requestState: ${text}`);
        warning = warning ? `${warning}; ${text}` : text;
      }
      pool = next.filter((n) => n.r.echo === 'issued');
    }
    if (pool.length === 0) return this.fail(id, MOCK_MISMATCH, 'no-recorded-round', `the recording has no round after ${where}: its client never answered it`);
    const pick = pickVariant(pool, from.call, { responses }, (r) => this.actionsOf(r));
    return this.serve(id, params, from.chain, pick.call, pick.round, warning);
  }

  /** A round's asked keys and its answers' actions in canonical JSON, made once per round:
   *  a call recorded many times is compared with every variant at each retry. */
  private readonly texts = new WeakMap<RecordedRound, { asked?: string; actions?: string }>();
  private textsOf(r: RecordedRound) {
    let t = this.texts.get(r);
    if (!t) this.texts.set(r, (t = {}));
    return t;
  }
  private askedText(r: RecordedRound): string {
    const t = this.textsOf(r);
    return (t.asked ??= canonicalJson(r.asked));
  }
  private actionsOf(r: RecordedRound): string {
    const t = this.textsOf(r);
    return (t.actions ??= answerActions(r.responses));
  }

  /** Serves a round; `chain` is null for a task's polls, updates and cancels (no tokens), and
   *  `taskId` is then the client's, which the answer carries. */
  private serve(id: unknown, params: Record<string, unknown> | undefined, chain: Chain | null, call: RecordedCall, round: number, warning?: string, taskId?: string): MockOutcome {
    const r = call.rounds[round];
    if (r.outcome === 'no-response' && r.messages.length === 0)
      return this.fail(id, MOCK_MISMATCH, 'no-recorded-answer', `${nameOf(call, round)} got no answer in the recording (the capture ends before it, or it was cut off)`);
    let served = this.served.get(call);
    if (!served) this.served.set(call, (served = new Set()));
    served.add(round);
    const fresh = chain && r.stateIssued !== null ? (this.opts.newToken?.() ?? `mock.${(++this.minted).toString(36)}.${Math.random().toString(36).slice(2, 12)}`) : null;
    if (round === 0) this.tasks.started(call);
    if (chain) this.follow(chain, call, round, fresh);
    if (warning) this.warnings.push(`${nameOf(call, round)}: ${warning}`);
    const progressToken = asObject(asObject(params?._meta))?.progressToken;
    const task = taskId !== undefined && call.taskId !== undefined && call.taskId !== taskId ? { recorded: call.taskId, client: taskId } : undefined;
    const messages = answerFor(r, { id, progressToken, freshState: fresh, ...(task ? { task } : {}) });
    return warning ? { kind: 'answer', call, round, recorded: r, messages, warning } : { kind: 'answer', call, round, recorded: r, messages };
  }

  /** Moves a call's chain to the round served, and files the token it issued. */
  private follow(chain: Chain, call: RecordedCall, round: number, fresh: string | null): void {
    const r = call.rounds[round];
    chain.call = call;
    chain.round = round;
    chain.open = r.outcome === 'input_required';
    if (fresh !== null) this.tokens.set(fresh, { chain, call, round });
    if (chain.open && !chain.filed) {
      chain.filed = true;
      const list = this.chains.get(chain.key);
      if (list) list.push(chain);
      else this.chains.set(chain.key, [chain]);
    }
  }

  private unmatched(id: unknown, method: string, params: Record<string, unknown> | undefined, retry: boolean, reason: string, why: string, code = MOCK_MISMATCH, against?: RecordedCall, round = 0): Mismatch {
    const near = against ? closestTo(against, round, method, params) : closestRequest(this.book, method, params, retry);
    if (!near) return this.fail(id, code, reason, `${why}; the recording holds no requests`);
    const diff = describeChanges(near.changes, near.omitted);
    return this.fail(id, code, reason, `${why}. Closest recorded request: ${nameOf(near.call, near.round)}${diff ? `; differences: ${diff}` : ''}`, nameOf(near.call, near.round), diff);
  }

  private fail(id: unknown, code: number, reason: string, message: string, closest?: string, diff?: string): Mismatch {
    this.mismatches.push(message);
    this.mismatchDetails.push({ message, reason, ...(closest !== undefined ? { closest } : {}), ...(diff ? { diff } : {}) });
    return { kind: 'mismatch', id, error: { code, message: `mrtr-inspector mock: ${message}`, data: closest !== undefined ? { reason, closest } : { reason } } };
  }
}
