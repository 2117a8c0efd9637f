// The step-through session: a pure state machine over an injected transport. A call that
// answers input_required pauses with the pending questions and a preview of the exact next
// retry (new id, echoed token); the user answers, may edit the preview, and sends. Any
// earlier retry can be forked with other answers; rounds keep `parent`, so forks are
// branches. Auto mode answers from saved answers and stops only on new questions.
import type { ConsoleOrigin, ExchangeRecord, JsonRpcId, OriginKind } from '../protocol.js';
import { answerAll, inputKind, type AutoAnswers, type OpenQuestion } from './answers.js';
import { draftText, parseDraft, type DraftError } from './draft.js';
import { consoleRecord, linkOrigin, newRecordId, readRound, sendSafely } from './exchange.js';
import { buildRetry, toHttp } from './request.js';
import type { BuiltRequest, ConsoleRequest, InputRequest, RoundReading, SavedAnswer, Transport } from './types.js';

/** Saved answers for auto mode: one list, or a list per round depth (replay uses that). */
export type AutoSource = readonly SavedAnswer[] | ((ctx: { depth: number; inputRequests: Record<string, InputRequest> }) => readonly SavedAnswer[]);

/** How a stepper is set up. Only `send` is required. */
export interface StepperOptions {
  send: Transport;
  /** Rounds allowed on one branch before the stepper stops with `capped` (default 10, as the SDK client). */
  maxRounds?: number;
  /** JSON-RPC ids for retries (default: a counter after the first request's id). */
  ids?: () => JsonRpcId;
  auto?: AutoSource | false;
  /** Pause before auto-retrying a requestState-only round (default 250 ms, as the SDK client). */
  stateOnlyDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  session?: string;
  /** The recorded exchange a round at this depth re-enacts (replay), for `derivedFrom`. */
  derivedFrom?: (depth: number) => string | undefined;
  /** First `seq` of this stepper's records. */
  seqStart?: number;
  /**
   * The origin of every send (a replay's, a tamper subject's). Without it each round says
   * what it is: `call` (the first), `step`, `edit` (preview edited by hand) or `fork`.
   */
  origin?: ConsoleOrigin;
}

/** The call a stepper starts with. */
export interface StepCall {
  url: string;
  request: BuiltRequest;
}

/** One request the stepper sent and what came back. */
export interface StepRound {
  index: number;
  parent: number | null;
  depth: number;
  id: JsonRpcId;
  request: ConsoleRequest;
  reading: RoundReading;
  record: ExchangeRecord;
  /** The preview was edited by hand before this was sent. */
  edited: boolean;
  /** This round re-sent round `forkOf` with other answers. */
  forkOf?: number;
  /** How auto mode found each answer this round carries. */
  matched?: AutoAnswers['matched'];
}

/** The retry about to go out, as the editor shows it. */
export interface RetryPreview {
  id: JsonRpcId;
  request: ConsoleRequest;
  /** The generated text (headers, blank line, pretty JSON body). */
  original: string;
  /** What the editor holds: `original` unless edited. */
  text: string;
  edited: boolean;
  error?: DraftError;
}

/** Where the session is: `paused` waits for answers and Send; the rest say how the branch ended. */
export type StepperStatus = 'idle' | 'sending' | 'paused' | 'complete' | 'error' | 'failed' | 'capped';

/** A snapshot of the session (plain data; a new object after every change). */
export interface StepperState {
  status: StepperStatus;
  rounds: StepRound[];
  /** The round the session is paused at (its answer asked for input), or the last one. */
  current: number | null;
  inputRequests: Record<string, InputRequest> | null;
  /** Questions of the current round that have no answer yet. */
  pending: OpenQuestion[];
  answers: Record<string, Record<string, unknown>>;
  preview: RetryPreview | null;
  /** Why the last command did nothing (e.g. the edited draft does not parse). */
  message?: string;
}

/** The step-through session's commands; each resolves to the state after it. */
export interface Stepper {
  readonly state: StepperState;
  start(call: StepCall): Promise<StepperState>;
  answer(key: string, response: Record<string, unknown>): StepperState;
  editPreview(text: string): StepperState;
  send(): Promise<StepperState>;
  fork(roundIndex: number, answers: Record<string, Record<string, unknown>>): Promise<StepperState>;
  /** Pauses at an earlier round that asked for input (e.g. the leaf of another branch), to continue it. */
  select(roundIndex: number): StepperState;
  setAuto(auto: AutoSource | false): void;
  records(): ExchangeRecord[];
  branches(): { leaf: number; path: number[]; status: RoundReading['kind'] }[];
  subscribe(listener: (s: StepperState) => void): () => void;
}

/**
 * Creates a step-through session over `send`.
 *
 * Hazard: commands are async and the page may fire one while a request is in flight (a
 * double-clicked Send, `e` during auto mode). Every command that sends checks the status
 * first and refuses while it is `sending` (the refusal is a `message`, not a throw), so
 * two retries never leave with one preview and no round is recorded twice.
 */
export function createStepper(opts: StepperOptions): Stepper {
  const maxRounds = opts.maxRounds ?? 10;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let auto = opts.auto ?? false;
  let url = '';
  let original: BuiltRequest | null = null;
  let counter = 0;
  let seq = opts.seqStart ?? 0;
  const listeners = new Set<(s: StepperState) => void>();
  let s: StepperState = { status: 'idle', rounds: [], current: null, inputRequests: null, pending: [], answers: {}, preview: null };

  const set = (next: Partial<StepperState>) => {
    s = { ...s, ...next };
    if (next.message === undefined) delete s.message;
    for (const l of listeners) l(s);
    return s;
  };
  const nextId = (): JsonRpcId => (opts.ids ? opts.ids() : ++counter);
  const refused = (message: string) => set({ message });

  function preview(id: JsonRpcId): RetryPreview | null {
    const cur = s.current === null ? undefined : s.rounds[s.current];
    if (!original || cur?.reading.kind !== 'input_required') return null;
    const built = buildRetry(original, cur.reading.result, s.answers, id);
    const text = draftText(built.body, built.headers);
    return { id, request: toHttp(url, built), original: text, text, edited: false };
  }

  async function transmit(req: ConsoleRequest, id: JsonRpcId, parent: number | null, extra: Partial<StepRound>): Promise<StepRound> {
    set({ status: 'sending' });
    const depth = parent === null ? 0 : s.rounds[parent].depth + 1;
    const derivedFrom = extra.forkOf !== undefined ? s.rounds[extra.forkOf].record.id : opts.derivedFrom?.(depth);
    const kind: OriginKind = extra.forkOf !== undefined ? 'fork' : parent === null ? 'call' : extra.edited ? 'edit' : 'step';
    const origin: ConsoleOrigin = opts.origin ?? { kind };
    // The send names its record, what it re-enacts and its origin, so a tap files it linked.
    const link = { id: newRecordId(), ...(derivedFrom !== undefined ? { derivedFrom } : {}), ...linkOrigin(origin) };
    const res = await sendSafely(opts.send, { ...req, link });
    const record = consoleRecord(req, res, { id: link.id, seq: seq++, origin, ...(opts.session !== undefined ? { session: opts.session } : {}), ...(derivedFrom !== undefined ? { derivedFrom } : {}) });
    const round: StepRound = { index: s.rounds.length, parent, depth, id, request: req, reading: readRound(record, id), record, edited: false, ...extra };
    set({ rounds: [...s.rounds, round] });
    return round;
  }

  /** After a round: pause, finish, or (auto) answer and go on. Bounded by maxRounds. */
  async function settle(round: StepRound): Promise<StepperState> {
    let r = round;
    for (;;) {
      const reading = r.reading;
      if (reading.kind !== 'input_required') {
        const status = reading.kind === 'complete' ? 'complete' : reading.kind === 'error' ? 'error' : 'failed';
        return set({ status, current: r.index, inputRequests: null, pending: [], answers: {}, preview: null });
      }
      if (r.depth + 1 >= maxRounds) {
        return set({ status: 'capped', current: r.index, inputRequests: reading.inputRequests, pending: [], answers: {}, preview: null, message: `stopped after ${maxRounds} rounds on this branch (the round cap)` });
      }
      const found = auto ? autoAnswers(r, auto) : undefined;
      const all = Object.entries(reading.inputRequests).map(([key, request]) => ({ key, request, kind: inputKind(request) }));
      // The server asking again for exactly what auto mode just sent would loop to the cap:
      // that is a question for the user.
      const again = found !== undefined && all.length > 0 && sameAnswersAsParent(r, found.responses);
      const pending = found && !again ? found.questions : all;
      set({ status: 'paused', current: r.index, inputRequests: reading.inputRequests, pending, answers: found && !again ? found.responses : {}, preview: null, ...(again ? { message: 'the server asked again for what auto mode answered; answer by hand' } : {}) });
      set({ preview: preview(nextId()), ...(again ? { message: s.message } : {}) });
      if (!found || pending.length > 0) return s;
      if (Object.keys(reading.inputRequests).length === 0) await sleep(opts.stateOnlyDelayMs ?? 250);
      const p = s.preview!;
      r = await transmit(p.request, p.id, r.index, { matched: found.matched });
    }
  }

  /** Auto answers for round r: per-depth lists as given; a pooled list never re-uses, by
   *  kind, an answer already spent on an earlier round of the same branch. */
  function autoAnswers(r: StepRound, source: AutoSource): AutoAnswers {
    const reading = r.reading as Extract<RoundReading, { kind: 'input_required' }>;
    if (typeof source === 'function') return answerAll(reading.inputRequests, source({ depth: r.depth, inputRequests: reading.inputRequests }));
    const spent = new Set<string>();
    for (let p: StepRound | undefined = r; p; p = p.parent === null ? undefined : s.rounds[p.parent]) {
      for (const m of Object.values(p.matched ?? {})) spent.add(m.from);
      const sent = sentResponses(p);
      for (const k of Object.keys(sent)) spent.add(k);
    }
    return answerAll(reading.inputRequests, source, spent);
  }

  function sameAnswersAsParent(r: StepRound, responses: Record<string, unknown>): boolean {
    if (r.parent === null || r.matched === undefined) return false;
    return JSON.stringify(sentResponses(r)) === JSON.stringify(responses);
  }

  return {
    get state() {
      return s;
    },
    async start(call) {
      if (s.status === 'sending') return refused('a request is already on its way');
      url = call.url;
      original = { body: call.request.body, headers: call.request.headers.map((h) => ({ ...h })) };
      if (typeof call.request.body.id === 'number') counter = Math.max(counter, call.request.body.id);
      s = { status: 'idle', rounds: [], current: null, inputRequests: null, pending: [], answers: {}, preview: null };
      const first = await transmit(toHttp(url, original), original.body.id, null, {});
      return settle(first);
    },
    answer(key, response) {
      if (s.status !== 'paused' || !s.inputRequests) return refused('nothing is waiting for an answer');
      const answers = { ...s.answers, [key]: structuredClone(response) };
      set({ answers, pending: s.pending.filter((q) => q.key !== key) });
      // A new answer regenerates the preview: hand edits are dropped, the id is kept.
      return set({ preview: preview(s.preview?.id ?? nextId()) });
    },
    editPreview(text) {
      if (!s.preview) return refused('there is no retry to edit');
      const parsed = parseDraft(text);
      const p: RetryPreview = { ...s.preview, text, edited: text !== s.preview.original };
      if (parsed.ok) delete p.error;
      else p.error = parsed.error;
      return set({ preview: p });
    },
    async send() {
      const p = s.preview;
      if (s.status !== 'paused' || !p || s.current === null) return refused('nothing to send: the session is not paused at a retry');
      let req = p.request;
      let id = p.id;
      if (p.edited) {
        const parsed = parseDraft(p.text);
        if (!parsed.ok) return refused(`the edited retry cannot be sent: ${parsed.error.message} (line ${parsed.error.line}, column ${parsed.error.column})`);
        req = { ...req, body: parsed.body, headers: parsed.headers ?? req.headers };
        id = parsed.message.id;
      }
      const round = await transmit(req, id, s.current, { edited: p.edited });
      return settle(round);
    },
    async fork(roundIndex, answers) {
      const target = s.rounds[roundIndex];
      if (s.status === 'sending') return refused('a request is already on its way');
      if (!target || target.parent === null || !original) return refused('only a retry (a round after the first) can be forked');
      const parent = s.rounds[target.parent];
      if (parent.reading.kind !== 'input_required') return refused('the round before it did not ask for input');
      const id = nextId();
      const built = buildRetry(original, parent.reading.result, answers, id);
      const round = await transmit(toHttp(url, built), id, parent.index, { forkOf: roundIndex });
      return settle(round);
    },
    select(roundIndex) {
      const r = s.rounds[roundIndex];
      if (s.status === 'sending') return refused('a request is already on its way');
      if (!r || r.reading.kind !== 'input_required') return refused('only a round that asked for input can be continued');
      const pending = Object.entries(r.reading.inputRequests).map(([key, request]) => ({ key, request, kind: inputKind(request) }));
      set({ status: 'paused', current: roundIndex, inputRequests: r.reading.inputRequests, pending, answers: {}, preview: null });
      return set({ preview: preview(nextId()) });
    },
    setAuto(next) {
      auto = next;
    },
    records: () => s.rounds.map((r) => r.record),
    branches() {
      const parents = new Set(s.rounds.map((r) => r.parent));
      return s.rounds.filter((r) => !parents.has(r.index)).map((leaf) => {
        const path: number[] = [];
        for (let r: StepRound | undefined = leaf; r; r = r.parent === null ? undefined : s.rounds[r.parent]) path.unshift(r.index);
        return { leaf: leaf.index, path, status: leaf.reading.kind };
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}


/** The inputResponses a round's request carried ({} when none or unreadable). */
function sentResponses(r: StepRound): Record<string, unknown> {
  try {
    const ir = (JSON.parse(r.request.body) as { params?: { inputResponses?: unknown } }).params?.inputResponses;
    return ir && typeof ir === 'object' && !Array.isArray(ir) ? (ir as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
