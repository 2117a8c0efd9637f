// The Console side of the analysis worker's facade: step-through calls, edit and re-send,
// tamper tests and session replay. Its sends go out through the page's fetch (registered
// once as a comlink-proxied transport), so the service worker taps them like any traffic.
import type { ExchangeRecord } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import {
  DEFAULT_IGNORE, tamperReportJson, tamperReportMarkdown, tamperSubjectFromRecords, tamperSubjectFromStep,
  type FieldValue, type FormModel, type TamperTest, type Transport,
} from '../console/index.js';
import { loadCatalog } from './console-catalog.js';
import { checkForm, ConsoleStep } from './console-step.js';
import { checkDraft, ConsoleTamper, replaySession, resend, resendDraft, sentResponses } from './console-runs.js';
import type { CallSpec, ClientSetup, ReplayView, ServerCatalog, StepView, TamperView } from './console-types.js';
import { listOf, SessionModel } from './session-model.js';
import type { Answer } from './types.js';

/** What the Console needs from the facade: storage, the session models and their analyses. */
export interface ConsoleDeps {
  store: CaptureStore;
  sessions: Map<string, Promise<SessionModel>>;
  builtOf: (session: string) => ReturnType<SessionModel['built']>;
  guard: <T>(fn: () => Promise<T>) => Promise<Answer<T>>;
  safeName: (name: string) => string;
}

/** The Console methods the facade exposes next to its own. */
export function createConsoleApi({ store, sessions, builtOf, guard, safeName }: ConsoleDeps) {
  // The Console's traffic as the Console saw it: console records (with derivedFrom links)
  // filed in a session named "Console", next to what the service worker tapped of the same
  // sends in the capture session. The transport is the page's fetch, registered once.
  let transport: Transport | null = null;
  const send: Transport = (req) => {
    if (!transport) throw new Error('the page has not registered its transport (consoleTransport)');
    return transport(req);
  };
  let consoleSession: { id: string; seq: number } | null = null;

  async function persistConsole(records: ExchangeRecord[]): Promise<string> {
    if (!consoleSession) {
      const found = (await store.listSessions()).find((x) => x.name === 'Console');
      const s = found ?? (await store.createSession('Console'));
      consoleSession = { id: s.id, seq: found ? await store.countExchanges(s.id) : 0 };
    }
    const c = consoleSession;
    const stored: StoredExchange[] = records.map((r) => ({ ...r, seq: c.seq++, session: c.id }));
    await store.putExchanges(stored);
    const m = sessions.get(c.id);
    if (m) (await m).put(stored);
    return c.id;
  }

  async function persistReplay(records: ExchangeRecord[], target: string): Promise<{ id: string; name: string }> {
    const s = await store.createSession(`Replay → ${target}`);
    const stored: StoredExchange[] = records.map((r, i) => ({ ...r, seq: i, session: s.id }));
    await store.putExchanges(stored);
    sessions.set(s.id, Promise.resolve(new SessionModel(stored)));
    return { id: s.id, name: s.name };
  }

  const step = new ConsoleStep(persistConsole);
  const tamper = new ConsoleTamper(persistConsole);
  let consoleIds = 0;

  return {
    /** The page's fetch as the Console's transport (a comlink proxy), so the service worker taps every send. */
    consoleTransport(t: Transport): void {
      transport = t;
    },

    /** `server/discover` and the lists of tools, prompts, resources and templates. */
    consoleCatalog(url: string, setup: ClientSetup): Promise<ServerCatalog> {
      return loadCatalog(url, setup, send);
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
    /** Validates an elicitation form; with no errors, the ElicitResult to send. */
    consoleCheckForm(form: FormModel, values: Record<string, FieldValue>) { return checkForm(form, values); },

    /** The editable draft of a captured request. */
    async resendDraft(id: string): Promise<{ text: string; url: string; from: string } | { error: string }> {
      const r = await store.getExchange(id);
      return r ? resendDraft(r) : { error: 'that exchange is no longer stored' };
    },
    resendCheck(original: string, text: string) { return checkDraft(original, text); },
    /** Sends an edited draft through the page; the new exchange is derived from the original. */
    resend(draft: { url: string; from: string; original: string }, text: string) { return resend(draft, text, send, persistConsole); },

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
    replay(session: string, opts: { target: string; ignore: string[]; filter?: string }): Promise<Answer<ReplayView>> {
      return guard(async () => {
        const b = await builtOf(session);
        const conversations = opts.filter ? listOf(b, opts.filter).items.map((c) => c.id) : undefined;
        return replaySession(b.analysis, { target: opts.target, ignore: opts.ignore, send, ...(conversations ? { conversations } : {}) },
          (records) => persistReplay(records, opts.target));
      });
    },
  };
}
