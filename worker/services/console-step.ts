// The Console's step-through, held in the analysis worker: one stepper at a time over the
// page's transport, turned into views the page renders without parsing anything (form
// models, sampling and roots drafts, the preview's diff). Its records are handed to
// `persist`, which files them where the sends were linked to (the capture session).
import type { ExchangeRecord } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';
import {
  buildRequest, capabilitiesFrom, createStepper, diffDraft, elicitResult, formFromSchema, initialValues, inputKind, rootsDraft, samplingDraft, summarize, validateForm, validateRoots,
  type FieldValue, type FormCheck, type FormModel, type InputRequest, type SavedAnswer, type Stepper, type StepperState, type Transport,
} from '../console/index.js';
import { AnswerMemory, callTargetKey, type StoredAnswer } from '../console/answer-memory.js';
import { needsTasksExtension } from '../console/task-request.js';
import type { CallSpec, QuestionView, StepView } from '../view/console-types.js';

/** One question of an input request, with what the page needs to render its editor. */
export function questionView(key: string, request: InputRequest, answer?: Record<string, unknown>): QuestionView {
  const kind = inputKind(request);
  const p = request.params;
  const message = typeof own(p, 'message') === 'string' ? (own(p, 'message') as string) : null;
  const q: QuestionView = { key, kind, method: request.method, message, ...(answer ? { answer } : {}) };
  if (kind === 'elicitation-form') {
    q.form = formFromSchema(own(p, 'requestedSchema'), message ?? undefined);
    const given = asObject(own(answer, 'content'));
    q.values = { ...initialValues(q.form), ...(given as Record<string, FieldValue> | undefined) };
  } else if (kind === 'elicitation-url') {
    q.url = typeof own(p, 'url') === 'string' ? (own(p, 'url') as string) : '';
  } else if (kind === 'sampling') {
    q.draft = JSON.stringify(answer ?? samplingDraft(p), null, 2);
  } else if (kind === 'roots') {
    q.draft = JSON.stringify(answer ?? rootsDraft([{ uri: 'file:///workspace', name: 'workspace' }]), null, 2);
  } else {
    q.draft = JSON.stringify(answer ?? {}, null, 2);
  }
  return q;
}

/** Checks a form's values; with no errors, the ElicitResult to send. */
export function checkForm(form: FormModel, values: Record<string, FieldValue>): FormCheck & { result?: Record<string, unknown> } {
  const check = validateForm(form, values);
  return check.ok ? { ...check, result: elicitResult('accept', check.content) } : check;
}

/**
 * Why answers cannot be sent, or null: a roots answer must be a valid ListRootsResult
 * (validateRoots). Elicitation forms are checked by checkForm before they become answers;
 * sampling replies are the user's to shape, as in the preview editor.
 */
export function refuseAnswers(asked: Record<string, InputRequest> | null | undefined, answers: Record<string, unknown>): string | null {
  const problems: string[] = [];
  for (const [key, response] of Object.entries(answers)) {
    if (inputKind(asked?.[key]) !== 'roots') continue;
    const found = validateRoots(response);
    if (found.length > 0) problems.push(`the roots answer to "${key}" was not used: ${found.join('; ')}`);
  }
  return problems.length > 0 ? `${problems.join('. ')}. Fix the list and use it again.` : null;
}

/** Where auto mode's answers are kept across reloads (IndexedDB settings, through the one storage module). */
export interface AnswerStore {
  load(): Promise<unknown>;
  save(entries: StoredAnswer[]): Promise<void>;
}

export class ConsoleStep {
  #stepper: Stepper | null = null;
  #url = '';
  #auto = false;
  #persisted = new Set<string>();
  readonly #persist: (records: ExchangeRecord[]) => Promise<string | null>;
  #session: string | null = null;
  /** Auto mode's answers from earlier calls, per call target; `#target` is the running call's. */
  readonly #memory = new AnswerMemory();
  #target = '';

  readonly #answers: AnswerStore | null;
  /** Stored answers read back; every call and auto switch waits for it. */
  readonly #loaded: Promise<void>;
  /** What was last written to the answer store, to write only on change. */
  #written = '';
  /** Rounds of the running call before this index were sent before a "forget". */
  #forgotFrom = 0;

  constructor(persist: (records: ExchangeRecord[]) => Promise<string | null>, answers?: AnswerStore) {
    this.#persist = persist;
    this.#answers = answers ?? null;
    // A store that cannot be read leaves auto mode with this visit's answers only.
    this.#loaded = Promise.resolve().then(() => this.#answers?.load()).then((e) => this.#memory.load(e), () => undefined);
  }

  /** Starts a call; pauses at the first input_required (or runs on, in auto mode). */
  async start(spec: CallSpec, send: Transport, id: number): Promise<StepView> {
    await this.#loaded;
    if (this.#stepper) this.#memory.remember(this.#target, this.#rounds());
    this.#forgotFrom = 0;
    this.#target = callTargetKey(spec.url, spec.method, spec.params);
    this.#url = spec.url;
    // The stepper links each send itself (record id, origin and, for a fork, the round it
    // forks), so the tap files it under the record the stepper makes.
    this.#stepper = createStepper({ send, auto: this.#auto ? this.#saved() : false });
    const request = buildRequest({
      method: spec.method, params: spec.params, id, clientInfo: spec.setup.clientInfo,
      capabilities: capabilitiesFrom(spec.setup.toggles), ...(spec.inputSchema !== undefined ? { inputSchema: spec.inputSchema } : {}),
    });
    return this.#after(await this.#stepper.start({ url: spec.url, request }));
  }

  answer(key: string, response: Record<string, unknown>): Promise<StepView> {
    const stepper = this.#need();
    const refused = refuseAnswers(stepper.state.inputRequests, { [key]: response });
    if (refused) return Promise.resolve({ ...this.view(), message: refused });
    return this.#after(stepper.answer(key, response));
  }

  editPreview(text: string): Promise<StepView> {
    return this.#after(this.#need().editPreview(text));
  }

  async send(): Promise<StepView> {
    return this.#after(await this.#need().send());
  }

  /** Re-sends retry `round` with other answers: a branch from the round before it. */
  async fork(round: number, answers: Record<string, Record<string, unknown>>): Promise<StepView> {
    const stepper = this.#need();
    const parent = stepper.state.rounds[stepper.state.rounds[round]?.parent ?? -1]?.reading;
    const refused = refuseAnswers(parent?.kind === 'input_required' ? parent.inputRequests : null, answers);
    if (refused) return { ...this.view(), message: refused };
    return this.#after(await stepper.fork(round, answers));
  }

  /** Auto mode: answers with the answers given so far in this session, stopping on new questions. */
  async setAuto(on: boolean): Promise<StepView> {
    await this.#loaded;
    this.#auto = on;
    this.#stepper?.setAuto(on ? this.#saved() : false);
    return this.#after(this.#stepper?.state ?? null);
  }

  /** The questions of the round before retry `round`, pre-filled with what that retry sent. */
  forkQuestions(round: number): QuestionView[] {
    const s = this.#stepper?.state;
    const r = s?.rounds[round];
    if (!s || !r || r.parent === null) return [];
    const parent = s.rounds[r.parent].reading;
    if (parent.kind !== 'input_required') return [];
    const sent = sentOf(r.request.body);
    return Object.entries(parent.inputRequests).map(([k, req]) => questionView(k, req, asObject(sent[k])));
  }

  /** The stepper's state, for tamper subjects. */
  get state(): StepperState | null { return this.#stepper?.state ?? null; }
  get url(): string { return this.#url; }

  view(): StepView {
    const v = toView(this.#stepper?.state ?? null, this.#url, this.#auto, this.#session, this.#stepper);
    if (this.#auto) v.questions = v.questions.map((q) => this.#prefill(q));
    return v;
  }

  /** Forgets auto mode's answers, here and in storage. */
  async forgetAnswers(): Promise<StepView> {
    await this.#loaded;
    this.#memory.clear();
    // The running call's answers so far go too.
    this.#forgotFrom = this.#stepper?.state.rounds.length ?? 0;
    await this.#save();
    return this.view();
  }

  // A question whose remembered answer came back from storage without its secret fields:
  // the kept values filled in, and the fields to type again named (they were not stored).
  #prefill(q: QuestionView): QuestionView {
    if (q.kind !== 'elicitation-form' || q.answer) return q;
    const p = this.#memory.partial(this.#target, q.key);
    if (!p) return q;
    const given = asObject(own(p.response, 'content')) as Record<string, FieldValue> | undefined;
    return { ...q, values: { ...q.values, ...given }, notRemembered: p.missing };
  }

  // Writes what auto mode would remember (secret fields out) when it changed.
  async #save(): Promise<void> {
    if (!this.#answers) return;
    const entries = this.#memory.stored(this.#stepper ? { target: this.#target, rounds: this.#rounds() } : undefined);
    const text = JSON.stringify(entries);
    if (text === this.#written) return;
    this.#written = text;
    try {
      await this.#answers.save(entries);
    } catch {
      // Storage full or blocked: answers are remembered for this visit only.
    }
  }

  // Auto mode's saved answers: those this call and earlier calls of the same target sent,
  // newest first, for the keys asked now only (a kind-and-position fallback would answer
  // "confirm" with the "name" form's answer: both are forms).
  #saved(): (ctx: { depth: number; inputRequests: Record<string, InputRequest> }) => SavedAnswer[] {
    return ({ inputRequests }) => this.#memory.recall(this.#target, inputRequests, this.#rounds());
  }

  // The running call's rounds as memory reads them: retries sent before a "forget" count as none.
  #rounds(): StepperState['rounds'] {
    return (this.#stepper?.state.rounds ?? []).map((r, i) => (i < this.#forgotFrom ? { ...r, parent: null } : r));
  }

  #need(): Stepper {
    if (!this.#stepper) throw new Error('no call started: start one first');
    return this.#stepper;
  }

  async #after(s: StepperState | null): Promise<StepView> {
    const fresh = (s?.rounds ?? []).map((r) => r.record).filter((r) => !this.#persisted.has(r.id));
    if (fresh.length) {
      for (const r of fresh) this.#persisted.add(r.id);
      this.#session = (await this.#persist(fresh)) ?? this.#session;
    }
    await this.#save();
    return this.view();
  }
}

function sentOf(body: string): Record<string, unknown> {
  try {
    return asObject(asObject(asObject(JSON.parse(body))?.params)?.inputResponses) ?? {};
  } catch {
    return {};
  }
}

function toView(s: StepperState | null, url: string, auto: boolean, session: string | null, stepper: Stepper | null): StepView {
  if (!s) return { status: 'idle', url, rounds: [], current: null, questions: [], pending: [], preview: null, branches: [], auto, session };
  const issued = (k: number) => { const x = s.rounds[k].reading; return x.kind === 'input_required' && typeof x.requestState === 'string'; };
  return {
    status: s.status, url, current: s.current, auto, session,
    rounds: s.rounds.map((r) => ({
      index: r.index, parent: r.parent, depth: r.depth, id: typeof r.id === 'string' || typeof r.id === 'number' ? r.id : null,
      kind: r.reading.kind, summary: summarize(r.reading), edited: r.edited, ...(r.forkOf !== undefined ? { forkOf: r.forkOf } : {}),
      recordId: r.record.id, requestBody: pretty(r.request.body), answer: readingText(r.reading), issuedToken: issued(r.index), retry: r.parent !== null,
    })),
    questions: s.inputRequests ? Object.entries(s.inputRequests).map(([k, req]) => questionView(k, req, s.answers[k])) : [],
    pending: s.pending.map((q) => q.key),
    preview: s.preview ? {
      text: s.preview.text, original: s.preview.original, edited: s.preview.edited,
      ...(s.preview.error ? { error: s.preview.error } : {}), changes: s.preview.edited ? diffDraft(s.preview.original, s.preview.text) : [],
    } : null,
    branches: stepper?.branches() ?? [],
    ...(s.message !== undefined ? { message: s.message } : s.rounds.some((r) => needsTasksExtension(r.reading)) ? { message: TASK_ONLY } : {}),
  };
}

// ▶ Call does not declare the tasks extension (it cannot poll a task); a tool that needs it says so.
const TASK_ONLY = 'The server runs this tool only as a task (-32021 naming io.modelcontextprotocol/tasks): use ▶ Call as task, which declares the extension and drives the task, MRTR rounds first if the tool asks.';

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function readingText(r: StepperState['rounds'][number]['reading']): string {
  switch (r.kind) {
    case 'complete': case 'input_required': return JSON.stringify(r.result, null, 2);
    case 'error': return JSON.stringify({ error: r.error }, null, 2);
    case 'failed': return r.message;
  }
}
