// The page's side of the relay: exchanges of external MCP clients (recorded by the dev
// server's relay) are merged into IndexedDB and announced on the service worker's capture
// channel, so they reach the analysis worker and the lists exactly like tapped ones.
// Records are taken as they are: the only reading done here is the shared JSONL reader
// (worker/capture/jsonl.ts), which checks each record's shape; nothing parses traffic.
//
// Race, written down: the event stream vs the backlog. The relay files a record in its
// JSONL only while no page listens, so this page must be counted BEFORE it drains the
// file: open /relay/api/events, wait for `open` (the relay counts the page when it sends
// the stream's head), then POST /relay/api/backlog. What was filed before `open` is in the
// drain; what happens after is pushed. The two overlap, in any order: the relay keeps
// filing an id that already has a line even after a page connects, and a drain can hand
// over an older copy of an id the stream already pushed (or the other way round). Every
// copy of one id is therefore merged, never appended: `supersedes` lets only a later state
// (pending → streaming → complete/aborted/failed) or more events replace what is stored,
// so duplicates and late older copies are no-ops (here and in the storage transaction,
// which is what makes two open tabs merging the same push harmless too).
//
// Pushes are deltas (worker/capture/relay-push.ts): the relay sends an id's record so far
// once, then only what is new. The page keeps each open exchange's record as the pushes
// built it (`#live`) until it ends, and stores the whole record at each push, as before.
// The relay counts a reconnected stream as a new page (whole records again), so `#live`
// starts empty at every `open`.
//
// EventSource reconnects by itself after a drop (a dev-server restart; the service worker
// never proxies this stream, see web/sw/watch-list.ts). Whatever the relay recorded
// meanwhile went to the file, so EVERY `open` drains again, one drain at a time.
//
// Acknowledgement: the relay removes backlog records from its file only when this page
// says it stored them (POST /relay/api/backlog/ack with the drain id the backlog answer
// named; server/relay/backlog.ts). The ack is sent after the transaction holding the
// drained records committed, never before; a page closed in between, or a storage error
// (quota) on that batch, acknowledges nothing, and the records come again on the next
// drain (the next `open`), where merging makes the second copy harmless. Records pushed
// over the stream are not acknowledged (the relay keeps no copy), so a batch storage
// refuses is handed, record by record, to the page's held exchanges (`exchange-unsaved`,
// web/lib/held-exchanges.svelte.ts): shown, exported, and written on "Retry saving".
import { readJsonl } from '../../worker/capture/jsonl.js';
import { applyPush } from '../../worker/capture/relay-push.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { CaptureStore, StorageError, supersedes, type StorageErrorInfo, type StoredExchange } from '../../worker/storage/index.js';
import { CAPTURE_CHANNEL, type CaptureNotice } from '../sw/messages.js';

/** The relay's page API (server/relay/page-api.ts). */
export const RELAY_EVENTS = '/relay/api/events';
export const RELAY_BACKLOG = '/relay/api/backlog';
export const RELAY_BACKLOG_ACK = '/relay/api/backlog/ack';
/** The backlog answer's header naming the drain, to acknowledge it by. */
const DRAIN_HEADER = 'mrtr-drain';
/** "1" when the relay left lines out of this batch: drain again once it is acknowledged. */
const MORE_HEADER = 'mrtr-backlog-more';

// The notice a tap would have posted for a record at this stage.
function noticeFor(r: StoredExchange): CaptureNotice {
  const type = r.state === 'pending' ? 'exchange-start'
    : r.state === 'streaming' ? (r.response?.events?.length ? 'exchange-events' : 'exchange-head')
    : 'exchange-end';
  return { type, id: r.id, seq: r.seq };
}

function errorInfo(err: unknown): StorageErrorInfo {
  return err instanceof StorageError ? err.toInfo() : { kind: 'unknown', message: err instanceof Error ? err.message : String(err) };
}

/** Feeds relay captures into storage for as long as the page lives. */
export class RelayFeed {
  readonly #store = new CaptureStore();
  readonly #channel = new BroadcastChannel(CAPTURE_CHANNEL);
  #source: EventSource | null = null;
  /** Newest copy per id not yet written; filled while a write is in flight. */
  #pending = new Map<string, ExchangeRecord>();
  /** Open exchanges as the pushes since the last `open` built them (the base of the next delta). */
  #live = new Map<string, ExchangeRecord>();
  #writing: Promise<void> | null = null;
  /** Called with whether the next batch the write loop takes commits (see `#written`). */
  #waiters: ((stored: boolean) => void)[] = [];
  #draining: Promise<void> | null = null;
  #drainAgain = false;
  #stopped = false;

  /** Opens the event stream; the backlog is drained on each `open`. */
  start(): void {
    const source = new EventSource(RELAY_EVENTS);
    this.#source = source;
    source.onopen = () => {
      this.#live.clear();
      this.#drain();
    };
    source.onmessage = (e: MessageEvent<string>) => this.#take(e.data);
    // A CLOSED stream means no relay answered with an event stream (a static build served
    // without the dev server): there is nothing to feed, and direct capture still works.
    // Network drops leave it CONNECTING, and it comes back by itself.
    source.onerror = () => undefined;
  }

  stop(): void {
    this.#stopped = true;
    for (const w of this.#waiters.splice(0)) w(false);
    this.#source?.close();
    this.#source = null;
    this.#live.clear();
    this.#channel.close();
    this.#store.close();
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
    this.#queue(r);
  }

  #drain(): void {
    if (this.#draining) {
      this.#drainAgain = true; // reopened mid-drain: the file may have grown since we read it
      return;
    }
    this.#draining = this.#drainOnce().then((more) => {
      // A big backlog comes in bounded batches: the next one once this one is acknowledged.
      if (more) this.#drainAgain = true;
    }).finally(() => {
      this.#draining = null;
      if (this.#drainAgain && !this.#stopped) {
        this.#drainAgain = false;
        this.#drain();
      }
    });
  }

  // Resolves true when the batch was acknowledged and the relay holds more.
  async #drainOnce(): Promise<boolean> {
    let text: string;
    let drain: string | null;
    let more: boolean;
    try {
      const res = await fetch(RELAY_BACKLOG, { method: 'POST' });
      if (!res.ok) return false;
      drain = res.headers.get(DRAIN_HEADER);
      more = res.headers.get(MORE_HEADER) === '1';
      text = await res.text();
    } catch {
      return false; // the relay went away mid-drain; its next `open` drains again
    }
    // Later lines for an id replace earlier ones; records come in first-appearance order.
    const records = readJsonl(text).exchanges;
    if (records.length === 0) return false;
    // All queued before the loop is kicked, so one batch holds them all: its commit is
    // what the acknowledgement vouches for (see "Acknowledgement" above).
    for (const r of records) this.#add(r);
    const stored = this.#written();
    this.#kick();
    if (!(await stored) || !drain) return false;
    try {
      const ack = await fetch(RELAY_BACKLOG_ACK, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ drain, ids: records.map((r) => r.id) }),
      });
      return ack.ok && more;
    } catch {
      // Not acknowledged: the relay keeps the records and hands them out again.
      return false;
    }
  }

  // Resolves once the next batch the write loop takes (which holds everything queued so
  // far) is written: true when it committed, false when it failed or the feed stopped.
  // Hazard: call it before `#kick`, as the loop takes its first batch synchronously.
  #written(): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #queue(r: ExchangeRecord): void {
    this.#add(r);
    this.#kick();
  }

  #add(r: ExchangeRecord): void {
    if (this.#stopped) return;
    const have = this.#pending.get(r.id);
    if (!have || supersedes(r, have)) this.#pending.set(r.id, r);
  }

  #kick(): void {
    this.#writing ??= this.#write().finally(() => {
      this.#writing = null;
      // Queued after the loop's last check but before it cleared: write that too.
      if (this.#pending.size && !this.#stopped) this.#kick();
    });
  }

  // One transaction at a time, so writes land in order; each takes everything pending.
  async #write(): Promise<void> {
    while (this.#pending.size && !this.#stopped) {
      // Stable sort by start time: new ids get their session `seq` in the order the
      // clients sent them, whether they came from the backlog or the stream.
      const batch = [...this.#pending.values()].sort((a, b) => a.startedAt - b.startedAt);
      this.#pending.clear();
      const waiters = this.#waiters.splice(0);
      let session: string | null = null;
      try {
        // The session the service worker records into, re-read per batch so a switch of
        // session (settings) is followed as the worker follows it.
        session = (await this.#store.currentSession()).id;
        const written = await this.#store.mergeExchanges(session, batch);
        for (const w of waiters) w(true);
        for (const r of written) this.#announce(noticeFor(r));
      } catch (err) {
        for (const w of waiters) w(false);
        // As the tap does: storage refused (quota), so each record goes to the page's
        // held exchanges (shown, exported, written on "Retry saving") instead of being
        // dropped. Drained ones are also still in the relay's file (not acknowledged).
        // With no session to file them under (the settings read itself failed), one
        // notice says "Capture not saved" and later copies are tried again as they come.
        const error = errorInfo(err);
        if (session === null) this.#announce({ type: 'storage-error', id: batch[0]!.id, error });
        else for (const r of batch) this.#announce({ type: 'exchange-unsaved', id: r.id, record: { ...r, session }, error });
      }
    }
    // Stopped with records pending: nobody will write them.
    if (this.#stopped) for (const w of this.#waiters.splice(0)) w(false);
  }

  #announce(notice: CaptureNotice): void {
    try {
      this.#channel.postMessage(notice);
    } catch {
      // Closed channel (the page is going away): IndexedDB is the record, notices are hints.
    }
  }
}

/** Starts the feed for this page (call once, at page start). */
export function startRelayFeed(): RelayFeed {
  const feed = new RelayFeed();
  feed.start();
  return feed;
}
