// The notices shown under the toolbar, typed so a success does not look like a failure.
// They do not stack forever: a repeat of the newest notice counts up instead of adding a
// row, and at most MAX_SHOWN are kept (the oldest goes first). Only a success leaves on
// its own (after SUCCESS_MS): it reports what the page already shows. A warning or an error
// stays until dismissed: one read a second too late is one lost.
export type NoticeKind = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  /** How many times in a row this text was said. */
  count: number;
}

export const MAX_SHOWN = 3;
/** How long a success notice stays, in ms. */
export const SUCCESS_MS = 6000;

export class Notices {
  #items = $state.raw<Notice[]>([]);
  #next = 1;

  get items(): readonly Notice[] { return this.#items; }

  say(text: string, kind: NoticeKind = 'warning'): void {
    const last = this.#items.at(-1);
    if (last && last.text === text && last.kind === kind) {
      this.#items = [...this.#items.slice(0, -1), { ...last, count: last.count + 1 }];
      this.#expire(last.id, kind);
      return;
    }
    const n: Notice = { id: this.#next++, kind, text, count: 1 };
    this.#items = [...this.#items, n].slice(-MAX_SHOWN);
    this.#expire(n.id, kind);
  }

  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** A success leaves SUCCESS_MS after it was last said (a repeat restarts its time). */
  #expire(id: number, kind: NoticeKind): void {
    if (kind !== 'success') return;
    clearTimeout(this.#timers.get(id));
    this.#timers.set(id, setTimeout(() => this.dismiss(id), SUCCESS_MS));
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.#items = this.#items.filter((n) => n.id !== id);
  }
}
