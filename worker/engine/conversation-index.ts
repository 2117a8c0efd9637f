// The indexes over the threaded conversations that lint rules and the engine read: each
// conversation's place, the conversations of each exchange, the rounds that sent each token,
// and the latest first send up to each place (for the rule that looks back at earlier
// chains). Built whole after a re-thread (`reset`), extended in place after an append.
//
// Hazard: `extend` relies on conversations only growing between re-threads (new ones come
// last, rounds are pushed onto old ones, a first round never changes); anything else must
// `reset`, or the indexes point at rounds and places that no longer exist.
import type { Conversation } from '../protocol.js';
import type { Presentation } from '../lint/rule.js';
import type { StateOrigin } from '../thread/threader.js';

/** Places, exchanges and token presentations of the threaded conversations. */
export class ConversationIndex {
  /** Each conversation's place in the threaded list. */
  readonly #at = new Map<Conversation, number>();
  /** How many rounds of each conversation are indexed already. */
  readonly #rounds = new Map<Conversation, number>();
  /** By place: the latest first-round send time up to it (a running max). */
  #firstSentMax: number[] = [];
  /** By seq: the conversations holding a round of that exchange. */
  #convsOf: Conversation[][] = [];
  /** By token: the rounds that sent it, in conversation order, then round order. */
  #presented = new Map<string, Presentation[]>();

  /** Forgets everything and indexes `convs` (after a re-thread: every object is new). */
  reset(convs: readonly Conversation[]): void {
    this.#at.clear();
    this.#rounds.clear();
    this.#firstSentMax = [];
    this.#convsOf = [];
    this.#presented = new Map();
    this.extend(convs);
  }

  /** Adds new conversations and new rounds of known ones (see the header). */
  extend(grown: readonly Conversation[]): void {
    for (const c of grown) {
      let ci = this.#at.get(c);
      if (ci === undefined) {
        this.#at.set(c, (ci = this.#at.size));
        // A conversation's first round never changes once threaded.
        const before = ci > 0 ? this.#firstSentMax[ci - 1] : -Infinity;
        this.#firstSentMax[ci] = Math.max(before, c.rounds[0]?.sentAt ?? -Infinity);
      }
      for (const seq of c.exchanges) {
        const list = this.#convsOf[seq];
        if (list === undefined) this.#convsOf[seq] = [c];
        else if (!list.includes(c)) list.push(c);
      }
      const from = this.#rounds.get(c) ?? 0;
      for (let ri = from; ri < c.rounds.length; ri++) {
        const round = c.rounds[ri];
        if (round.stateSent === null) continue;
        const list = this.#presented.get(round.stateSent);
        const p: Presentation = { round, conversation: c };
        if (list === undefined) this.#presented.set(round.stateSent, [p]);
        else {
          // Conversation order, then round order: usually the end.
          let at = list.length;
          while (at > 0 && this.#at.get(list[at - 1].conversation)! > ci) at--;
          list.splice(at, 0, p);
        }
      }
      this.#rounds.set(c, c.rounds.length);
    }
  }

  /** A conversation's place in the threaded list; undefined for one not (or no longer) indexed. */
  placeOf(c: Conversation): number | undefined {
    return this.#at.get(c);
  }

  /** The latest first-round send time of the conversations up to place `i`. */
  firstSentMax(i: number): number {
    return this.#firstSentMax[i];
  }

  /** The conversations holding a round of exchange `seq`. */
  conversationsOf(seq: number): readonly Conversation[] | undefined {
    return this.#convsOf[seq];
  }

  /** Every round that sent `token`, in conversation order, then round order. */
  presentations(token: string): readonly Presentation[] | undefined {
    return this.#presented.get(token);
  }

  /** Where each round of an exchange sits. */
  roundsOf(seq: number): StateOrigin[] {
    const out: StateOrigin[] = [];
    for (const c of this.#convsOf[seq] ?? []) c.rounds.forEach((r, round) => {
      if (r.exchange === seq) out.push({ conversation: c, round });
    });
    return out;
  }

  /** The exchange the batch analysis reads a token in: that of the first round issuing it
   *  (`origins`: the rounds that issued it), else of the first round sending it. */
  tokenExchange(token: string, origins: readonly StateOrigin[]): number | undefined {
    let best: { ci: number; ri: number; seq: number } | undefined;
    for (const o of origins) {
      const ci = this.#at.get(o.conversation) ?? Infinity;
      if (best === undefined || ci < best.ci || (ci === best.ci && o.round < best.ri)) best = { ci, ri: o.round, seq: o.conversation.rounds[o.round].exchange };
    }
    if (best !== undefined) return best.seq;
    return this.#presented.get(token)?.[0]?.round.exchange;
  }
}
