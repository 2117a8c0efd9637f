// The inspector's side of the relay, run by the analysis worker (the owner of capture
// sessions): exchanges of external MCP clients (recorded by the dev server's relay) are
// numbered into the capture session and laid into the worker's session (`laid`) before they
// are written to IndexedDB (capture/write-behind.ts: listing first, storing next), then
// announced on the capture channel for other tabs once written. Records are taken as they
// are: the only reading done here is the shared JSONL reader, which checks each record's
// shape. The backlog is read as it arrives, through the same streaming reader as a page
// import (capture/backlog-read.ts: importCaptureStream, in growing batches), laid in batch
// by batch, and written once it is read (or too much of it waits unwritten).
//
// Race, written down: the event stream vs the backlog. The relay files a record in its
// JSONL only while no page listens, so this feed must be counted BEFORE it drains the
// file: open /relay/api/events, wait for `open` (the relay counts the page when it sends
// the stream's head), then POST /relay/api/backlog. What was filed before `open` is in the
// drain; what happens after is pushed. The two overlap, in any order: the relay keeps
// filing an id that already has a line even after a page connects, and a drain can hand
// over an older copy of an id the stream already pushed (or the other way round). Every
// copy of one id is therefore merged, never appended: `supersedes` lets only a later state
// (pending → streaming → complete/aborted/failed) or more events replace what is stored,
// so duplicates and late older copies are no-ops (here and in the storage transaction,
// which is what keeps two tabs draining the same backlog correct too). A push is written by
// one tab only (capture/push-writer.ts), and a run of drains is made by one tab at a time
// (capture/backlog-lock.ts): the others list what it laid in and stored from its notices.
//
// Pushes are deltas (worker/capture/relay-push.ts): the relay sends an id's record so far
// once, then only what is new. The page keeps each open exchange's record as the pushes
// built it (`#live`) until it ends, and takes the whole record at each push.
// The relay counts a reconnected stream as a new page (whole records again), so `#live`
// starts empty at every `open`.
//
// EventSource reconnects by itself after a drop (a dev-server restart; the service worker
// never proxies this stream, see web/sw/watch-list.ts). Whatever the relay recorded
// meanwhile went to the file, so EVERY `open` drains again, one run of drains at a time (an
// `open` while the run still waits for another tab's is covered by that run).
//
// The backlog's drains, their read-ahead and their acknowledgements are capture/
// backlog-drains.ts. Records pushed over the stream are not acknowledged (the relay keeps
// no copy), so a batch storage refuses is handed, record by record, to the page's held
// exchanges (`exchange-unsaved` on the capture channel, web/lib/held-exchanges.svelte.ts):
// shown, exported, and written on "Retry saving".
import type { ExchangeRecord } from '../protocol.js';
import { supersedes, type CaptureStore, type StoredExchange } from '../storage/index.js';
import { BacklogDrains } from './backlog-drains.js';
import { BacklogShare } from './backlog-share.js';
import type { BacklogLock } from './backlog-lock.js';
import { applyPush } from './relay-push.js';
import { FollowedPushes, type PushWriter } from './push-writer.js';
import type { CaptureNotice } from './notices.js';
import { WriteBehind } from './write-behind.js';

/** The relay's event stream (server/relay/page-api.ts). */
export const RELAY_EVENTS = '/relay/api/events';

/** The part of an EventSource the feed uses (injectable: Node has none by default). */
export interface EventStream {
  onopen: ((e: Event) => void) | null;
  onmessage: ((e: MessageEvent<string>) => void) | null;
  onerror: ((e: Event) => void) | null;
  close(): void;
}

export interface RelayFeedDeps {
  store: CaptureStore;
  /** Opens the relay's event stream (an EventSource in the browser). */
  openEvents: (url: string) => EventStream;
  /** Defaults to the global fetch; relay paths are resolved against `base`. */
  fetch?: typeof fetch;
  /** The origin the relay paths are on (the worker's own location in the browser). */
  base: string;
  /** Numbered copies, shown before they are written (capture/write-behind.ts): lay them in. */
  laid: (records: StoredExchange[]) => void;
  /** Copies now committed: the owner may keep them lean. */
  stored: (records: StoredExchange[]) => void;
  /** Another writer stored some of these first: the session's copies differ from storage's. */
  collided: (session: string, ids: string[]) => void;
  /** Resolves once what was laid is listed, not necessarily checked: writes wait for it (the list comes first). */
  quiet?: () => Promise<void>;
  /** The copies of a session the worker holds, when it holds it: a pushed record is numbered
   *  against them, without asking storage (capture/write-behind.ts). */
  known?: (session: string) => ((id: string) => StoredExchange | undefined) | null;
  /** A drain is being read: its records are listed first, checked once it is read. */
  reading?: () => () => void;
  /** Pushes are being numbered, laid in once `laid` resolves: the host's checks wait for them. */
  arriving?: (laid: Promise<void>) => void;
  /** Notices for the other listeners (the page's held exchanges, other tabs' workers). */
  announce: (notice: CaptureNotice) => void;
  /** The memory bound of a backlog run (capture/backlog-drains.ts; a test's own). */
  readAheadBytes?: number;
  /** Whether this tab writes the pushes (capture/push-writer.ts); unset: it does. */
  writer?: Pick<PushWriter, 'leading' | 'onLead'>;
  /** How long a following tab waits for the writer's notice of a push before writing it itself (FOLLOW_WAIT_MS; a test's own). */
  followWaitMs?: number;
  /** One tab drains the backlog at a time (capture/backlog-lock.ts); unset: every run starts at once. */
  drainLock?: Pick<BacklogLock, 'hold' | 'progressed' | 'stop' | 'othersWaiting'>;
}

// The notice a tap would have posted for a record at this stage.
function noticeFor(r: StoredExchange): CaptureNotice {
  const type = r.state === 'pending' ? 'exchange-start'
    : r.state === 'streaming' ? (r.response?.events?.length ? 'exchange-events' : 'exchange-head')
    : 'exchange-end';
  return { type, id: r.id, seq: r.seq };
}

/** Feeds relay captures into storage for as long as the worker lives. */
export class RelayFeed {
  readonly #deps: RelayFeedDeps;
  readonly #drains: BacklogDrains;
  #source: EventStream | null = null;
  /** Pushes not yet taken, the newest copy per id; filled while a take is in flight. */
  #pending = new Map<string, ExchangeRecord>();
  #taking: Promise<void> | null = null;
  /** Open exchanges as the pushes since the last `open` built them (the base of the next delta). */
  #live = new Map<string, ExchangeRecord>();
  /** Pushes heard while another tab writes them (capture/push-writer.ts). */
  readonly #followed: FollowedPushes;
  readonly #behind: WriteBehind;
  #draining: Promise<void> | null = null;
  /** The run in `#draining` began reading (it is not waiting for another tab's any more). */
  #drainStarted = false;
  #drainAgain = false;
  /** What the run sends a tab waiting to drain after it (capture/backlog-share.ts); none without a drain lock. */
  readonly #share: BacklogShare | null;
  #stopped = false;

  constructor(deps: RelayFeedDeps) {
    this.#deps = deps;
    const lock = deps.drainLock;
    this.#share = lock ? new BacklogShare({
      othersWaiting: () => lock.othersWaiting(),
      post: (records) => deps.announce({ type: 'backlog-laid', records }),
      stopped: () => this.#stopped,
    }) : null;
    this.#behind = new WriteBehind({
      store: deps.store, collided: deps.collided, quiet: deps.quiet, known: deps.known,
      laid: (records) => {
        deps.laid(records);
        this.#share?.laid(records);
      },
      // One notice per committed write (a transaction), however many records it held.
      stored: (records) => {
        deps.stored(records);
        if (records.length === 1) deps.announce(noticeFor(records[0]!));
        else if (records.length > 1) deps.announce({ type: 'exchanges-stored', ids: records.map((r) => r.id) });
      },
      // As the tap does: storage refused (quota), so each record goes to the page's held
      // exchanges (shown, exported, written on "Retry saving") instead of being dropped.
      // Drained ones are also still in the relay's file (not acknowledged). With no session
      // to file them under (the settings read itself failed), one notice says "Capture not
      // saved" and later copies are tried again as they come.
      refused: (records, session, error) => {
        if (session === null) deps.announce({ type: 'storage-error', id: records[0]!.id, error });
        else for (const r of records) deps.announce({ type: 'exchange-unsaved', id: r.id, record: { ...r, session }, error });
      },
    });
    // Pushes another tab writes are kept, taken as this tab's own when none of its notices came.
    this.#followed = new FollowedPushes((r) => this.#queue(r), deps.followWaitMs);
    // Becoming the writer (the one before is gone): what it may not have stored is taken.
    deps.writer?.onLead(() => this.#followed.takeAll());
    this.#drains = new BacklogDrains({
      fetch: deps.fetch ?? ((input, init) => fetch(input, init)), base: deps.base, behind: this.#behind,
      reading: deps.reading, readAheadBytes: deps.readAheadBytes, stopped: () => this.#stopped,
      batchRead: (records) => this.#share?.batchRead(records),
      writing: () => this.#share?.writing(),
    });
  }

  /** Opens the event stream; the backlog is drained on each `open`. */
  start(): void {
    const source = this.#deps.openEvents(new URL(RELAY_EVENTS, this.#deps.base).href);
    this.#source = source;
    source.onopen = () => {
      this.#live.clear();
      this.#drain();
    };
    source.onmessage = (e) => this.#take(e.data);
    // A CLOSED stream means no relay answered with an event stream (a static build served
    // without the dev server): there is nothing to feed, and direct capture still works.
    // Network drops leave it CONNECTING, and it comes back by itself.
    source.onerror = () => undefined;
  }

  /** A notice another tab posted: what it says is stored is not kept for taking over. */
  heard(notice: CaptureNotice): void {
    if (notice.type === 'capture-session') this.#behind.sessionChanged();
    this.#followed.heard(notice);
    // Another tab's relay feed read or committed a batch: a run of drains it holds is moving.
    if (notice.type === 'exchanges-stored' || notice.type === 'backlog-laid') this.#deps.drainLock?.progressed();
  }

  /** The session was cleared (its numbering restarted): the numbers held for it are dropped. */
  forgetNumbers(session: string): void {
    this.#behind.forgetNumbers(session);
  }

  stop(): void {
    this.#stopped = true;
    this.#pending.clear();
    this.#followed.stop();
    this.#deps.drainLock?.stop();
    this.#behind.stop();
    this.#source?.close();
    this.#source = null;
    this.#live.clear();
  }

  /** Resolves once no drain and no write is in flight (tests and benches). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.#draining || this.#taking) await (this.#draining ?? this.#taking);
      await this.#behind.idle();
      if (!this.#draining && !this.#taking) return;
    }
  }

  // One push: the record so far or what is new, checked by the shared reader (bad shapes,
  // unknown versions and deltas without their base are skipped).
  #take(data: string): void {
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    const r = applyPush(message, (id) => this.#live.get(id));
    if (!r) return;
    if (r.state === 'pending' || r.state === 'streaming') this.#live.set(r.id, r);
    else this.#live.delete(r.id);
    if (this.#deps.writer && !this.#deps.writer.leading) this.#followed.keep(r);
    else this.#queue(r);
  }

  #drain(): void {
    if (this.#draining) {
      // Reopened mid-drain: the file may have grown since it was read. A run still waiting
      // for another tab's has read nothing yet, and covers this `open` too.
      if (this.#drainStarted) this.#drainAgain = true;
      return;
    }
    const run = () => {
      this.#drainStarted = true;
      this.#share?.begin();
      return this.#drains.run().finally(() => this.#share?.end());
    };
    this.#drainStarted = false;
    this.#draining = (this.#deps.drainLock ? this.#deps.drainLock.hold(run) : run()).finally(() => {
      this.#draining = null;
      this.#drainStarted = false;
      if (this.#drainAgain && !this.#stopped) {
        this.#drainAgain = false;
        this.#drain();
      }
    });
  }

  // Pushes are taken one batch at a time: those arriving meanwhile wait in `#pending`
  // (the newest copy per id), so a stream of events costs a numbering per batch, not per event.
  #queue(r: ExchangeRecord): void {
    if (this.#stopped) return;
    const have = this.#pending.get(r.id);
    if (!have || supersedes(r, have)) this.#pending.set(r.id, r);
    if (this.#taking) return;
    this.#taking = this.#takePending();
    this.#deps.arriving?.(this.#taking);
  }

  async #takePending(): Promise<void> {
    try {
      while (this.#pending.size > 0 && !this.#stopped) {
        const batch = [...this.#pending.values()];
        this.#pending.clear();
        await this.#behind.take(batch).laid;
      }
    } finally {
      this.#taking = null;
    }
  }
}
