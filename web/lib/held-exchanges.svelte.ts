// Exchanges storage refused (storage full), kept in the page's memory until they
// are written. The service worker posts each such exchange whole (`exchange-unsaved`, again
// after every later step); this keeps the newest copy per id, hands it to the analysis
// worker (which shows and exports it with its session), and writes everything held on
// "Retry saving". The page is the only keeper: the service worker forgets what it posted,
// and a restarted analysis worker gets the copies again (`resend`). Closing the page loses
// them, so the page asks before unloading while any are held.
//
// Race, written down: a copy can arrive while a retry is writing. Only the copies that were
// written leave (compared by identity); a newer copy of the same id that arrived meanwhile
// stays held, and the next retry writes it (storage keeps whichever copy is further along).
import type { UnsavedExchange } from '../../worker/facade.js';
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import { CaptureStore, StorageError, supersedes, type StorageErrorInfo } from '../../worker/storage/index.js';
import type { Analysis } from './analysis-client.js';
import { saveText } from './download.js';

export interface HeldDeps {
  store: CaptureStore;
  api: () => Analysis | null;
  /** Re-reads the lists after something held changed. */
  refresh: () => Promise<void>;
  /** The name of a session, for export file names. */
  nameOf: (session: string) => string;
  say: (message: string) => void;
}

const asRecord = (r: UnsavedExchange) => ({ ...r, v: PROTOCOL_VERSION, seq: r.seq ?? 0 });

export class HeldExchanges {
  #count = $state(0);
  #error = $state.raw<StorageErrorInfo | null>(null);
  #retryError = $state<string | null>(null);
  #busy = $state(false);
  readonly #records = new Map<string, UnsavedExchange>();
  readonly #deps: HeldDeps;

  constructor(deps: HeldDeps) {
    this.#deps = deps;
  }

  /** How many exchanges exist only in this page's memory. */
  get count(): number { return this.#count; }
  /** Why storage refused them (the latest report). */
  get error(): StorageErrorInfo | null { return this.#error; }
  /** Why the last "Retry saving" failed, if it did. */
  get retryError(): string | null { return this.#retryError; }
  get busy(): boolean { return this.#busy; }

  /** A copy from the service worker: kept unless an equal or later copy is already held. */
  take(record: UnsavedExchange, error: StorageErrorInfo): void {
    const have = this.#records.get(record.id);
    if (have && !supersedes(asRecord(record), asRecord(have))) return;
    this.#records.set(record.id, record);
    this.#error = error;
    this.#sync();
    void this.#deps.api()?.capture.hold([record]).catch(() => undefined); // a dead worker gets them on restart
  }

  /**
   * A write for this id committed (this tab's retry, or another tab or writer that had
   * room): if storage now has a copy as far along as the held one, the held one is no
   * longer the only copy and leaves memory.
   */
  async settled(id: string): Promise<void> {
    const have = this.#records.get(id);
    if (!have) return;
    const stored = await this.#deps.store.getExchange(id).catch(() => undefined);
    if (!stored || this.#records.get(id) !== have || supersedes(asRecord(have), stored)) return;
    this.#records.delete(id);
    this.#sync();
    await this.#deps.api()?.capture.release(have.session, [id]).catch(() => undefined);
    await this.#deps.refresh();
  }

  /** Hands everything held to a (new) analysis worker. */
  async resend(api: Analysis): Promise<void> {
    if (this.#records.size) await api.capture.hold([...this.#records.values()]);
  }

  /** Forgets what is held for a session the user cleared. */
  async drop(session: string): Promise<void> {
    const ids = [...this.#records.values()].filter((r) => r.session === session).map((r) => r.id);
    if (!ids.length) return;
    for (const id of ids) this.#records.delete(id);
    this.#sync();
    await this.#deps.api()?.capture.release(session, ids).catch(() => undefined); // a restarted worker has none
  }

  /** "Retry saving": writes everything held; what was written leaves memory. */
  async retry(): Promise<boolean> {
    if (this.#busy || this.#records.size === 0) return this.#records.size === 0;
    this.#busy = true;
    try {
      for (const [session, batch] of this.#bySession()) {
        // In send order, so never-stored exchanges get their session numbers in that order.
        batch.sort((a, b) => a.startedAt - b.startedAt);
        await this.#deps.store.mergeExchanges(session, batch.map(asRecord));
        const written = batch.filter((r) => this.#records.get(r.id) === r).map((r) => r.id);
        for (const id of written) this.#records.delete(id);
        this.#sync();
        // A restarted worker reads them from storage anyway: a dead one is no failure here.
        await this.#deps.api()?.capture.release(session, written).catch(() => undefined);
      }
      this.#retryError = null;
      return true;
    } catch (err) {
      this.#retryError = err instanceof StorageError ? err.message : `Unexpected error: ${String(err)}`;
      return false;
    } finally {
      this.#busy = false;
      await this.#deps.refresh();
    }
  }

  /** "Export now": each session that holds exchanges, as JSONL (sanitised, like Export). */
  async exportNow(): Promise<void> {
    const api = this.#deps.api();
    if (!api) return this.#deps.say('The analysis worker is restarting; try Export again in a moment.');
    for (const session of this.#bySession().keys()) {
      const got = await api.transfer.exportCapture(session, { format: 'jsonl', name: this.#deps.nameOf(session) });
      if (!got.ok) this.#deps.say(`Export failed: ${got.error.message}`);
      else saveText(got.value.text, got.value.fileName, 'application/x-ndjson');
    }
  }

  /** While anything is held, closing the page would lose it: the browser asks first. Returns the undo. */
  guardUnload(): () => void {
    const ask = (e: BeforeUnloadEvent): void => {
      if (this.#records.size > 0) e.preventDefault();
    };
    addEventListener('beforeunload', ask);
    return () => removeEventListener('beforeunload', ask);
  }

  #bySession(): Map<string, UnsavedExchange[]> {
    const out = new Map<string, UnsavedExchange[]>();
    for (const r of this.#records.values()) out.set(r.session, [...(out.get(r.session) ?? []), r]);
    return out;
  }

  #sync(): void {
    this.#count = this.#records.size;
    if (this.#count === 0) {
      this.#error = null;
      this.#retryError = null;
    }
  }
}
