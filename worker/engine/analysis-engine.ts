// The one analysis pipeline (decode → thread → read tokens → lint), kept live: records
// are put as they arrive or change, and each `step` redoes only what the changes affect.
// The CLI and imports put everything at once and step once; a live session steps after
// each (coalesced) batch of changes. Both give the same analysis (property-tested).
//
// This file runs a step; each part it drives has a file of its own: the records and their
// decodings (entry-table.ts), the threading (thread-state.ts), the indexes rules read
// (conversation-index.ts), the token readings (token-readings.ts), what a change reaches
// (recheck-scope.ts), what is left to check (unchecked-queue.ts), one pass's lint view
// (lint-context.ts) and the findings per subject (lint-state.ts). Callers own the records
// and hand copies in.
//
// Checks may trail (`step({ checkMs })`): a step given a budget threads everything put, but
// reads tokens and lints only as much as fits, newest first; the rest stays `unchecked`, its
// findings as they were, until later steps (with nothing put, a step only checks). A host
// lists a large batch first and checks it next this way. A budgeted step told not to go on
// (`step({ checkMs, backlog: false })`, a page's read) checks only what its own changes
// queued: a live exchange's read does not pay for a slice of a backlog's checks, which
// steps that go on take up. Once nothing is unchecked, the
// analysis is the one an unbudgeted step gives (rules are pure, and what a change affects is
// queued, never dropped).
//
// Hazard: a lint rule may look past its subject (another conversation that issued or
// echoed the same token, a tools/list, a chain asked for keys earlier). What a change can
// reach is worked out in recheck-scope.ts; anything it cannot bound re-checks everything.
import type { Conversation, DecodedExchange, ExchangeRecord, Finding } from '../protocol.js';
import type { TokenKey } from '../tokens/index.js';
import { RuleRunner } from '../lint/engine.js';
import type { LintContext } from '../lint/rule.js';
import { ALL_RULES } from '../lint/rules/index.js';
import { ThreadState, type Threaded } from './thread-state.js';
import { EntryTable } from './entry-table.js';
import { ConversationIndex } from './conversation-index.js';
import { LintState } from './lint-state.js';
import { tokensOf } from './fingerprint.js';
import { compareThreadings, earliestToolList, recheckScope } from './recheck-scope.js';
import { TokenReadings } from './token-readings.js';
import { collectToolLists, refileToolLists, type ToolList } from './tool-lists.js';
import { lintContext } from './lint-context.js';
import { UncheckedQueue, type DrainScope } from './unchecked-queue.js';
import { engineStep, type EngineStep } from './engine-step.js';
import { lintOptionsOf, type EngineOptions } from './engine-options.js';

export type { EngineOptions } from './engine-options.js';
export type { EngineStep } from './engine-step.js';

/** Subjects checked between two looks at the clock (and tokens read per pass). */
const CHECK_CHUNK = 128;

const clock = () => performance.now();

/** The live analysis of one capture: `put` and `remove` records, then `step`. */
export class AnalysisEngine {
  readonly #opts: EngineOptions;
  readonly #runner: RuleRunner;
  /** The records, their decodings and versions, and the changes put since the last step. */
  readonly #entries: EntryTable;
  readonly #thread = new ThreadState();
  #relintAll = true;
  #convs: Conversation[] = [];
  /** Places, exchanges and token presentations of `#convs`. */
  readonly #index = new ConversationIndex();
  #toolLists: ToolList[] = [];
  readonly #readings: TokenReadings;
  readonly #lint = new LintState();
  /** What lint has still to check. */
  readonly #unchecked = new UncheckedQueue();
  #chain: Promise<unknown> = Promise.resolve();

  constructor(opts: EngineOptions = {}) {
    this.#opts = opts;
    this.#entries = new EntryTable(opts);
    this.#runner = new RuleRunner(opts.rules ?? ALL_RULES);
    this.#readings = new TokenReadings((t) => this.#urlOf(t), opts.keysFor ?? (() => []), opts.hmac);
  }

  /** Adds or replaces records (by seq). `decoded[i]`, when given, is `decodeExchange(records[i])`. */
  put(records: Iterable<ExchangeRecord>, decoded?: readonly DecodedExchange[]): void {
    this.#entries.put(records, decoded);
  }

  /** Removes records by seq. */
  remove(seqs: Iterable<number>): void {
    this.#entries.remove(seqs);
  }

  /** New keys: every token is read again and every conversation re-checked at the next step. */
  setKeys(keysFor: (url: string) => readonly TokenKey[]): void {
    this.#readings.setKeys(keysFor);
    this.#relintAll = true;
  }

  /** One exchange as analysed. */
  entry(seq: number): { record: ExchangeRecord; decoded: DecodedExchange } | undefined {
    return this.#entries.at(seq);
  }

  /** The engine's copy (lean when `lean`) of this very version of a record, once a step has
   *  decoded it; undefined while that version is only put, or another is held. */
  keptCopy(record: ExchangeRecord): ExchangeRecord | undefined {
    return this.#entries.keptCopy(record);
  }

  /** Every record, by ascending seq. */
  records(): readonly ExchangeRecord[] {
    return this.#entries.records();
  }

  /** `limit` records from the `offset`-th on, by ascending seq, without listing them all. */
  recordsPage(offset: number, limit: number): ExchangeRecord[] {
    return this.#entries.page(offset, limit);
  }

  /** How many records are held. */
  get recordCount(): number {
    return this.#entries.count;
  }

  /** The findings naming a conversation ('' for none), or null when a rule threw (then
   *  read `findings` of the step, which reports each broken rule once). */
  findingsOf(conversation: string): Finding[] | null {
    return this.#lint.hasFailures ? null : this.#lint.of(conversation);
  }

  /**
   * Applies every change put since the last step. Steps run one at a time. `checkMs`: check
   * (read tokens, lint) for about that long at most, leaving the rest for later steps (see
   * the header); by default everything is checked. `backlog: false`: a budgeted step checks
   * only what its own changes queued, not what earlier steps left (default: it goes on with it).
   */
  step(opts: { checkMs?: number; backlog?: boolean } = {}): Promise<EngineStep> {
    const own = opts.checkMs !== undefined && opts.backlog === false;
    const run = this.#chain.then(() => this.#step(opts.checkMs, own));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Conversations and exchanges left unchecked by the steps so far. */
  get unchecked(): number {
    return this.#unchecked.size;
  }

  // `own`: check only what this step queues (see `step`).
  async #step(checkMs: number | undefined, own: boolean): Promise<EngineStep> {
    if (!this.#entries.pending && !this.#relintAll && this.#thread.started) {
      // Nothing put: only what earlier steps left unchecked (nothing, when only its own).
      const changed = new Set<string>();
      if (!own) await this.#check(changed, checkMs);
      else for (const id of this.#lint.takeNamed()) if (id !== '') changed.add(id);
      return this.#result(changed, new Set(), false);
    }
    const final = this.#opts.final ?? true;
    // 1. Decode what changed, and judge whether threading can append it.
    const { added, touched: touchedSeqs, removed: oldSeqs, reanswers, rethread: mustRethread } = this.#entries.apply();
    let rethread = !this.#thread.started || mustRethread;
    if (!rethread && (this.#entries.legacy || added.some((e) => !this.#thread.appendable(e.record)))) rethread = true;

    // 2. Thread. Where a token is read (its issuing exchange's URL) may move with it.
    this.#readings.placementsChanged();
    const states = { get: (seq: number) => this.#entries.at(seq)?.record.state };
    const before = this.#convs;
    let th: Threaded | null = null;
    // Conversations holding a changed exchange whose threading did not change: their
    // statuses are brought up to date.
    const also = new Set<Conversation>();
    if (!rethread) for (const seq of touchedSeqs) for (const c of this.#index.conversationsOf(seq) ?? []) also.add(c);
    if (!rethread && reanswers.length > 0) {
      const filed = this.#thread.reanswer(reanswers, (seq) => this.#index.roundsOf(seq), final, states);
      if (filed !== null) {
        const more = this.#thread.append(added, final, states, [...also]);
        th = { ...more, grown: [...new Set([...filed.grown, ...more.grown])] };
      }
    } else if (!rethread) th = this.#thread.append(added, final, states, [...also]);
    th ??= this.#thread.rebuild(this.#entries.all(), final, states);
    this.#convs = th.conversations;

    // 3. Which conversations changed, and the indexes rules read.
    let changed: Set<string>;
    let removed = new Set<string>();
    let changedConvs: Conversation[];
    let oldConvs: Conversation[] = [];
    if (th.full) {
      // What changed is told by comparing each conversation with the one of the same id
      // before (as it stood until now); the first step has nothing to compare with.
      const diff = compareThreadings(before, th.conversations, (seq) => this.#entries.at(seq)?.stamp ?? '');
      ({ changed, removed, changedConvs, oldConvs } = diff);
      this.#reindex(th.conversations);
      // Conversations waiting to be checked are the new objects of their ids now.
      this.#unchecked.renew(diff.now);
    } else {
      changed = new Set();
      changedConvs = [];
      for (const c of th.grown) if (!changed.has(c.id)) { changed.add(c.id); changedConvs.push(c); }
    }
    // An exchange whose new version threads the same still changes what lint sees.
    for (const seq of touchedSeqs) for (const c of this.#index.conversationsOf(seq) ?? []) if (!changed.has(c.id)) { changed.add(c.id); changedConvs.push(c); }
    if (!th.full) this.#index.extend(th.grown);

    // 4. What lint must re-check.
    const all = this.#relintAll || this.#entries.legacy;
    const listedFrom = earliestToolList(changedConvs, oldConvs);
    // A re-thread collected the lists afresh (`#reindex`).
    if (listedFrom !== Infinity && !th.full) this.#toolLists = refileToolLists(this.#toolLists, changedConvs, (c) => this.#index.placeOf(c) ?? Infinity, (seq) => this.#entries.at(seq)?.decoded);
    const { convs, seqs } = all ? { convs: [], seqs: new Set<number>() } : recheckScope(
      { changedConvs, oldConvs, touched: touchedSeqs, removed: oldSeqs, listedFrom },
      { conversations: this.#convs, index: this.#index, entries: this.#entries, issuedBy: (t) => this.#thread.origins(t) },
    );

    // 5. Queue what must be checked again, then check it (all of it, or what the budget allows).
    const u = this.#unchecked;
    // Everything is queued again when `all`: the step's own changes are the whole queue.
    const mine: { conversations: Set<string>; exchanges: Set<number> } | undefined = own && !all ? { conversations: new Set(), exchanges: new Set() } : undefined;
    if (all) {
      // Everything again, its findings kept until each is checked (a budgeted step on new
      // keys or legacy linking does not drop every count to 0 meanwhile); what is gone goes.
      for (const id of removed) this.#lint.setConversation(id, undefined);
      u.clear();
      for (const c of this.#convs) {
        u.addConversation(c);
        changed.add(c.id);
      }
      for (const s of this.#entries.seqs()) u.addExchange(s);
      for (const s of oldSeqs) u.addExchange(s);
    } else {
      for (const id of removed) {
        this.#lint.setConversation(id, undefined);
        u.withdraw(id);
      }
      for (const c of convs) {
        u.addConversation(c);
        mine?.conversations.add(c.id);
      }
      for (const s of seqs) {
        u.addExchange(s);
        mine?.exchanges.add(s);
      }
    }
    this.#relintAll = false;
    await this.#check(changed, checkMs, mine);
    for (const id of removed) changed.delete(id);
    return this.#result(changed, removed, th.full);
  }

  // Reads the tokens of the conversations waiting, then lints them, then the exchanges
  // waiting, newest first, a chunk at a time until `checkMs` is spent (unchecked-queue.ts).
  // Every conversation checked is `changed`, and so is every one a finding set or withdrawn
  // names (an exchange's findings name its conversation).
  async #check(changed: Set<string>, checkMs: number | undefined, only?: DrainScope): Promise<void> {
    for (const id of this.#lint.takeNamed()) if (id !== '') changed.add(id);
    if (this.#unchecked.size === 0) return;
    const now = this.#opts.now ?? clock;
    const until = checkMs === undefined ? Infinity : now() + checkMs;
    await this.#unchecked.drain(this.#opts.checkChunk ?? CHECK_CHUNK, () => now() < until, {
      conversations: async (chunk) => {
        // Each token once: most are both issued by one round and echoed by the next.
        const tokens = new Set<string>();
        for (const c of chunk) for (const t of tokensOf(c)) tokens.add(t);
        await this.#readings.readAll(tokens);
        const ctx = this.#context();
        return (c) => {
          this.#lint.setConversation(c.id, this.#runner.conversation(ctx, c));
          changed.add(c.id);
        };
      },
      exchanges: () => {
        const ctx = this.#context();
        return (s) => this.#lint.setExchange(s, this.#entries.at(s) ? this.#runner.exchange(ctx, s) : undefined);
      },
    }, only);
    for (const id of this.#lint.takeNamed()) if (id !== '') changed.add(id);
  }

  #result(changed: Set<string>, removed: Set<string>, full: boolean): EngineStep {
    const conversations = this.#convs;
    return engineStep({ conversations, changed, removed, full, unchecked: this.unchecked }, {
      findings: () => this.#lint.all(conversations.map((c) => c.id), this.#entries.seqs()),
      tokens: () => this.#readings.inOrder(conversations),
    });
  }

  #reindex(convs: readonly Conversation[]): void {
    this.#index.reset(convs);
    this.#toolLists = collectToolLists(convs, (seq) => this.#entries.at(seq)?.decoded);
  }

  /** The URL a token is read for: that of the exchange the batch analysis places it in. */
  #urlOf(token: string): string {
    const seq = this.#index.tokenExchange(token, this.#thread.origins(token));
    return seq === undefined ? '' : (this.#entries.at(seq)?.record.request.url ?? '');
  }

  #context(): LintContext {
    return lintContext({
      options: lintOptionsOf(this.#opts),
      conversations: this.#convs,
      entries: this.#entries,
      index: this.#index,
      toolLists: this.#toolLists,
      reading: (t) => this.#readings.reading(t),
      issuedBy: (t) => this.#thread.origins(t),
    });
  }
}
