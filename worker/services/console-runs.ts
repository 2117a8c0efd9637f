// The Console's other sends, held in the analysis worker: edit-and-resend of a captured
// request, the tamper tests on a round that carries a token, and session replay. Each
// hands its traffic to `persist` as console records linked (derivedFrom) to what they
// re-enact; the page only renders the views.
import type { Analysis } from '../analysis.js';
import type { ExchangeRecord } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';
import {
  builtFromRecord, createStepper, diffDraft, newRunId, draftWithId, explainSendFailure, freshRequestId, encodeHeaderValue, parseDraft, planReplay, planTamperTests, resend as resendRecord, resendDraft as draftOf,
  runAllTamperTests, runReplay, runTamperPlan, summarize, withoutMrtrFields,
  type DraftChange, type DraftError, type TamperPlan, type TamperResult, type TamperSubject, type TamperTest, type Transport,
} from '../console/index.js';
import { credentialsNotice } from '../console/replay-report.js';
import { proxyError } from '../console/exchange.js';
import type { ReplayChangeView, ReplayOutcomeView, ReplayView, ResendDraftView, ResendView, TamperTestView, TamperView } from '../view/console-types.js';

export type Persist = (records: ExchangeRecord[]) => Promise<string | null>;

/** The editable draft of a captured request: header lines, a blank line, the JSON body. */
export function resendDraft(record: ExchangeRecord): ResendDraftView | { error: string } {
  const d = draftOf(record);
  if ('error' in d) return d;
  // A fresh id by default, as a real client's new request has; the captured one stays a
  // click away (keep-old-id), and the diff shows the change.
  const parsed = parseDraft(d.original);
  const captured = parsed.ok ? parsed.message.id : null;
  const fresh = freshRequestId(captured);
  const text = (captured !== null ? draftWithId(d.original, fresh) : null) ?? d.original;
  return { text, original: d.original, url: d.url, from: d.from, ids: { captured: captured as string | number | null, fresh } };
}

/** The draft with its body's id set (keep-old-id and back); null when it does not parse. */
export function resendWithId(text: string, id: string | number): string | null {
  return draftWithId(text, id);
}

/** Where an edited draft cannot be sent, and the changes against the original. */
export function checkDraft(original: string, text: string): { error: DraftError | null; changes: DraftChange[] } {
  const parsed = parseDraft(text);
  return { error: parsed.ok ? null : parsed.error, changes: diffDraft(original, text) };
}

/** What the page sends a draft with: where to, what it was made from, whether the URL was
 *  changed by hand (`moved`), and the fresh id it offered (`fresh`) when the draft went with it. */
export interface ResendTarget { url: string; from: string; original: string; moved?: boolean; fresh?: string | number }

/**
 * Sends an edited draft of `from` to `url`; the new exchange is linked to the original. When
 * it went with the fresh id the page offered, the answer carries the draft with the next
 * fresh id: every send of one panel is a new request, as a real client's would be.
 */
export async function resend(draft: ResendTarget, text: string, send: Transport, persist: Persist): Promise<ResendView | { error: DraftError }> {
  const r = await resendRecord(draft, text, send, { seq: 0 });
  if (!r.ok) return { error: r.error };
  let next: ResendView['next'];
  if (draft.fresh !== undefined && r.id === draft.fresh) {
    const id = freshRequestId(draft.fresh);
    const nextText = draftWithId(text, id);
    if (nextText !== null) next = { id, text: nextText };
  }
  const session = (await persist([r.record])) ?? '';
  const reading = r.reading;
  const answer = reading.kind === 'failed' ? reading.message : JSON.stringify(reading.kind === 'error' ? { error: reading.error } : reading.result, null, 2);
  const status = r.record.response?.status ?? 0;
  // Status 0 is no answer at all: say what happened and what to do, not "HTTP 0".
  // A proxy's own answer (the relay's 502) names the cause: show it, not "no answer to id".
  const cause = reading.kind === 'failed' && status > 0 ? proxyError(r.record.response?.body) : null;
  const summary = cause ?? (reading.kind === 'failed' && status === 0 ? explainSendFailure(reading.message, draft.url) : summarize(reading));
  return { status, summary, answer, recordId: r.record.id, derivedFrom: draft.from, session, ...(next !== undefined ? { next } : {}) };
}

function view(r: TamperResult): TamperTestView {
  const v: TamperTestView = { test: r.test, label: r.label, state: r.status, detail: r.detail };
  if (r.verdict !== undefined) v.verdict = r.verdict;
  if (r.rule !== undefined) v.rule = r.rule;
  if (r.unchanged) v.unchanged = true;
  if (r.sent) v.sent = r.sent;
  if (r.answers) v.answers = r.answers;
  if (r.schedule) Object.assign(v, { expiresAt: r.schedule.expiresAt, sendAt: r.schedule.sendAt });
  return v;
}

/** The tamper tests of one subject; results kept per test, the last "run all" as a report. */
export class ConsoleTamper {
  #subject: TamperSubject | null = null;
  #label = '';
  #plans = new Map<TamperTest, TamperPlan>();
  #tests: TamperTestView[] = [];
  #report: TamperView['report'] = null;
  #session: string | null = null;
  /** The run every send about this subject belongs to (the foreign-token call, each test, run all), so they are one group. */
  #run = newRunId();
  readonly #persist: Persist;

  constructor(persist: Persist) {
    this.#persist = persist;
  }

  /**
   * Plans the tests for a subject. When another target is named, one fresh call to it
   * fetches a token issued to another chain (for "present another chain's token").
   */
  async setSubject(subject: TamperSubject, label: string, send: Transport): Promise<TamperView> {
    let s = subject;
    this.#run = newRunId();
    if (s.otherTarget && s.foreignToken === undefined) {
      const other = withoutMrtrFields({ ...s.request, body: { ...s.request.body, method: s.otherTarget.method ?? s.request.body.method, params: { ...s.otherTarget.params, _meta: s.request.body.params._meta } } }, `foreign-${Date.now().toString(36)}`);
      const name = s.otherTarget.params.name ?? s.otherTarget.params.uri;
      const headers = other.headers.filter((h) => !/^mcp-param-/i.test(h.name))
        .map((h) => (h.name.toLowerCase() === 'mcp-name' && typeof name === 'string' ? { ...h, value: encodeHeaderValue(name) } : h));
      const st = await createStepper({ send, origin: { kind: 'tamper', run: this.#run } }).start({ url: s.url, request: { ...other, headers } });
      await this.#keep(st.rounds.map((r) => r.record));
      const first = st.rounds[0]?.reading;
      if (first?.kind === 'input_required' && first.requestState !== undefined) s = { ...s, foreignToken: first.requestState };
    }
    this.#subject = s;
    this.#label = label;
    this.#report = null;
    const { plans, notRun } = planTamperTests(s);
    this.#plans = new Map(plans.map((p) => [p.test, p]));
    this.#tests = [
      ...plans.map((p): TamperTestView => ({ test: p.test, label: p.label, state: 'ready', detail: p.schedule ? `the token expires at ${p.schedule.expiresAt}` : 'not run yet',
        ...(p.schedule ? { expiresAt: p.schedule.expiresAt, sendAt: p.schedule.sendAt } : {}) })),
      ...notRun.map(view),
    ];
    return this.view();
  }

  /** Runs one test. after-expiry runs only once its time has come, or, with `wait`, waits here for it. */
  async run(test: TamperTest, send: Transport, wait = false): Promise<TamperView> {
    const plan = this.#plans.get(test);
    if (!plan || !this.#subject) return this.view();
    this.#set({ ...this.#find(test)!, state: wait ? 'waiting' : 'running' });
    const r = await runTamperPlan(plan, send, { waitForSchedule: wait, run: this.#run, ...(this.#subject.recordId !== undefined ? { derivedFrom: this.#subject.recordId } : {}) });
    await this.#keep(r.records);
    this.#set(view(r.result));
    // A plan's ids are spent once sent: plan again so a re-run sends fresh ids.
    const again = planTamperTests(this.#subject).plans.find((p) => p.test === test);
    if (again) this.#plans.set(test, again);
    return this.view();
  }

  /** Runs every test (after-expiry is reported as scheduled unless its time has come) and keeps the report. */
  async runAll(send: Transport): Promise<TamperView> {
    if (!this.#subject) return this.view();
    const { report, records } = await runAllTamperTests(this.#subject, send, { run: this.#run });
    await this.#keep(records);
    this.#report = report;
    for (const r of report.results) this.#set(view(r));
    this.#plans = new Map(planTamperTests(this.#subject).plans.map((p) => [p.test, p]));
    return this.view();
  }

  view(): TamperView {
    return { subject: this.#label, url: this.#subject?.url ?? '', tests: this.#tests.map((t) => ({ ...t })), report: this.#report, session: this.#session };
  }

  #find(test: TamperTest): TamperTestView | undefined {
    return this.#tests.find((t) => t.test === test);
  }

  #set(v: TamperTestView): void {
    this.#tests = this.#tests.map((t) => (t.test === v.test ? v : t));
  }

  async #keep(records: ExchangeRecord[]): Promise<void> {
    if (records.length) this.#session = (await this.#persist(records)) ?? this.#session;
  }
}

/** How the page opts in to sending credentials to another origin (the replay panel's checkbox). */
export const PAGE_SEND_CREDENTIALS = 'tick "Send captured credentials" to send them';

/**
 * Replays the conversations (all, or the ids given) against `target`; the traffic goes to a
 * session of its own. Captured credentials go only to the recording's origin unless `sendCredentials`.
 */
export async function replaySession(analysis: Analysis, opts: { conversations?: string[]; target: string; ignore: string[]; send: Transport; sendCredentials?: boolean },
  persistAs: (records: ExchangeRecord[]) => Promise<{ id: string; name: string } | null>): Promise<ReplayView> {
  const plan = planReplay(analysis, opts.conversations ? { conversations: opts.conversations } : {});
  const run = await runReplay(plan, { target: opts.target, send: opts.send, ignore: opts.ignore, sendCredentials: opts.sendCredentials === true });
  const notice = credentialsNotice(run, PAGE_SEND_CREDENTIALS);
  const session = run.records.length ? await persistAs(run.records) : null;
  return {
    target: run.target, ignore: run.ignore, outcomes: run.outcomes.map(withValues), skipped: run.skipped, summary: run.summary,
    ...(run.unreachable ? { unreachable: run.unreachable } : {}), credentialsWithheld: run.credentialsWithheld, ...(notice ? { credentialsNotice: notice } : {}),
    session, exchanges: run.records.length,
  };
}

// The diff carries values as JSON text (the CLI prints it); the page draws an object or an
// array as a tree, so the parsed value goes along for those.
function branchValue(text: string | undefined): unknown {
  if (text === undefined || (text[0] !== '{' && text[0] !== '[')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function withValues(o: ReplayView['outcomes'][number]): ReplayOutcomeView {
  return {
    ...o,
    changes: o.changes.map((c): ReplayChangeView => {
      const before = branchValue(c.before);
      const after = branchValue(c.after);
      return { ...c, ...(before !== undefined ? { beforeValue: before } : {}), ...(after !== undefined ? { afterValue: after } : {}) };
    }),
  };
}

/** The `inputResponses` of a captured request, for a tamper subject's answers. */
export function sentResponses(record: ExchangeRecord | undefined): Record<string, unknown> | undefined {
  if (!record) return undefined;
  return asObject(own(builtFromRecord(record)?.body.params, 'inputResponses'));
}
