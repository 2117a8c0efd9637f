// The notices shown under the toolbar, typed so a success does not look like a failure.
// They do not stack forever: a repeat of the newest notice counts up instead of adding a
// row, and at most MAX_SHOWN are kept (the oldest goes first). None leaves on a timer: a
// notice read a second too late is a notice lost.
export type NoticeKind = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  /** How many times in a row this text was said. */
  count: number;
}

export const MAX_SHOWN = 3;

export class Notices {
  #items = $state.raw<Notice[]>([]);
  #next = 1;

  get items(): readonly Notice[] { return this.#items; }

  say(text: string, kind: NoticeKind = 'warning'): void {
    const last = this.#items.at(-1);
    if (last && last.text === text && last.kind === kind) {
      this.#items = [...this.#items.slice(0, -1), { ...last, count: last.count + 1 }];
      return;
    }
    const n: Notice = { id: this.#next++, kind, text, count: 1 };
    this.#items = [...this.#items, n].slice(-MAX_SHOWN);
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((n) => n.id !== id);
  }
}
