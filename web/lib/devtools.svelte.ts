// The devtools view of one session: the filtered conversation list (rows from the worker),
// the selected conversation's thread, the selected round, and its exchange's detail. Every
// answer from the worker is replaced wholesale ($state.raw); nothing here reads traffic.
//
// Race, written down: selections and filter edits fire requests faster than the worker
// answers (holding j on a 10k list). Each kind of request carries a ticket; an answer
// whose ticket is no longer the latest is dropped, so the view never shows a thread for a
// conversation that is no longer selected.
import type { ConversationList, ConversationView, ExchangeView, KeyInfo, RuleInfo } from '../../worker/facade.js';
import type { Analysis } from './analysis-client.js';
import { applyListUpdate } from './list-update.js';

export type Focus = 'list' | 'thread' | 'detail';
export type DetailTab = 'headers' | 'request' | 'response' | 'state' | 'findings' | 'timing';
export const TABS: readonly DetailTab[] = ['headers', 'request', 'response', 'state', 'findings', 'timing'];

const FILTER_DELAY_MS = 120;

export class Devtools {
  #list = $state.raw<ConversationList | null>(null);
  /** Which list `#list` is a copy of, and as of which worker build (for deltas). */
  #listOf: { session: string; filter: string; epoch: number } | null = null;
  #lastUpdate = $state<'whole' | 'delta' | null>(null);
  #filter = $state('');
  #selected = $state<string | null>(null);
  #thread = $state.raw<ConversationView | null>(null);
  #round = $state(0);
  #exchange = $state.raw<ExchangeView | null>(null);
  #tab = $state<DetailTab>('headers');
  #focus = $state<Focus>('list');
  #keys = $state.raw<KeyInfo[]>([]);
  #rules = $state.raw<RuleInfo[]>([]);
  #error = $state<string | null>(null);

  readonly #api: () => Analysis | null;
  readonly #session: () => string | null;
  #tickets = { list: 0, thread: 0, exchange: 0 };
  #filterTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(api: () => Analysis | null, session: () => string | null) {
    this.#api = api;
    this.#session = session;
  }

  get list(): ConversationList | null { return this.#list; }
  /** How the last list load came: whole, or only the changed rows. */
  get lastListUpdate(): 'whole' | 'delta' | null { return this.#lastUpdate; }
  get filter(): string { return this.#filter; }
  get selected(): string | null { return this.#selected; }
  get thread(): ConversationView | null { return this.#thread; }
  get round(): number { return this.#round; }
  get exchange(): ExchangeView | null { return this.#exchange; }
  get tab(): DetailTab { return this.#tab; }
  get focus(): Focus { return this.#focus; }
  get keys(): readonly KeyInfo[] { return this.#keys; }
  get rules(): readonly RuleInfo[] { return this.#rules; }
  get error(): string | null { return this.#error; }
  get selectedIndex(): number {
    const items = this.#list?.items;
    return items && this.#selected ? items.findIndex((c) => c.id === this.#selected) : -1;
  }

  async loadStatic(): Promise<void> {
    const api = this.#api();
    if (!api) return;
    this.#rules = await api.findings.rules();
    this.#keys = await api.keys.list();
  }

  setKeys(keys: KeyInfo[]): void { this.#keys = keys; }

  /** Re-reads the list, the open thread and the open exchange (after captures or a key change). */
  async reload(): Promise<void> {
    await this.#loadList();
    if (this.#selected) await this.#loadThread(this.#selected, false);
  }

  /** Starts over on another session. */
  reset(): void {
    this.#tickets.list++; this.#tickets.thread++; this.#tickets.exchange++;
    this.#list = null;
    this.#listOf = null;
    this.#selected = null;
    this.#thread = null;
    this.#exchange = null;
    this.#round = 0;
    this.#focus = 'list';
  }

  setFilter(text: string): void {
    this.#filter = text;
    if (this.#filterTimer) clearTimeout(this.#filterTimer);
    this.#filterTimer = setTimeout(() => {
      this.#filterTimer = null;
      void this.#loadList();
    }, FILTER_DELAY_MS);
  }

  /** Applies the filter now (Enter in the box). */
  applyFilter(): Promise<void> {
    if (this.#filterTimer) clearTimeout(this.#filterTimer);
    this.#filterTimer = null;
    return this.#loadList();
  }

  select(id: string | null): void {
    if (id === this.#selected) return;
    this.#selected = id;
    this.#round = 0;
    this.#exchange = null;
    if (id) void this.#loadThread(id, true);
    else {
      this.#tickets.thread++;
      this.#thread = null;
    }
  }

  /** Selects a conversation on a given round (a link to an exchange); the list scrolls to it. */
  reveal(id: string, round: number): void {
    this.#selected = id;
    this.#round = round;
    this.#exchange = null;
    this.#focus = 'thread';
    void this.#loadThread(id, false);
  }

  selectRound(i: number): void {
    const rounds = this.#thread?.rounds ?? [];
    if (i < 0 || i >= rounds.length) return;
    this.#round = i;
    void this.#loadExchange(rounds[i].exchangeId, false);
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
    void this.#loadExchange(id, false);
  }

  selectTab(tab: DetailTab): void { this.#tab = tab; }
  setFocus(f: Focus): void { this.#focus = f; }

  /** j / ↓ and k / ↑: moves in the list, or between rounds once a conversation is open. */
  move(delta: number): void {
    if (this.#focus === 'list') {
      const items = this.#list?.items ?? [];
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

  cycleTab(delta: number): void {
    const i = TABS.indexOf(this.#tab);
    this.#tab = TABS[(i + delta + TABS.length) % TABS.length];
  }

  /** "Show all" of a cut body. */
  showAll(): void {
    const id = this.#exchange?.id;
    if (id) void this.#loadExchange(id, true);
  }

  async #loadList(): Promise<void> {
    const api = this.#api();
    const session = this.#session();
    if (!api || !session) return;
    const ticket = ++this.#tickets.list;
    // Only the rows that changed since our copy, when the worker can tell (list-update.ts).
    const held = this.#listOf?.session === session && this.#listOf.filter === this.#filter ? this.#listOf : null;
    const got = await api.sessions.conversationsSince(session, this.#filter, held?.epoch ?? null);
    if (ticket !== this.#tickets.list) return;
    if (!got.ok) {
      this.#error = got.error.message;
      return;
    }
    this.#error = null;
    // The bench (test/bench/ui.ts) measures from this mark to the first screen of rows.
    performance.mark('mrtr:list-answer');
    const next = applyListUpdate(held ? this.#list : null, got.value);
    if (next === null) {
      this.#listOf = null; // nothing to apply a delta to: the next load asks for the whole list
      return void this.#loadList();
    }
    this.#listOf = { session, filter: this.#filter, epoch: got.value.epoch };
    this.#lastUpdate = got.value.kind;
    this.#list = next;
  }

  async #loadThread(id: string, fresh: boolean): Promise<void> {
    const api = this.#api();
    const session = this.#session();
    if (!api || !session) return;
    const ticket = ++this.#tickets.thread;
    const got = await api.sessions.conversation(session, id);
    if (ticket !== this.#tickets.thread) return;
    if (!got.ok) {
      this.#error = got.error.message;
      return;
    }
    this.#thread = got.value;
    const rounds = got.value?.rounds ?? [];
    if (fresh) {
      // Open on the round that failed, when one did: that is what the user came for.
      const failed = rounds.findIndex((r) => r.outcome === 'error' || r.findings > 0);
      this.#round = failed >= 0 ? failed : 0;
    }
    if (this.#round >= rounds.length) this.#round = Math.max(0, rounds.length - 1);
    const r = rounds[this.#round];
    if (r) await this.#loadExchange(r.exchangeId, false);
    else this.#exchange = null;
  }

  async #loadExchange(id: string, full: boolean): Promise<void> {
    const api = this.#api();
    const session = this.#session();
    if (!api || !session) return;
    const ticket = ++this.#tickets.exchange;
    const got = await api.sessions.exchangeView(session, id, full);
    if (ticket !== this.#tickets.exchange) return;
    if (got.ok) this.#exchange = got.value;
    else this.#error = got.error.message;
  }
}
