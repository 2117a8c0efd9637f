// The subjects lint has still to check: conversations (by id, each held as the current
// object of its id) and exchanges (by seq). A step queues what a change affects, then
// drains the queue, newest first (a live exchange before a backlog), a chunk at a time
// while its budget lasts; what is left waits for later steps. Nothing queued is dropped
// except what no longer exists, so once the queue is empty every subject is checked.
//
// Hazard: after a re-thread every Conversation object is new; a queued conversation must be
// renewed to the object of its id (`renew`), or lint would check a conversation that is no
// longer in the analysis. A subject queued again keeps its place in the order.
import type { Conversation } from '../protocol.js';

/** How a drain checks its subjects, asked once per chunk (a chunk's checks share what
 *  the returned function closes over, e.g. one lint context). */
export interface CheckPass {
  /** Gets a chunk of conversations ready (reads their tokens); returns the check of one. */
  conversations(chunk: readonly Conversation[]): Promise<(c: Conversation) => void>;
  /** The check of one exchange, for the next chunk of them. */
  exchanges(): (seq: number) => void;
}

/** The conversations and exchanges lint has still to check. */
export class UncheckedQueue {
  readonly #convs = new Map<string, Conversation>();
  readonly #seqs = new Set<number>();

  /** Conversations and exchanges waiting. */
  get size(): number {
    return this.#convs.size + this.#seqs.size;
  }

  /** Queues a conversation (or holds this object for its id, keeping its place). */
  addConversation(c: Conversation): void {
    this.#convs.set(c.id, c);
  }

  /** Queues an exchange by seq (one removed since is checked too: its findings go). */
  addExchange(seq: number): void {
    this.#seqs.add(seq);
  }

  /** A conversation that no longer exists: nothing is left to check of it. */
  withdraw(id: string): void {
    this.#convs.delete(id);
  }

  /** Empties the queue (before queueing everything again). */
  clear(): void {
    this.#convs.clear();
    this.#seqs.clear();
  }

  /** After a re-thread: each queued conversation becomes the object of its id in `now`,
   *  or leaves the queue when its id is gone. */
  renew(now: ReadonlyMap<string, Conversation>): void {
    if (this.#convs.size === 0) return;
    for (const id of [...this.#convs.keys()]) {
      const c = now.get(id);
      if (c === undefined) this.#convs.delete(id);
      else this.#convs.set(id, c);
    }
  }

  /**
   * Checks conversations newest first, `chunk` at a time, asking `more()` before each
   * chunk; then, once no conversation waits (exchange rules read the tokens the
   * conversations' pass read), exchanges the same way. A subject leaves the queue once
   * checked; what `more()` stopped stays queued.
   */
  async drain(chunk: number, more: () => boolean, pass: CheckPass): Promise<void> {
    const convs = [...this.#convs.values()].reverse();
    for (let i = 0; i < convs.length && more(); i += chunk) {
      const part = convs.slice(i, i + chunk);
      const check = await pass.conversations(part);
      for (const c of part) {
        check(c);
        this.#convs.delete(c.id);
      }
    }
    const seqs = this.#convs.size > 0 ? [] : [...this.#seqs].reverse();
    for (let i = 0; i < seqs.length && more(); i += chunk) {
      const check = pass.exchanges();
      for (const s of seqs.slice(i, i + chunk)) {
        check(s);
        this.#seqs.delete(s);
      }
    }
  }
}
