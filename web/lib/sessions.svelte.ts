// The capture sessions (live and imported), which one is on screen, and its newest raw
// exchanges (the Console's traffic list). The sessions belong to the analysis worker; this
// keeps the copies the page shows and re-reads them when the worker says they changed.
//
// Race, written down: changes arrive faster than a re-read of the view finishes (a relay
// backlog draining, a burst of calls). One refresh runs at a time; a change during a refresh
// schedules exactly one more, so the screen ends on the newest state without a queue of reads.
// A refresh whose worker died is dropped: the restarted worker's rebuild refreshes again.
//
// Most refreshes change no raw exchange (check progress changes findings, every 250 ms while a
// backlog is checked): the page hands the worker the mark of its copy and the worker answers
// "unchanged" without summaries; a changed page is merged in place (exchange-page.ts), so
// the table touches only the rows that changed.
import type { ExchangeSummary, SessionInfo } from '../../worker/facade.js';
import { AnalysisWorkerDied, type Calls } from './analysis-client.js';
import { keepUnchanged } from './exchange-page.js';

/** How many of the newest raw exchanges the Console's traffic list shows. */
export const LIST_LIMIT = 200;

/** The worker's calls this uses. */
export interface SessionsApi { readonly sessions: Calls<'sessions', 'list' | 'exchanges' | 'placeOfExchange'> }

/** What this drives in the devtools view of the session on screen. */
export interface SessionsView {
  reset(): void;
  reload(): Promise<void>;
  reveal(conversation: string, round: number): void;
  select(conversation: string | null): void;
  setFocus(focus: 'list'): void;
}

export interface SessionsDeps {
  api: () => SessionsApi | null;
  view: SessionsView;
  say: (message: string) => void;
}

export class Sessions {
  #list = $state.raw<SessionInfo[]>([]);
  #viewing = $state<string | null>(null);
  #exchanges = $state.raw<readonly ExchangeSummary[]>([]);
  /** The worker's mark of `#exchanges` (null: none, read it whole). */
  #mark: string | null = null;
  #refreshing: Promise<void> | null = null;
  #again = false;
  readonly #deps: SessionsDeps;

  constructor(deps: SessionsDeps) {
    this.#deps = deps;
  }

  get list(): readonly SessionInfo[] { return this.#list; }
  /** The id of the session on screen. */
  get viewing(): string | null { return this.#viewing; }
  /** The session on screen, once the list holds it. */
  get current(): SessionInfo | null { return this.#list.find((s) => s.id === this.#viewing) ?? null; }
  /** The newest LIST_LIMIT raw exchanges of the session on screen. */
  get exchanges(): readonly ExchangeSummary[] { return this.#exchanges; }

  /** A session's name (for file names), "capture" when the list does not hold it. */
  nameOf(id: string): string { return this.#list.find((s) => s.id === id)?.name ?? 'capture'; }

  /** Re-reads the session list. */
  async load(): Promise<void> {
    const got = await this.#deps.api()?.sessions.list();
    if (got?.ok) this.#list = got.value;
    else if (got) this.#deps.say(got.error.message);
  }

  /** Shows another session (live or imported). */
  async show(id: string): Promise<void> {
    if (id === this.#viewing) return;
    this.#viewing = id;
    this.#deps.view.reset();
    this.#forgetExchanges();
    await this.refresh();
  }

  /**
   * Shows the session and selects the conversation and round holding exchange `id` (the
   * Console's "Show it"); only the session when no conversation holds it.
   */
  async showExchange(session: string, id: string): Promise<void> {
    await this.show(session);
    const got = await this.#deps.api()?.sessions.placeOfExchange(session, id);
    if (!got?.ok || !got.value || this.#viewing !== session) return;
    this.#deps.view.reveal(got.value.conversation, got.value.round);
  }

  /** Shows the session with conversation `id` selected. */
  async showConversation(session: string, id: string): Promise<void> {
    await this.show(session);
    if (this.#viewing !== session) return;
    this.#deps.view.select(id);
    this.#deps.view.setFocus('list');
  }

  /** Shows a session that was just created (an import), after re-reading the session list. */
  async showNew(s: SessionInfo): Promise<void> {
    await this.load();
    if (!this.#list.some((x) => x.id === s.id)) this.#list = [...this.#list, s];
    await this.show(s.id);
  }

  /** The worker changed these sessions: the one on screen is re-read. */
  changed(sessions: readonly string[]): void {
    if (this.#viewing !== null && sessions.includes(this.#viewing)) void this.refresh();
  }

  /** The session on screen was emptied: the view starts over and re-reads. */
  emptied(): Promise<void> {
    this.#deps.view.reset();
    this.#forgetExchanges();
    return this.refresh();
  }

  #forgetExchanges(): void {
    this.#exchanges = [];
    this.#mark = null;
  }

  /** Re-reads the session on screen: its raw exchanges and the devtools view. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    const once = this.#refreshOnce().catch((err: unknown) => {
      if (!(err instanceof AnalysisWorkerDied)) throw err;
    });
    this.#refreshing = once.finally(() => {
      this.#refreshing = null;
      if (this.#again) {
        this.#again = false;
        void this.refresh();
      }
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<void> {
    const api = this.#deps.api();
    const session = this.#viewing;
    if (!api || !session) return;
    // Both reads at once, the list asked first: its counts wait neither for the raw exchanges
    // nor for the worker to read them (it answers in the order asked).
    const since = this.#mark;
    const [, ex] = await Promise.all([this.#deps.view.reload(), api.sessions.exchanges(session, { offset: -LIST_LIMIT, limit: LIST_LIMIT, since })]);
    // Another session came on screen meanwhile (its own refresh follows): not this answer's.
    if (this.#viewing !== session) return;
    if (!ex.ok) return this.#deps.say(ex.error.message);
    const { items, mark } = ex.value;
    // The copy was emptied meanwhile (its mark with it): an "unchanged" answer no longer fits.
    if (items === null && this.#mark !== since) return;
    if (items !== null) this.#exchanges = keepUnchanged(this.#exchanges, items);
    this.#mark = mark;
  }
}
