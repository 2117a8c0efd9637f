// The analysis worker as the one owner of capture sessions: it hears the capture channel
// itself, reads each announced exchange once, lays it into the session it belongs to, and
// tells the page which sessions changed, so the page only re-reads its view. Records written
// here in the worker (relay feed, Console sends) come in through `apply`, with no re-read.
//
// Race, written down: several notices come per exchange, in bursts; ids are collected and
// read by one pass at a time, and a notice during a pass schedules exactly one more. A
// session whose model is not loaded is only reported: its first read loads it from storage.
// A Console send is laid in from the Console's own copy as soon as its answer is in, while
// the tap may still be writing its copy under the same id; a stored copy that is behind the
// one held (an earlier stage, fewer events) is therefore not laid over it, the tap's final
// copy replaces it once written.
import { supersedes, type CaptureStore, type StoredExchange } from '../storage/index.js';
import { storedIds, type CaptureNotice, type NoticeChannel } from '../capture/notices.js';
import type { SessionModel } from '../view/session-model.js';

export interface CaptureOwnerDeps {
  store: Pick<CaptureStore, 'getExchanges'>;
  sessions: Map<string, Promise<SessionModel>>;
  /** Schedules the analysis of a session that changed. */
  analyseSoon: (session: string) => void;
  /** Loads a session's model (copies not yet written must be laid in, storage lacks them). */
  load?: (session: string) => Promise<SessionModel>;
}

/** Told which sessions changed, once the worker holds the change. */
export type CaptureListener = (sessions: string[]) => void | Promise<void>;

export class CaptureOwner {
  readonly #deps: CaptureOwnerDeps;
  readonly #ids = new Set<string>();
  #reading: Promise<void> | null = null;
  #listener: CaptureListener | null = null;
  #channel: NoticeChannel | null = null;

  constructor(deps: CaptureOwnerDeps) {
    this.#deps = deps;
  }

  /** Listens on the capture channel (once; a second call replaces the first channel); `also` hears every notice too. */
  hear(channel: NoticeChannel, also?: (n: CaptureNotice) => void): void {
    this.#channel?.close();
    this.#channel = channel;
    channel.onmessage = (e) => {
      this.notice(e.data);
      also?.(e.data);
    };
  }

  /** Posts a notice for the other listeners (other tabs' workers, the page); never to this owner. */
  announce(notice: CaptureNotice): void {
    try {
      this.#channel?.postMessage(notice);
    } catch {
      // A closed channel (the worker is going away): IndexedDB is the record, notices are hints.
    }
  }

  /** The page's listener (one per page; a restarted worker gets it again). */
  listen(listener: CaptureListener | null): void {
    this.#listener = listener;
  }

  /** True while a page listens (is told of changes, and reads its view after). */
  get listening(): boolean {
    return this.#listener !== null;
  }

  /** One notice from the channel: committed writes are read and laid in. */
  notice(n: CaptureNotice): void {
    if (n.type === 'backlog-laid') {
      // Another tab's backlog run, not written yet: listed now, its stored copies replace
      // these as that tab's `exchanges-stored` notices come (a copy already held wins).
      void this.apply(n.records, { unstored: true, onlyNew: true });
      return;
    }
    // Refused writes are the page's to keep; a change of capture session is the relay feed's.
    for (const id of storedIds(n)) this.#ids.add(id);
    if (this.#ids.size === 0) return;
    this.#reading ??= this.#readAll().finally(() => {
      this.#reading = null;
      if (this.#ids.size) this.notice({ type: 'exchange-end', id: [...this.#ids][0]! });
    });
  }

  /**
   * Records written in this worker (what storage now holds, or the Console's copy), or, with
   * `unstored`, numbered copies shown before they are written (capture/write-behind.ts):
   * those are kept whole until `stored` says they are written; with `onlyNew`, only ids the
   * session does not hold yet are laid (another tab's copies, below any this worker holds).
   */
  async apply(records: readonly StoredExchange[], opts: { unstored?: boolean; onlyNew?: boolean } = {}): Promise<void> {
    const bySession = new Map<string, StoredExchange[]>();
    for (const r of records) {
      const list = bySession.get(r.session);
      if (list) list.push(r);
      else bySession.set(r.session, [r]);
    }
    for (const [session, list] of bySession) {
      const load = opts.unstored ? this.#deps.load : undefined;
      const model = await (load ? load(session) : this.#deps.sessions.get(session))?.catch(() => null);
      if (model) {
        const fresh = list.filter((r) => {
          const have = model.records.get(r.id);
          return !have || (!opts.onlyNew && (have === r || !supersedes(have, r)));
        });
        if (fresh.length) {
          model.put(fresh, { unstored: opts.unstored });
          this.#deps.analyseSoon(session);
        }
      }
    }
    if (bySession.size) this.#tell([...bySession.keys()]);
  }

  /**
   * Copies laid `unstored` are now written: their sessions may keep them lean. A session
   * that did not hold them (its model was dropped and loaded again meanwhile) gets them now.
   */
  async stored(records: readonly StoredExchange[]): Promise<void> {
    const missing: StoredExchange[] = [];
    for (const session of new Set(records.map((r) => r.session))) {
      const model = await this.#deps.sessions.get(session)?.catch(() => null);
      if (!model) continue;
      const mine = records.filter((r) => r.session === session);
      model.stored(mine);
      for (const r of mine) if (model.records.get(r.id) === undefined) missing.push(r);
    }
    if (missing.length) await this.apply(missing);
  }

  /** A session this worker changed itself (an import being read): analysed soon, the page told. */
  touched(session: string): void {
    this.#deps.analyseSoon(session);
    this.#tell([session]);
  }

  /** The session's analysis went on without a change of records (checks that trailed): the page is told. */
  checked(session: string): void {
    this.#tell([session], false);
  }

  /**
   * The session's copies differ from storage's (another writer numbered some of its
   * exchanges first): it is loaded again from storage on its next read.
   */
  reload(session: string): void {
    this.#deps.sessions.delete(session);
    this.#tell([session]);
  }

  /** Resolves once every notice heard so far is laid in. */
  async settled(): Promise<void> {
    while (this.#reading) await this.#reading;
  }

  async #readAll(): Promise<void> {
    while (this.#ids.size) {
      const ids = [...this.#ids];
      this.#ids.clear();
      // One read transaction for all of them (a chunk holding several is read once).
      const got: (StoredExchange | undefined)[] = await this.#deps.store.getExchanges(ids).catch(() => []);
      await this.apply(got.filter((r): r is StoredExchange => r !== undefined));
    }
  }

  /** When the page was last told of a change (Date.now()), 0 before the first time. */
  lastTold = 0;
  /** When the page was last told records changed (not checks' progress), 0 before the first time. */
  lastChanged = 0;

  // `records`: records changed (else only checks went on).
  #tell(sessions: string[], records = true): void {
    this.lastTold = Date.now();
    if (records) this.lastChanged = this.lastTold;
    // A page that went away: its listener (a comlink proxy) is gone with it.
    const l = this.#listener;
    if (l) void Promise.resolve().then(() => l(sessions)).catch(() => undefined);
  }
}
