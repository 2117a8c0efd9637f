// The devtools view of one session: the conversation list (conversation-rows.svelte.ts), the
// selection (which conversation, its thread, which round, which pane has the keys), and the
// selected round's exchange (exchange-detail.svelte.ts). This file is the selection and the
// keyboard's moves over it; every answer from the worker is replaced wholesale ($state.raw).
//
// Race, written down: selections fire requests faster than the worker answers (holding j on
// a 10k list). Each thread request carries a ticket; an answer whose ticket is no longer the
// latest is dropped, so the view never shows a thread for a conversation no longer selected.
import type { ConversationView, KeyInfo, RuleInfo } from '../../worker/facade.js';
import type { Calls } from './analysis-client.js';
import { ConversationRows, type RowsApi } from './conversation-rows.svelte.js';
import { ExchangeDetail, type DetailApi } from './exchange-detail.svelte.js';

export type Focus = 'list' | 'thread' | 'detail';

/** The worker's calls the view makes. */
export type DevtoolsApi = RowsApi & DetailApi & {
  readonly sessions: Calls<'sessions', 'conversation'>;
  readonly findings: Calls<'findings', 'rules'>;
  readonly keys: Calls<'keys', 'list'>;
};

export class Devtools {
  #selected = $state<string | null>(null);
  #thread = $state.raw<ConversationView | null>(null);
  #round = $state(0);
  // A round was chosen (keys, a click) since the conversation was selected: its thread, when
  // it comes, opens there rather than on the round that failed.
  #roundChosen = false;
  #focus = $state<Focus>('list');
  #keys = $state.raw<KeyInfo[]>([]);
  #rules = $state.raw<RuleInfo[]>([]);
  #error = $state<string | null>(null);
  #ticket = 0;
  readonly #api: () => DevtoolsApi | null;
  readonly #session: () => string | null;

  /** The conversation list through the filter. */
  readonly rows: ConversationRows;
  /** The selected round's exchange, in the detail pane. */
  readonly detail: ExchangeDetail;

  constructor(api: () => DevtoolsApi | null, session: () => string | null) {
    this.#api = api;
    this.#session = session;
    this.rows = new ConversationRows({ api, session, report: (e) => { this.#error = e; } });
    this.detail = new ExchangeDetail({ api, session, report: (e) => { this.#error = e; } });
  }

  get selected(): string | null { return this.#selected; }
  get thread(): ConversationView | null { return this.#thread; }
  get round(): number { return this.#round; }
  get focus(): Focus { return this.#focus; }
  get keys(): readonly KeyInfo[] { return this.#keys; }
  get rules(): readonly RuleInfo[] { return this.#rules; }
  /** The last failed read of the list, a thread or an exchange; cleared by a list read that succeeds. */
  get error(): string | null { return this.#error; }
  get selectedIndex(): number { return this.rows.indexOf(this.#selected); }

  async loadStatic(): Promise<void> {
    const api = this.#api();
    if (!api) return;
    this.#rules = await api.findings.rules();
    this.#keys = await api.keys.list();
  }

  setKeys(keys: KeyInfo[]): void { this.#keys = keys; }

  /** Re-reads the list, the open thread and the open exchange (after captures or a key change). */
  async reload(): Promise<void> {
    await this.rows.load();
    if (this.#selected) await this.#loadThread(this.#selected, false);
  }

  /** Starts over on another session. */
  reset(): void {
    this.#ticket++;
    this.rows.reset();
    this.detail.reset();
    this.#selected = null;
    this.#thread = null;
    this.#round = 0;
    this.#focus = 'list';
  }

  select(id: string | null): void {
    if (id === this.#selected) return;
    this.#selected = id;
    this.#round = 0;
    this.#roundChosen = false;
    this.detail.blank();
    if (id) void this.#loadThread(id, true);
    else {
      this.#ticket++;
      this.#thread = null;
    }
  }

  /** Selects a conversation on a given round (a link to an exchange); the list scrolls to it. */
  reveal(id: string, round: number): void {
    this.#selected = id;
    this.#round = round;
    this.detail.blank();
    this.#focus = 'thread';
    void this.#loadThread(id, false);
  }

  selectRound(i: number): void {
    if (i < 0) return;
    // Race: the thread on screen may still be the conversation selected before (the new one's
    // is being read). A move then is a move in the new one: kept, bounded and shown when its
    // thread comes, not spent on the old rounds and then lost to the new thread's first round.
    if (this.#selected !== null && this.#thread?.id !== this.#selected) {
      this.#round = i;
      this.#roundChosen = true;
      return;
    }
    const rounds = this.#thread?.rounds ?? [];
    if (i >= rounds.length) return;
    this.#round = i;
    this.#roundChosen = true;
    void this.detail.load(rounds[i].exchangeId, false);
  }

  /**
   * Opens exchange `id` in the detail pane on round `i`: a legacy client's answer is an
   * exchange of the round's conversation that is no round of its own.
   */
  openExchange(i: number, id: string): void {
    const rounds = this.#thread?.rounds ?? [];
    if (i < 0 || i >= rounds.length) return;
    this.#round = i;
    this.#focus = 'detail';
    void this.detail.load(id, false);
  }

  setFocus(f: Focus): void { this.#focus = f; }

  /** j / ↓ and k / ↑: moves in the list, or between rounds once a conversation is open. */
  move(delta: number): void {
    if (this.#focus === 'list') {
      const items = this.rows.list?.items ?? [];
      if (!items.length) return;
      const at = this.selectedIndex;
      const next = at < 0 ? (delta > 0 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, at + delta));
      this.select(items[next].id);
    } else {
      this.selectRound(this.#round + delta);
    }
  }

  /** Enter: list → thread → detail. */
  open(): void {
    if (this.#focus === 'list') {
      if (!this.#selected) this.move(1);
      if (this.#selected) this.#focus = 'thread';
    } else if (this.#focus === 'thread' && this.#thread?.rounds.length) {
      this.#focus = 'detail';
    }
  }

  /** Esc: detail → thread → list → no selection. */
  close(): void {
    if (this.#focus === 'detail') this.#focus = 'thread';
    else if (this.#focus === 'thread') this.#focus = 'list';
    else this.select(null);
  }

  async #loadThread(id: string, fresh: boolean): Promise<void> {
    const api = this.#api();
    const session = this.#session();
    if (!api || !session) return;
    const ticket = ++this.#ticket;
    const got = await api.sessions.conversation(session, id);
    if (ticket !== this.#ticket) return;
    if (!got.ok) {
      this.#error = got.error.message;
      return;
    }
    this.#thread = got.value;
    const rounds = got.value?.rounds ?? [];
    if (fresh && !this.#roundChosen) {
      // Open on the round that failed, when one did: that is what the user came for.
      const failed = rounds.findIndex((r) => r.outcome === 'error' || r.findings > 0);
      this.#round = failed >= 0 ? failed : 0;
    }
    if (this.#round >= rounds.length) this.#round = Math.max(0, rounds.length - 1);
    const r = rounds[this.#round];
    if (r) await this.detail.load(r.exchangeId, false);
    else this.detail.blank();
  }
}
