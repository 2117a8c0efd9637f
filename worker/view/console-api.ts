// The Console side of the analysis worker's facade: step-through calls, edit and re-send,
// tamper tests and session replay. Its sends go out through the page's fetch (registered
// once as a comlink-proxied transport), so the service worker taps them like any traffic.
//
// Each send is stored once, never a second copy beside the tapped one, and nothing waits
// for the tap. Before a send leaves, its record is saved as `pending` under its link id (in
// the session the link names) and shown at once. The tap reads the link header and fills
// in that same record (storage fillExchange: same id, same seq); the transport says the
// send was taken (`tapped`). `keep` then lays the Console's own finished copy into the
// worker's session (it shows as soon as the answer is in) and writes it to storage only
// when the tap did not take the send. Step-through, forks, edit-and-resend, tamper tests
// and the catalog go to the capture session, as any traffic to a watched server; a replay
// to a session of its own.
//
// Race, written down: the tap's copy and ours share one id, so they can never be two. An
// untaken send's copy is merged (an unknown id is added, a `pending` or `streaming` one is
// superseded, a final one stands); the tap, when it took the send after all (its answer
// could not be marked), never changes a record that is already final, so its events are
// never folded in twice. The tap's final copy, once written, replaces ours in the session
// held here (view/capture-owner.ts). A service worker stopped mid-send leaves a taken
// send `pending` in storage (the session here still shows our finished copy until reload).
import { PROTOCOL_VERSION, type ConsoleOrigin, type ExchangeRecord } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import {
  consoleRecord, DEFAULT_IGNORE, linkOrigin, newRecordId, newRunId, originOfLink, tamperReportJson, tamperReportMarkdown, tamperSubjectFromRecords, tamperSubjectFromStep,
  type FieldValue, type FormModel, type SendLink, type TamperTest, type Transport,
} from '../console/index.js';
import { loadCatalog } from './console-catalog.js';
import { checkForm, ConsoleStep } from './console-step.js';
import { ConsoleTask } from './console-task.js';
import { checkDraft, ConsoleTamper, replaySession, resend, resendDraft, resendWithId, sentResponses } from './console-runs.js';
import type { CallSpec, ClientSetup, ReplayView, ResendDraftView, ServerCatalog, StepView, TamperView, TaskView } from './console-types.js';
import type { SessionModel } from './session-model.js';
import { searchedList, withBodies } from './body-reads.js';
import type { Answer } from './types.js';

/** What the Console needs from the facade: storage, the session models and their analyses. */
export interface ConsoleDeps {
  store: CaptureStore;
  sessions: Map<string, Promise<SessionModel>>;
  builtOf: (session: string) => ReturnType<SessionModel['built']>;
  guard: <T>(fn: () => Promise<T>) => Promise<Answer<T>>;
  safeName: (name: string) => string;
  /** Lays records into the worker's sessions (view/capture-owner.ts). */
  apply: (records: readonly StoredExchange[]) => Promise<void>;
}

/** The Console methods the facade exposes next to its own. */
export function createConsoleApi({ store, builtOf, guard, safeName, apply }: ConsoleDeps) {
  let transport: Transport | null = null;
  // Where each linked send was filed, its seq, and whether the tap took it, until `keep` reads it.
  const filed = new Map<string, { session: string; seq: number; tapped: boolean }>();
  const captureSession = async () => (await store.currentSession()).id;

  // The record a send is filed under, saved before it leaves; null when storage refused it
  // (the send still goes, and `keep` tries to store the finished copy).
  async function savePending(req: Parameters<Transport>[0], link: SendLink & { session: string }): Promise<number> {
    const origin = originOfLink(link);
    const pending: ExchangeRecord = {
      v: PROTOCOL_VERSION, id: link.id, seq: 0, source: 'console', startedAt: Date.now(), state: 'pending',
      request: { method: req.method, url: req.url, headers: req.headers.map((h) => ({ ...h })), body: req.body },
      ...(link.derivedFrom !== undefined ? { derivedFrom: link.derivedFrom } : {}),
      ...(origin !== undefined ? { origin } : {}),
    };
    try {
      const [stored] = await store.mergeExchanges(link.session, [pending]);
      if (stored) await apply([stored]);
      return stored?.seq ?? 0;
    } catch {
      return 0;
    }
  }

  /** The page's transport for one kind of send: links each request into `session()`. */
  function sender(session: () => Promise<string>): Transport {
    return async (req) => {
      if (!transport) throw new Error('the page has not registered its transport (consoleTransport)');
      const link = { ...(req.link ?? { id: newRecordId() }) };
      const into = link.session ?? (await session());
      link.session = into;
      // Noted before sending: a send whose transport throws is still kept, in its session.
      const seq = await savePending(req, { ...link, session: into });
      filed.set(link.id, { session: into, seq, tapped: false });
      const res = await transport({ ...req, link });
      if (res.tapped?.id === link.id) filed.set(link.id, { session: into, seq, tapped: true });
      return { ...res, recordId: link.id };
    };
  }
  const send = sender(captureSession);

  /** Files Console records (see above); resolves to the session of the last one. */
  async function keep(records: readonly ExchangeRecord[]): Promise<string | null> {
    const groups = new Map<string, { own: ExchangeRecord[]; taken: StoredExchange[] }>();
    let last: string | null = null;
    for (const r of records) {
      const f = filed.get(r.id);
      filed.delete(r.id);
      const session = f?.session ?? (await captureSession());
      const g = groups.get(session) ?? { own: [], taken: [] };
      groups.set(session, g);
      if (f?.tapped) g.taken.push({ ...r, v: PROTOCOL_VERSION, seq: f.seq, session });
      else g.own.push(r);
      last = session;
    }
    for (const [session, g] of groups) {
      // Taken by the tap: storage gets its copy; the session here shows ours meanwhile.
      if (g.taken.length) await apply(g.taken);
      if (g.own.length) await apply(await store.mergeExchanges(session, g.own));
    }
    return last;
  }

  const step = new ConsoleStep(keep, {
    load: () => store.getSetting('consoleAnswers'),
    save: (entries) => store.setSetting('consoleAnswers', entries),
  });
  const tamper = new ConsoleTamper(keep);
  const task = new ConsoleTask(keep);
  let consoleIds = 0;

  return {
    /** The page's fetch as the Console's transport (a comlink proxy), so the service worker taps every send. */
    consoleTransport(t: Transport): void {
      transport = t;
    },

    /** `server/discover` and the lists of tools, prompts, resources and templates. */
    async consoleCatalog(url: string, setup: ClientSetup): Promise<ServerCatalog> {
      const records: ExchangeRecord[] = [];
      // The catalog calls of one connect are one discovery run.
      const origin: ConsoleOrigin = { kind: 'discovery', run: newRunId() };
      const discover: Transport = (req) => send({ ...req, link: { id: newRecordId(), ...linkOrigin(origin) } });
      const cat = await loadCatalog(url, setup, discover, (req, res) => records.push(consoleRecord(req, res, { id: newRecordId(), seq: 0, origin })));
      await keep(records);
      return cat;
    },

    /** Starts a step-through call; it pauses at each input_required. */
    consoleStart(spec: CallSpec): Promise<StepView> {
      return step.start(spec, send, ++consoleIds * 1000);
    },
    consoleView(): StepView { return step.view(); },
    consoleAnswer(key: string, response: Record<string, unknown>): Promise<StepView> { return step.answer(key, response); },
    consoleEditPreview(text: string): Promise<StepView> { return step.editPreview(text); },
    consoleSend(): Promise<StepView> { return step.send(); },
    consoleFork(round: number, answers: Record<string, Record<string, unknown>>): Promise<StepView> { return step.fork(round, answers); },
    consoleForkQuestions(round: number) { return step.forkQuestions(round); },
    consoleAuto(on: boolean): Promise<StepView> { return step.setAuto(on); },
    /** Forgets auto mode's remembered answers (in memory and in storage). */
    consoleForgetAnswers(): Promise<StepView> { return step.forgetAnswers(); },
    /** Calls a tool as a task (tasks extension declared); then poll, answer, submit, cancel, key tests. */
    consoleTaskStart(spec: CallSpec): Promise<TaskView> { return task.start(spec, send, ++consoleIds * 1000); },
    /** One tasks/get (no sooner than pollIntervalMs after the last), or polls until the task asks or ends. */
    consoleTaskPoll(untilSettled: boolean): Promise<TaskView> { return task.poll(untilSettled); },
    consoleTaskAnswer(key: string, response: Record<string, unknown>): Promise<TaskView> { return task.answer(key, response); },
    consoleTaskSubmit(): Promise<TaskView> { return task.submit(); },
    consoleTaskCancel(): Promise<TaskView> { return task.cancel(); },
    consoleTaskKeyTest(kind: 'twice' | 'unknown' | 'reuse'): Promise<TaskView> { return task.keyTest(kind); },
    consoleTaskView(): TaskView { return task.view(); },
    /** Validates an elicitation form; with no errors, the ElicitResult to send. */
    consoleCheckForm(form: FormModel, values: Record<string, FieldValue>) { return checkForm(form, values); },

    /** The editable draft of a captured request. */
    async resendDraft(id: string): Promise<ResendDraftView | { error: string }> {
      const r = await store.getExchange(id);
      return r ? resendDraft(r) : { error: 'that exchange is no longer stored' };
    },
    /** The draft with its JSON-RPC id set (the keep-old-id switch); null when it does not parse. */
    resendWithId(text: string, id: string | number) { return resendWithId(text, id); },
    resendCheck(original: string, text: string) { return checkDraft(original, text); },
    /** Sends an edited draft through the page; the new exchange is derived from the original. */
    resend(draft: { url: string; from: string; original: string }, text: string) { return resend(draft, text, send, keep); },

    /** Tamper tests on step-through round `round` (its answer issued the token). */
    async tamperFromStep(round: number, other?: { params: Record<string, unknown> }): Promise<TamperView | { error: string }> {
      const st = step.state;
      if (!st) return { error: 'start a call first' };
      const subject = tamperSubjectFromStep(st, round, step.url, other ? { otherTarget: other } : {});
      if ('error' in subject) return subject;
      return tamper.setSubject(subject, `round #${round + 1} of the Console call`, send);
    },
    /** Tamper tests on a captured round (and the retry that followed it, for its answers). */
    async tamperFromCapture(roundId: string, retryId: string | null, other?: { params: Record<string, unknown> }): Promise<TamperView | { error: string }> {
      const round = await store.getExchange(roundId);
      const retry = retryId ? await store.getExchange(retryId) : undefined;
      if (!round) return { error: 'that exchange is no longer stored' };
      const subject = tamperSubjectFromRecords(round, retry, other ? { otherTarget: other } : {});
      if ('error' in subject) return subject;
      if (retry && !sentResponses(retry)) subject.inputResponses = {};
      return tamper.setSubject(subject, `captured exchange ${round.seq}`, send);
    },
    tamperRun(test: TamperTest, wait = false): Promise<TamperView> { return tamper.run(test, send, wait); },
    tamperRunAll(): Promise<TamperView> { return tamper.runAll(send); },
    tamperView(): TamperView { return tamper.view(); },
    tamperExport(format: 'json' | 'md'): { text: string; fileName: string } | null {
      const r = tamper.view().report;
      if (!r) return null;
      return { text: format === 'json' ? tamperReportJson(r) : tamperReportMarkdown(r), fileName: `tamper-report-${safeName(r.name ?? r.method)}.${format === 'json' ? 'json' : 'md'}` };
    },

    replayDefaults(): string[] { return [...DEFAULT_IGNORE]; },
    /** Replays the session (or its filtered conversations) against `target`; the replay is a session of its own. */
    replay(session: string, opts: { target: string; ignore: string[]; filter?: string; sendCredentials?: boolean }): Promise<Answer<ReplayView>> {
      return guard(async () => {
        const b = await builtOf(session);
        const conversations = opts.filter ? (await searchedList(b, opts.filter)).items.map((c) => c.id) : undefined;
        // The replay's session is made at its first send (the link names it), so a replay
        // that sends nothing leaves no empty session behind.
        let made: Promise<{ id: string; name: string }> | null = null;
        const own = () => (made ??= store.createSession(`Replay → ${opts.target}`));
        const replaySend = sender(async () => (await own()).id);
        return replaySession(await withBodies(b), { target: opts.target, ignore: opts.ignore, send: replaySend, sendCredentials: opts.sendCredentials === true, ...(conversations ? { conversations } : {}) },
          async (records) => {
            await keep(records);
            const s = await own();
            return { id: s.id, name: s.name };
          });
      });
    },
  };
}
