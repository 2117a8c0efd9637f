// The detail pane's exchange: the one open (headers, bodies, state, findings, timing), which
// tab shows it, and "Show all" of a body the view cut. The worker builds the view; the
// answer replaces the copy wholesale ($state.raw).
//
// Race, written down: moving through rounds asks faster than the worker answers. Each
// request carries a ticket; an answer whose ticket is no longer the latest is dropped, so the
// pane never shows an exchange of a round that is no longer selected.
import type { ExchangeView } from '../../worker/facade.js';
import type { Calls } from './analysis-client.js';

export type DetailTab = 'headers' | 'request' | 'response' | 'state' | 'findings' | 'timing';
export const TABS: readonly DetailTab[] = ['headers', 'request', 'response', 'state', 'findings', 'timing'];

export interface DetailApi { readonly sessions: Calls<'sessions', 'exchangeView'> }

export interface DetailDeps {
  api: () => DetailApi | null;
  session: () => string | null;
  /** A failed read, said in the status bar. */
  report: (error: string) => void;
}

export class ExchangeDetail {
  #exchange = $state.raw<ExchangeView | null>(null);
  #tab = $state<DetailTab>('headers');
  #ticket = 0;
  readonly #deps: DetailDeps;

  constructor(deps: DetailDeps) {
    this.#deps = deps;
  }

  get exchange(): ExchangeView | null { return this.#exchange; }
  get tab(): DetailTab { return this.#tab; }

  /** Shows nothing until the next load (a new selection); an answer already on its way still lands. */
  blank(): void { this.#exchange = null; }

  /** Shows nothing, and drops any answer on its way (another session). */
  reset(): void {
    this.#ticket++;
    this.#exchange = null;
  }

  /** Opens exchange `id`; `full` asks for bodies uncut. */
  async load(id: string, full: boolean): Promise<void> {
    const api = this.#deps.api();
    const session = this.#deps.session();
    if (!api || !session) return;
    const ticket = ++this.#ticket;
    const got = await api.sessions.exchangeView(session, id, full);
    if (ticket !== this.#ticket) return;
    if (got.ok) this.#exchange = got.value;
    else this.#deps.report(got.error.message);
  }

  /** "Show all" of a cut body. */
  showAll(): void {
    const id = this.#exchange?.id;
    if (id) void this.load(id, true);
  }

  selectTab(tab: DetailTab): void { this.#tab = tab; }

  cycleTab(delta: number): void {
    const i = TABS.indexOf(this.#tab);
    this.#tab = TABS[(i + delta + TABS.length) % TABS.length];
  }
}
