// One capture session as the worker holds it: the records (the source of truth), the
// analysis derived from them, and the list rows, rebuilt only when either changed. Each
// build feeds what changed to the session's engine, brings the rows up to date
// (session-rows.ts, one row each: conversation-summary.ts) and logs what changed for list
// deltas (change-log.ts). Filtering reads a build in session-list.ts; the page gets rows,
// never traffic.
//
// Held records: exchanges storage refused (quota) are laid over the stored ones
// (held-records.ts, which says why their seqs may change between builds).
//
// Lean records: given a body store, the model keeps stored records without their body texts
// once the engine has decoded them (decode/lean-record.ts); the detail pane, search, export
// and copy read bodies back on demand (view/body-reads.ts). Held copies keep theirs: they
// exist nowhere else, and so do records put `unstored` (relay records shown before they are
// written, capture/write-behind.ts) until `stored` says storage has them. A record put whole
// waits whole until the next build decodes it.
//
// Checks may trail (`checkMs`): a build threads and lists everything put, but reads tokens
// and lints only as long as the host allows (engine/analysis-engine.ts); `unchecked` says
// how much is left and `checkMore` goes on with it; a plain build (a page's read) checks only
// what its own changes queued, so it does not pay for the backlog's next slice. Rows of
// conversations not checked yet keep their findings as they were (none, for new ones) until then.
//
// Check changes may wait for the page's next notice (`defer`): a backlog's slices change
// rows' findings a few dozen at a time, and the page reads the rows changed since its copy.
// Logged at once, a live call's read carried every row the slices changed since the page's
// last read with its own (2,000-4,800 rows at 100k, 10-18 ms of the worker's and the page's
// time on the live call's way). A deferring slice logs none of its changes; a build that
// publishes (a slice the page is told of, the build that ends the checks) logs them all
// (change-log.ts). A plain build logs its own; a slice that lays records in is never
// deferred (new rows would wait).
import type { Analysis } from '../analysis.js';
import { AnalysisEngine, type EngineOptions, type EngineStep } from '../engine/analysis-engine.js';
import type { DecodedExchange, ExchangeRecord, Finding } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import type { TokenKey } from '../tokens/index.js';
import { indexAnalysis, type AnalysisIndex } from './conversation-view.js';
import { conversationSummary } from './conversation-summary.js';
import { HeldRecords, type UnsavedExchange } from './held-records.js';
import { ChangeLog, type LogMode } from './change-log.js';
import { SessionRows, type RowCounts, type RowEntry } from './session-rows.js';
import type { ConversationSummary } from './types.js';

export type { UnsavedExchange } from './held-records.js';

/** Everything derived from one version of the records. */
export interface Built {
  /** The whole analysis; its lists are built on first read (a live view reads rows). */
  analysis: Analysis;
  index: AnalysisIndex;
  rows: ConversationSummary[];
  byId: Map<string, RowEntry>;
  /** Findings outside any conversation (exchange-level), counted in the unfiltered status bar. */
  readonly loose: Finding[];
  /** Errors and warnings over every row, as of this build, tamper tests' expected findings
   *  apart (kept per row change, so the unfiltered status bar is not a walk over every row). */
  rowCounts: RowCounts;
  /** How many exchanges were analysed. */
  exchanges: number;
  /** A page of the records by ascending seq (`offset` from the start), as the engine holds
   *  them, with how many there are: without listing every record (`analysis.records`). */
  recordsPage(offset: number, limit: number): { total: number; items: readonly ExchangeRecord[] };
  /** Conversations and exchanges not checked yet (see the header): their findings trail. */
  unchecked: number;
  /** Ids of the rows that changed since the previous build (added, or different). */
  changed: ReadonlySet<string>;
  /** Ids of the rows gone since the previous build. */
  removed: ReadonlySet<string>;
  /** Names this build; `changesSince` tells what changed after an earlier one. */
  epoch: number;
  /** Ids changed and removed after build `since`, or null when that is too old to tell. */
  changesSince(since: number): { changed: Set<string>; removed: Set<string> } | null;
}

/** Where a lean model reads bodies back: storage (CaptureStore), or a test's stand-in. */
export type BodyStore = Pick<CaptureStore, 'getExchanges'>;

/** The model each build came from (body reads need its held copies and body store). */
const modelOfBuilt = new WeakMap<Built, SessionModel>();

/** The model a build came from. */
export function builtModel(b: Built): SessionModel | undefined {
  return modelOfBuilt.get(b);
}

export class SessionModel {
  readonly records = new Map<string, StoredExchange>();
  /** Bumped on every change of the records. */
  version = 0;
  /** How many analysis steps ran (each build of a changed version is one). */
  steps = 0;
  #built: { version: number; keys: number; result: Promise<Built> } | null = null;
  /** Ids whose record is not written yet (see the header): kept whole. */
  readonly #unstored = new Set<string>();
  /** Held copies by id (see the header): shown over the stored records until released. */
  readonly #held = new HeldRecords();
  /** The session's one engine: it keeps decodings, threading, readings and findings. */
  #engine: AnalysisEngine | null = null;
  #keys = -1;
  /** Ids put since the engine was last fed. */
  readonly #dirty = new Set<string>();
  /** The held copies changed since the engine was last fed: feed the merged view whole. */
  #overlay = false;
  /** seq → id, as last fed to the engine. */
  #fed = new Map<number, string>();
  /** The list rows, kept across builds. */
  readonly #rows = new SessionRows();
  /** What each recent build changed (for list deltas). */
  readonly #log = new ChangeLog();
  /** The capture is over (an imported file): a chain left waiting is abandoned, not in-progress. */
  readonly #final: boolean;
  /** Where bodies are read back; set, the model keeps lean records (see the header). */
  readonly bodies: BodyStore | null;
  /** How long a build may check (see the header), asked at each build; unset: everything. */
  readonly #checkMs: () => number | undefined;
  /** Engine options a test sets (the check chunk and clock). */
  readonly #engineOpts: Pick<EngineOptions, 'checkChunk' | 'now'>;

  constructor(
    records: Iterable<StoredExchange> = [],
    opts: { final?: boolean; bodies?: BodyStore; checkMs?: () => number | undefined; engine?: Pick<EngineOptions, 'checkChunk' | 'now'> } = {},
  ) {
    this.#final = opts.final ?? false;
    this.bodies = opts.bodies ?? null;
    this.#checkMs = opts.checkMs ?? (() => undefined);
    this.#engineOpts = opts.engine ?? {};
    for (const r of records) {
      this.records.set(r.id, r);
      this.#dirty.add(r.id);
    }
  }

  /** Lays records in; `unstored`: not written yet, so kept whole until `stored`. */
  put(records: Iterable<StoredExchange>, opts: { unstored?: boolean } = {}): void {
    for (const r of records) {
      this.records.set(r.id, r);
      this.#dirty.add(r.id);
      if (opts.unstored) this.#unstored.add(r.id);
      else this.#unstored.delete(r.id);
    }
    this.version += 1;
  }

  /** Records put `unstored` are written now: each that is still the one held may go lean,
   *  at once if the engine already decoded this very version, else at the build that does
   *  (`#settle`). The engine may still hold an older version of it (a pending copy, then the
   *  complete one written before the next build): that one must never replace it. */
  stored(records: Iterable<StoredExchange>): void {
    for (const r of records) {
      if (this.records.get(r.id) !== r || !this.#unstored.delete(r.id)) continue;
      const kept = this.bodies === null ? undefined : this.#engine?.keptCopy(r);
      if (kept !== undefined && kept !== r) this.records.set(r.id, kept as StoredExchange);
    }
  }

  /** The whole copy the model holds of an exchange storage does not have yet, if any. */
  unstored(id: string): StoredExchange | undefined {
    return this.#unstored.has(id) ? this.records.get(id) : undefined;
  }

  /** Holds (or replaces) copies of exchanges storage refused. */
  hold(records: Iterable<UnsavedExchange>): void {
    this.#held.hold(records);
    this.#overlay = true;
    this.version += 1;
  }

  /** Drops held copies (they were written, or their session was cleared). */
  release(ids: Iterable<string>): void {
    if (this.#held.release(ids)) {
      this.#overlay = true;
      this.version += 1;
    }
  }

  /** The held copy of an exchange, whole, if storage refused it. */
  held(id: string): UnsavedExchange | undefined {
    return this.#held.get(id);
  }

  /** One exchange as analysed: the held copy when there is one (lean when stored, in a lean model). */
  record(id: string): ExchangeRecord | undefined {
    return this.#held.record(id, this.records);
  }

  /** The stored records with the held copies laid over them, in no particular order. */
  merged(): StoredExchange[] {
    return this.#held.merged(this.records);
  }

  /** The analysis for the current records and keys (shared by concurrent callers). Only
   *  what changed since the last build is analysed again (engine/analysis-engine.ts). */
  built(keysFor: (url: string) => readonly TokenKey[], keysVersion: number): Promise<Built> {
    const b = this.#built;
    if (b && b.version === this.version && b.keys === keysVersion) return b.result;
    return this.#build(keysFor, keysVersion, this.#checkMs(), false, 'own');
  }

  /** Conversations and exchanges the builds so far left unchecked. */
  get unchecked(): number {
    return this.#engine?.unchecked ?? 0;
  }

  /** A build that goes on checking what earlier builds left (and lays in anything put since);
   *  `whole`: checks all of it, whatever the budget; `defer`: what it checks may wait for a
   *  later build to be logged (see the header); else it logs what earlier ones deferred too. */
  checkMore(keysFor: (url: string) => readonly TokenKey[], keysVersion: number, opts: { whole?: boolean; defer?: boolean } = {}): Promise<Built> {
    return this.#build(keysFor, keysVersion, opts.whole === true ? undefined : this.#checkMs(), true, opts.defer === true ? 'defer' : 'all');
  }

  /** Rows changed by checks that no build has logged yet. */
  get unpublished(): number {
    return this.#log.unpublished;
  }

  // `checkMs` undefined: everything is checked (never a default: `whole` passes undefined).
  // `backlog`: a budgeted build goes on with what earlier builds left, not only its own changes.
  // `log`: what it logs for list deltas (see the header).
  #build(keysFor: (url: string) => readonly TokenKey[], keysVersion: number, checkMs: number | undefined, backlog: boolean, log: LogMode): Promise<Built> {
    // A live capture is not over: waiting chains stay in-progress, not abandoned. An
    // imported file is a finished capture, read as the CLI reads it (final).
    // Each token is verified with its own server's key only: the demo key must not make
    // every other server's tokens read as forged.
    const engine = (this.#engine ??= new AnalysisEngine({ keysFor, keysGiven: true, final: this.#final, lean: this.bodies !== null, ...this.#engineOpts }));
    if (this.#keys !== keysVersion) {
      engine.setKeys(keysFor);
      this.#keys = keysVersion;
    }
    const fed = this.#feed(engine);
    this.steps += 1;
    const result = engine.step({ checkMs, backlog }).then((step) => {
      this.#settle(engine, fed);
      const built = this.#assemble(engine, step, log === 'defer' && fed.length > 0 ? 'all' : log);
      modelOfBuilt.set(built, this);
      return built;
    });
    this.#built = { version: this.version, keys: keysVersion, result };
    return result;
  }

  /** Swaps the whole records just decoded for the engine's lean copies, unless a newer one
   *  was put meanwhile (it waits for the next build). */
  #settle(engine: AnalysisEngine, fed: readonly StoredExchange[]): void {
    if (this.bodies === null) return;
    for (const r of fed) {
      if (this.records.get(r.id) !== r || this.#unstored.has(r.id)) continue;
      const kept = engine.keptCopy(r);
      if (kept !== undefined && kept !== r) this.records.set(r.id, kept as StoredExchange);
    }
  }

  /** Puts what changed into the engine; returns the records put. */
  #feed(engine: AnalysisEngine): StoredExchange[] {
    if (this.#overlay || this.#held.size > 0) {
      // Held copies renumber provisional seqs at each build (see the header): feed the
      // whole merged view; the engine re-analyses only the versions it has not seen.
      const merged = this.merged();
      const fed = new Map<number, string>();
      for (const r of merged) fed.set(r.seq, r.id);
      engine.remove([...this.#fed.keys()].filter((s) => !fed.has(s)));
      engine.put(merged);
      this.#fed = fed;
      this.#overlay = false;
      this.#dirty.clear();
      return merged;
    } else {
      const batch: StoredExchange[] = [];
      for (const id of this.#dirty) {
        const r = this.records.get(id);
        if (r === undefined) continue;
        batch.push(r);
        this.#fed.set(r.seq, r.id);
      }
      engine.put(batch);
      this.#dirty.clear();
      return batch;
    }
  }

  #assemble(engine: AnalysisEngine, step: EngineStep, log: LogMode): Built {
    let fallback: Map<string, Finding[]> | undefined;
    const findingsOf = (id: string): Finding[] | undefined => {
      const own = engine.findingsOf(id);
      if (own !== null) return own;
      // A rule threw: only the whole list reports each broken rule once.
      fallback ??= indexAnalysis({ records: [], decoded: [], findings: step.findings }).findingsByConversation as Map<string, Finding[]>;
      return fallback.get(id);
    };
    const index: AnalysisIndex = { bySeq: { get: (seq) => engine.entry(seq) }, findingsByConversation: { get: findingsOf } };
    this.#rows.update(step, (c) => conversationSummary(c, index));
    const convs = step.conversations;
    let records: readonly ExchangeRecord[] | undefined;
    let decoded: DecodedExchange[] | undefined;
    const analysis: Analysis = {
      get records() {
        return (records ??= engine.records());
      },
      get decoded() {
        return (decoded ??= this.records.map((r) => engine.entry(r.seq)!.decoded));
      },
      conversations: convs,
      get tokens() {
        return step.tokens;
      },
      get findings() {
        return step.findings;
      },
    };
    const epoch = this.steps;
    this.#log.logBuild(epoch, step.changed, step.removed, step.unchecked, log);
    const changeLog = this.#log;
    let loose: Finding[] | undefined;
    return {
      analysis, index, rows: this.#rows.sorted, byId: this.#rows.byId,
      get loose() {
        return (loose ??= findingsOf('') ?? []);
      },
      rowCounts: this.#rows.counts(),
      exchanges: this.#fed.size,
      recordsPage: (offset, limit) => ({ total: engine.recordCount, items: engine.recordsPage(offset, limit) }),
      unchecked: step.unchecked, changed: step.changed, removed: step.removed, epoch,
      changesSince: (since) => changeLog.since(since, epoch),
    };
  }
}
