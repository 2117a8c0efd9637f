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

/** Subjects a drain is limited to (a step's own changes), when it is not to go on with the rest. */
export interface DrainScope {
  conversations: ReadonlySet<string>;
  exchanges: ReadonlySet<number>;
}

/** Keys in the order they were first queued: newest first is a walk back from the end,
 *  with no copy of the queue (a step at 100k queued conversations read 32 of them). */
class QueueOrder<K> {
  /** Key → its slot in `#slots`; a slot whose key maps elsewhere (or nowhere) is dead. */
  readonly #at = new Map<K, number>();
  #slots: K[] = [];

  get size(): number { return this.#at.size; }

  /** Queues `key` at the end, or keeps its place when queued already. */
  add(key: K): void {
    if (this.#at.has(key)) return;
    this.#at.set(key, this.#slots.length);
    this.#slots.push(key);
  }

  delete(key: K): void {
    this.#at.delete(key);
    // Dead slots at the end go at once (the newest are checked first); others once they
    // outnumber the live ones.
    while (this.#slots.length > 0 && this.#at.get(this.#slots[this.#slots.length - 1]!) !== this.#slots.length - 1) this.#slots.pop();
    if (this.#slots.length > 64 && this.#slots.length > 2 * this.#at.size) this.#compact();
  }

  clear(): void {
    this.#at.clear();
    this.#slots = [];
  }

  /** Up to `n` keys, newest first, from before `below` (a slot; the end when omitted): the keys and the slot to go on from. */
  newest(n: number, below = this.#slots.length): { keys: K[]; next: number } {
    const keys: K[] = [];
    let i = Math.min(below, this.#slots.length) - 1;
    for (; i >= 0 && keys.length < n; i--) {
      const k = this.#slots[i]!;
      if (this.#at.get(k) === i) keys.push(k);
    }
    return { keys, next: i + 1 };
  }

  /** Takes queued keys newest first, `n` at a time: of `only` (those queued), or of the whole
   *  queue, walking on from where the last take ended (keys taken are deleted by the caller). */
  taker(n: number, only?: Iterable<K>): () => K[] {
    if (only) {
      const keys = this.newestOf(only);
      let i = 0;
      return () => keys.slice(i, (i += n));
    }
    let from: number | undefined;
    return () => {
      const got = this.newest(n, from);
      from = got.next;
      return got.keys;
    };
  }

  /** `keys` that are queued, newest first. */
  newestOf(keys: Iterable<K>): K[] {
    const out: { k: K; at: number }[] = [];
    for (const k of keys) {
      const at = this.#at.get(k);
      if (at !== undefined) out.push({ k, at });
    }
    return out.sort((a, b) => b.at - a.at).map((x) => x.k);
  }

  #compact(): void {
    const live = this.#slots.filter((k, i) => this.#at.get(k) === i);
    this.#slots = live;
    live.forEach((k, i) => this.#at.set(k, i));
  }
}

/** The conversations and exchanges lint has still to check. */
export class UncheckedQueue {
  /** The object queued last per conversation id. */
  readonly #convs = new Map<string, Conversation>();
  readonly #convOrder = new QueueOrder<string>();
  readonly #seqs = new QueueOrder<number>();

  /** Conversations and exchanges waiting. */
  get size(): number {
    return this.#convs.size + this.#seqs.size;
  }

  /** Queues a conversation (or holds this object for its id, keeping its place). */
  addConversation(c: Conversation): void {
    this.#convs.set(c.id, c);
    this.#convOrder.add(c.id);
  }

  /** Queues an exchange by seq (one removed since is checked too: its findings go). */
  addExchange(seq: number): void {
    this.#seqs.add(seq);
  }

  /** A conversation that no longer exists: nothing is left to check of it. */
  withdraw(id: string): void {
    this.#convs.delete(id);
    this.#convOrder.delete(id);
  }

  /** Empties the queue (before queueing everything again). */
  clear(): void {
    this.#convs.clear();
    this.#convOrder.clear();
    this.#seqs.clear();
  }

  /** After a re-thread: each queued conversation becomes the object of its id in `now`,
   *  or leaves the queue when its id is gone. */
  renew(now: ReadonlyMap<string, Conversation>): void {
    if (this.#convs.size === 0) return;
    for (const id of [...this.#convs.keys()]) {
      const c = now.get(id);
      if (c === undefined) this.withdraw(id);
      else this.#convs.set(id, c);
    }
  }

  /**
   * Checks conversations newest first, `chunk` at a time (a chunk's tokens read together),
   * asking `more()` before each subject but a chunk's first; then, once no conversation
   * waits (exchange rules read the tokens the conversations' pass read), exchanges the same way. A subject leaves the queue once
   * checked; what `more()` stopped stays queued. `only`: checks none but these (a step's
   * own changes: the rest waits for a drain that goes on with it).
   */
  async drain(chunk: number, more: () => boolean, pass: CheckPass, only?: DrainScope): Promise<void> {
    const nextConvs = this.#convOrder.taker(chunk, only?.conversations);
    for (let ids = nextConvs(); ids.length > 0 && more(); ids = nextConvs()) {
      const part = ids.map((id) => this.#convs.get(id)!);
      const check = await pass.conversations(part);
      for (let i = 0; i < part.length; i++) {
        // Asked after each subject, not each chunk: a chunk of conversations took 10-25 ms
        // beyond a 10 ms budget (Node, 20k backlog), and a live record waited for it. What
        // is left of the chunk stays queued, its tokens read already.
        if (i > 0 && !more()) return;
        check(part[i]!);
        this.withdraw(part[i]!.id);
      }
    }
    if (this.#convs.size > 0) return;
    const nextSeqs = this.#seqs.taker(chunk, only?.exchanges);
    for (let part = nextSeqs(); part.length > 0 && more(); part = nextSeqs()) {
      const check = pass.exchanges();
      for (let i = 0; i < part.length; i++) {
        if (i > 0 && !more()) return;
        check(part[i]!);
        this.#seqs.delete(part[i]!);
      }
    }
  }
}
