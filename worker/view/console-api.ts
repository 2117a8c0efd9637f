// The Console side of the analysis worker's facade: step-through calls, edit and re-send,
// tamper tests and session replay. Its sends go out through the page's fetch (registered
// once as a comlink-proxied transport), so the service worker taps them like any traffic.
//
// Each send is stored once, never a second copy beside the tapped one. Every send carries a
// link (its record id, the session it belongs in, what it re-enacts); the tap files it
// under that link and the transport says so (`tapped`). `keep` then writes the Console's
// own copy only for sends the tap did not store. Step-through, forks, edit-and-resend,
// tamper tests and the catalog go to the capture session, as any traffic to a watched
// server; a replay to a session of its own.
//
// Race, written down: the tap's record and ours share one id, so they can never be two.
// The page's transport returns only after the tap's last write committed (`stored`), or
// after it gave up waiting; only then does `keep` write, with mergeExchanges: an unknown id
// is added, a tap copy left `pending` (its service worker stopped) is superseded, a final
// one stands. The one leftover: a tap slower than the page's wait (15 s) whose first write
// lands after ours fails its add (the page reports that capture as not saved) and ours
// stands; a retry of the tap's copy writes the same id again, still one record.
import type { ExchangeRecord } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import {
  consoleRecord, DEFAULT_IGNORE, newRecordId, tamperReportJson, tamperReportMarkdown, tamperSubjectFromRecords, tamperSubjectFromStep,
  type FieldValue, type FormModel, type TamperTest, type Transport,
} from '../console/index.js';
import { loadCatalog } from './console-catalog.js';
import { checkForm, ConsoleStep } from './console-step.js';
import { checkDraft, ConsoleTamper, replaySession, resend, resendDraft, resendWithId, sentResponses } from './console-runs.js';
import type { CallSpec, ClientSetup, ReplayView, ResendDraftView, ServerCatalog, StepView, TamperView } from './console-types.js';
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
  let transport: Transport | null = null;
  // Where each linked send was filed and whether the tap stored it, until `keep` reads it.
  const filed = new Map<string, { session: string; stored: boolean }>();
  const captureSession = async () => (await store.currentSession()).id;

  /** The page's transport for one kind of send: links each request into `session()`. */
  function sender(session: () => Promise<string>): Transport {
    return async (req) => {
      if (!transport) throw new Error('the page has not registered its transport (consoleTransport)');
      const link = { ...(req.link ?? { id: newRecordId() }) };
      link.session ??= await session();
      // Noted before sending: a send whose transport throws is still kept, in its session.
      filed.set(link.id, { session: link.session, stored: false });
      const res = await transport({ ...req, link });
      if (res.tapped?.stored === true && res.tapped.id === link.id) filed.set(link.id, { session: link.session, stored: true });
      return { ...res, recordId: link.id };
    };
  }
  const send = sender(captureSession);

  /** Files Console records (see above); resolves to the session of the last one. */
  async function keep(records: readonly ExchangeRecord[]): Promise<string | null> {
    const groups = new Map<string, { own: ExchangeRecord[]; ids: string[] }>();
    let last: string | null = null;
    for (const r of records) {
      const f = filed.get(r.id);
      filed.delete(r.id);
      const session = f?.session ?? (await captureSession());
      const g = groups.get(session) ?? { own: [], ids: [] };
      groups.set(session, g);
      if (!f?.stored) g.own.push(r);
      g.ids.push(r.id);
      last = session;
    }
    for (const [session, g] of groups) {
      if (g.own.length) await store.mergeExchanges(session, g.own);
      // A session the worker holds in memory gets the stored copies (the tap's or ours);
      // one it does not hold reads them from storage when first shown.
      const m = sessions.get(session);
      if (!m) continue;
      const stored = await Promise.all(g.ids.map((id) => store.getExchange(id)));
      (await m).put(stored.filter((x): x is StoredExchange => x?.session === session));
    }
    return last;
  }

  const step = new ConsoleStep(keep);
  const tamper = new ConsoleTamper(keep);
  let consoleIds = 0;

  return {
    /** The page's fetch as the Console's transport (a comlink proxy), so the service worker taps every send. */
    consoleTransport(t: Transport): void {
      transport = t;
    },

    /** `server/discover` and the lists of tools, prompts, resources and templates. */
    async consoleCatalog(url: string, setup: ClientSetup): Promise<ServerCatalog> {
      const records: ExchangeRecord[] = [];
      const cat = await loadCatalog(url, setup, send, (req, res) => records.push(consoleRecord(req, res, { id: newRecordId(), seq: 0 })));
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
        const conversations = opts.filter ? listOf(b, opts.filter).items.map((c) => c.id) : undefined;
        // The replay's session is made at its first send (the link names it), so a replay
        // that sends nothing leaves no empty session behind.
        let made: Promise<{ id: string; name: string }> | null = null;
        const own = () => (made ??= store.createSession(`Replay → ${opts.target}`));
        const replaySend = sender(async () => (await own()).id);
        return replaySession(b.analysis, { target: opts.target, ignore: opts.ignore, send: replaySend, sendCredentials: opts.sendCredentials === true, ...(conversations ? { conversations } : {}) },
          async (records) => {
            await keep(records);
            const s = await own();
            return { id: s.id, name: s.name };
          });
      });
    },
  };
}
