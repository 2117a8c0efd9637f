// Threading rounds into conversations (design.md, Threading). No field links a retry to its
// original, so a request joins an open chain by, in order: (1) exact echo of a token the
// chain issued; (2) same method, name/uri, arguments and client, with inputResponses keys
// that answer the chain's last inputRequests, sent after that answer arrived; (3) when two
// chains fit equally, it joins neither: it starts its own conversation marked `ambiguous`
// with the candidates named. A retry never joins a chain that had already ended.
// A JSON-RPC error ends a branch, not the call: a later retry echoing a token the chain
// issued is a new branch of it (parent = the issuing round). Only `complete` ends a chain,
// so only a token re-presented after it starts a conversation of its own (`replayOf`).
//
// A Console fork, edit or re-send of a round (its record names the round's exchange in
// `derivedFrom`) that would otherwise start a conversation of its own (the chain had ended,
// or the token tied) joins the conversation of that round instead, as its sibling: a branch
// (link `derived`). Its source was always sent before it; a source not in the capture leaves
// it a conversation of its own.
// A Console tamper test's retry (its record names the round that issued the token) joins
// that round's conversation as its child even where its token would thread it elsewhere
// (another chain's token, a replay after the end): the experiment is shown where it was made.
//
// A chain is judged by its tip, its latest round of its own (retry-match.ts `lastRound`): a
// Console experiment that joined it (thread/experiments.ts) never ends it, fails it or takes
// it out of the open chains, so the client's next retry still continues the call.
//
// Hazard: feed exchanges in the order their requests were sent (`orderForThreading`).
// Answers arrive later than requests, so "ended" and "open" are judged at the new
// request's send time, not at the time of processing.
import type { Conversation, DecodedExchange, ExchangeRecord, OriginKind, Round } from '../protocol.js';
import { header } from '../decode/headers.js';
import { MRTR_METHODS, targetName } from '../decode/meta.js';
import { buildRound } from './round.js';
import { CallShape, compatible, endedBefore, failedBefore, keyScore, lastRound, sideTip, tipIndex } from './retry-match.js';
import { LegacyLinker } from './legacy.js';
import { TaskLinker } from './task-linker.js';
import { statusOf } from './status.js';
import { TASK_METHODS } from '../decode/task.js';

interface ChainInfo {
  /** method + name: chains that a retry could continue are looked up by this. */
  key: string;
  /** The first round's arguments and clientInfo, for comparing retries with. */
  shape: CallShape;
}

/** The Console actions whose exchanges are branches of the round they were made from. */
const BRANCHING: ReadonlySet<OriginKind | undefined> = new Set<OriginKind | undefined>(['fork', 'edit', 'resend']);

const ARTICLE: Partial<Record<OriginKind, string>> = { fork: 'a fork', edit: 'an edit', resend: 'a re-send' };

interface StateOrigin {
  conversation: Conversation;
  round: number;
}

/** Each exchange's state by seq: a Map, or anything with its `get`. */
export interface StatesBySeq { get(seq: number): ExchangeRecord['state'] | undefined }

/** Sorts records by request send time, then by position in the capture. */
export function orderForThreading(records: readonly ExchangeRecord[]): ExchangeRecord[] {
  return [...records].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
}

/** Incremental threader: `add` each exchange in send order, read `conversations()` any time. */
export class Threader {
  private readonly convs: Conversation[] = [];
  private readonly info = new Map<Conversation, ChainInfo>();
  private readonly issued = new Map<string, StateOrigin[]>();
  private readonly open = new Map<string, Set<Conversation>>();
  private readonly legacy = new LegacyLinker();
  private readonly tasks = new TaskLinker();
  /** Conversations `add` created or grew since the last `takeGrown` (a live host brings
   *  only those up to date instead of comparing every conversation); null until the first
   *  call, so a batch run keeps no such set. */
  private grew: Set<Conversation> | null = null;
  /** Where each exchange's first request sits, by record id (for `derivedFrom`). */
  private readonly placed = new Map<string, StateOrigin>();

  /** Threads every client message of one exchange. */
  add(record: ExchangeRecord, decoded: DecodedExchange): void {
    // A stdio connection is its own session: one server process per client.
    const session = record.stdio ? `stdio\u0000${record.client ?? ''}` : header(record.request.headers, 'mcp-session-id') ?? '';
    decoded.sent.forEach((m, i) => {
      if (m.kind === 'request' || m.kind === 'notification') this.addRequest(record, decoded, i, session);
      else if (m.kind === 'result' || m.kind === 'error') this.legacy.answer(record, m, i, session);
    });
    if (record.request.method.toUpperCase() === 'GET') this.legacy.getStream(record, decoded, session, this.convs);
  }

  /** Every conversation so far, with statuses. `final`: the capture has ended, so chains
   *  left waiting for a retry are `abandoned` rather than `in-progress`. */
  conversations(final: boolean, states?: StatesBySeq): Conversation[] {
    this.legacy.settle(this.convs);
    for (const c of this.convs) {
      c.exchanges = ascendingUnique(c.exchanges);
      if (c.rounds.length > 1) c.rounds = c.rounds.slice(); // to size, as exchanges
      c.status = statusOf(c, final, states);
    }
    return this.convs;
  }

  /** As `conversations`, but brings up to date only `touched` (a live host that knows which
   *  conversations its last `add`s changed); the others stay as the last call left them. */
  conversationsTouched(touched: Iterable<Conversation>, final: boolean, states?: StatesBySeq): Conversation[] {
    this.legacy.settle(this.convs);
    for (const c of touched) {
      c.exchanges = ascendingUnique(c.exchanges);
      if (c.rounds.length > 1) c.rounds = c.rounds.slice();
      c.status = statusOf(c, final, states);
    }
    return this.convs;
  }

  /** The conversations `add` created or added to since the last call (empty on the first
   *  call, which starts the tracking). Legacy linking (`settle`, GET streams) is not
   *  counted: a live host re-threads it. */
  takeGrown(): Set<Conversation> {
    const out = this.grew ?? new Set<Conversation>();
    this.grew = new Set();
    return out;
  }

  /** Who issued a token, for rules like state-cross-request. */
  origins(token: string): readonly StateOrigin[] {
    return this.issued.get(token) ?? [];
  }

  /**
   * The answer of an exchange already added arrived (it was pending or streaming, so its
   * rounds had none). Its requests keep their links; the answer's token and open chain are
   * filed where `add` would have filed them, in send order (`position`: an exchange's place
   * in the order exchanges were added). Hazard: valid only when nothing added after the
   * exchange could have seen the answer (sent before it, not echoing its token): the
   * caller checks (engine/thread-state.ts). `placed`: where each of its rounds sits.
   */
  reanswer(record: ExchangeRecord, decoded: DecodedExchange, placed: readonly StateOrigin[], position: (seq: number) => number): void {
    const at = (r: Round) => position(r.exchange) + r.message / 1e7;
    for (const o of placed) {
      const round = o.conversation.rounds[o.round];
      const fresh = buildRound(record, decoded, round.message);
      round.answer = fresh.answer;
      round.outcome = fresh.outcome;
      round.inputRequests = fresh.inputRequests;
      round.stateIssued = fresh.stateIssued;
      round.answeredAt = fresh.answeredAt;
      if (fresh.stateIssued !== null) {
        const list = this.issued.get(fresh.stateIssued) ?? [];
        list.push(o);
        list.sort((a, b) => at(a.conversation.rounds[a.round]) - at(b.conversation.rounds[b.round]));
        this.issued.set(fresh.stateIssued, list);
      }
      if (o.round === tipIndex(o.conversation) && fresh.outcome === 'input_required') {
        const k = this.info.get(o.conversation)!.key;
        const set = new Set(this.open.get(k) ?? []);
        set.add(o.conversation);
        this.open.set(k, new Set([...set].sort((a, b) => at(lastRound(a)) - at(lastRound(b)))));
      }
    }
  }

  /** Same arguments and a compatible client as the chain's first round. */
  private sameCall(c: Conversation, shape: CallShape): boolean {
    const info = this.info.get(c);
    return info !== undefined && info.shape.args() === shape.args() && compatible(info.shape, shape);
  }

  private addRequest(record: ExchangeRecord, decoded: DecodedExchange, index: number, session: string): void {
    const m = decoded.sent[index];
    const round = buildRound(record, decoded, index);
    this.legacy.note(round, m);
    const method = m.method ?? '?';
    const name = targetName(method, m.params);
    const shape = new CallShape(method, m.params);
    const key = `${method}\u0000${name ?? ''}`;
    // A task's polls, updates and cancels join it by taskId; an unknown task's start a
    // conversation of their own below.
    const task = m.kind === 'request' && TASK_METHODS.has(method) ? this.tasks.join(record, decoded, round, method) : null;
    if (task !== null) {
      this.grew?.add(task);
      return;
    }

    const isRetry = MRTR_METHODS.has(method) && m.kind === 'request' && (round.stateSent !== null || round.inputResponses !== null);
    let joined: Conversation | null = null;
    let ambiguous: Conversation[] = [];
    let reason = '';
    let replayOf: string | undefined;

    if (isRetry && round.stateSent !== null) {
      const origins = this.issued.get(round.stateSent) ?? [];
      // The same text as the answer's string; sharing that one object makes every later
      // lookup of the token (tokens, lint) compare a pointer, not ~160 characters.
      if (origins.length > 0) round.stateSent = origins[0].conversation.rounds[origins[0].round].stateIssued ?? round.stateSent;
      const live = origins.filter((o) => o.conversation.method === method && o.conversation.name === name && !endedBefore(o.conversation, round.sentAt, o.round));
      const byConv = live.length <= 1 ? live : [...new Map(live.map((o) => [o.conversation.id, o])).values()];
      let pick = byConv;
      if (pick.length > 1) pick = pick.filter((o) => this.sameCall(o.conversation, shape));
      if (pick.length === 1) {
        joined = pick[0].conversation;
        round.link = 'state';
        round.parent = pick[0].round;
        round.linkReason = `echoes the requestState issued in round ${pick[0].round + 1}`;
        if (failedBefore(joined, round.sentAt, pick[0].round))
          round.linkReason += `; a new branch after the error that answered round ${joined.rounds.indexOf(sideTip(joined, pick[0].round)) + 1}`;
      } else if (pick.length > 1) {
        ambiguous = pick.map((o) => o.conversation);
        reason = `echoes a requestState issued by ${pick.length} open chains with the same tool, arguments and client`;
      } else if (origins.length > 0) {
        const ended = origins.find((o) => o.conversation.method === method && o.conversation.name === name);
        if (ended) replayOf = ended.conversation.id;
        // Either a replay of an ended chain or a token carried over to another request: it
        // starts a conversation of its own; the lint rules say which.
      }
    }

    if (!joined && ambiguous.length === 0 && replayOf === undefined && isRetry && !(round.stateSent !== null && (this.issued.get(round.stateSent)?.length ?? 0) > 0)) {
      const scored: { c: Conversation; s: number }[] = [];
      for (const c of this.open.get(key) ?? []) {
        const last = lastRound(c);
        if (last.answeredAt === null || last.answeredAt > round.sentAt) continue;
        if (!this.sameCall(c, shape)) continue;
        const s = keyScore(round.inputResponses, last.inputRequests);
        if (s > 0) scored.push({ c, s });
      }
      const best = Math.max(0, ...scored.map((x) => x.s));
      const top = scored.filter((x) => x.s === best);
      if (top.length === 1) {
        joined = top[0].c;
        round.link = 'match';
        round.parent = tipIndex(joined);
        round.linkReason = best === 2
          ? 'same method, name, arguments and client; answers exactly the keys the previous round asked for'
          : 'same method, name, arguments and client; answers some of the keys the previous round asked for';
      } else if (top.length > 1) {
        ambiguous = top.map((x) => x.c);
        reason = `${top.length} open chains have the same method, name, arguments and client and asked for the same keys; no token tells them apart`;
      }
    }

    if (!joined && ambiguous.length === 0 && replayOf === undefined && isRetry) {
      joined = this.tasks.retryTarget(key, round, (c) => this.sameCall(c, shape));
      if (joined) {
        round.link = 'match';
        round.parent = joined.rounds.length - 1;
        round.linkReason = `retries the call that created task ${JSON.stringify(joined.task?.taskId)} with inputResponses for the keys its latest poll asked for (task input goes through tasks/update)`;
      }
    }

    // An explicit link beats an inference that failed: a Console branch of a round joins it.
    if (!joined && m.kind === 'request' && record.derivedFrom !== undefined && BRANCHING.has(record.origin?.kind)) {
      const from = this.placed.get(record.derivedFrom);
      if (from !== undefined && from.conversation.method === method) {
        joined = from.conversation;
        ambiguous = [];
        replayOf = undefined;
        const src = joined.rounds[from.round];
        round.link = 'derived';
        round.parent = src.parent;
        round.linkReason = `${ARTICLE[record.origin!.kind]} of round ${from.round + 1}, made in the Console`;
      }
    }

    // A tamper test belongs under the round whose token it tampers with, whatever its token
    // would thread it to: a swapped token echoes another chain's, a replayed one an ended
    // chain's, a changed one nobody's (so it would start an `ambiguous` conversation of its own).
    // Only its retries: the fresh first round sent as a control is a call of its own.
    if (isRetry && record.origin?.kind === 'tamper' && record.derivedFrom !== undefined) {
      const from = this.placed.get(record.derivedFrom);
      if (from !== undefined && from.conversation.method === method && joined !== from.conversation) {
        const issuer = round.stateSent === null ? undefined : this.issued.get(round.stateSent)?.find((o) => o.conversation === from.conversation);
        joined = from.conversation;
        ambiguous = [];
        replayOf = undefined;
        round.link = 'derived';
        round.parent = issuer?.round ?? from.round;
        round.linkReason = `a tamper test of round ${round.parent + 1}, made in the Console`;
      }
    }

    let conv: Conversation;
    if (joined) {
      conv = joined;
      conv.rounds.push(round);
      conv.exchanges.push(record.seq);
      // Open or not is the tip's to say: an experiment that joined leaves the call as it was.
      if (lastRound(conv) === round) this.open.get(this.info.get(conv)!.key)?.delete(conv);
    } else {
      if (ambiguous.length > 0) {
        round.link = 'ambiguous';
        round.linkReason = reason;
        round.candidates = ambiguous.map((c) => c.id);
      }
      conv = {
        id: index === 0 ? `c${record.seq}` : `c${record.seq}.${index}`,
        method, name, era: decoded.era, client: shape.clientRaw(), exchanges: [record.seq],
        status: 'in-progress', rounds: [round],
      };
      if (replayOf !== undefined) conv.replayOf = replayOf; // last, as a spread would put it
      if (record.origin?.run !== undefined) conv.run = record.origin.run;
      this.convs.push(conv);
      this.info.set(conv, { key, shape });
      this.legacy.track(conv, session);
    }
    this.grew?.add(conv);
    const ri = conv.rounds.length - 1;
    if (!this.placed.has(record.id)) this.placed.set(record.id, { conversation: conv, round: ri });
    if (round.stateIssued !== null) {
      const list = this.issued.get(round.stateIssued);
      if (list) list.push({ conversation: conv, round: ri });
      else this.issued.set(round.stateIssued, [{ conversation: conv, round: ri }]);
    }
    if (round.outcome === 'input_required' && lastRound(conv) === round) {
      const k = this.info.get(conv)!.key;
      let set = this.open.get(k);
      if (!set) this.open.set(k, (set = new Set()));
      set.add(conv);
    }
    if (round.legacy) this.legacy.register(conv, ri, session);
    this.tasks.adopt(conv, ri, key, record, decoded);
  }
}

/** The seqs sorted, without repeats, in an array of their exact size (a list grown by push
 *  keeps room for 17; 100k conversations keep theirs). Mostly they are in order already. */
function ascendingUnique(seqs: readonly number[]): number[] {
  for (let i = 1; i < seqs.length; i++) if (!(seqs[i - 1] < seqs[i])) return [...new Set(seqs)].sort((a, b) => a - b);
  return seqs.slice();
}

export type { StateOrigin };
