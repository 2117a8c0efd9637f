// The storage module: the only code that touches IndexedDB (and the only importer of
// `idb`). The service worker, the analysis worker and the page each make one
// CaptureStore; they share the database, not the object.
import { Connection } from './connection.js';
import * as catalog from './catalog.js';
import * as exchanges from './exchanges.js';
import * as reserve from './reserve.js';
import * as reads from './reads.js';
import type { ExchangeEnd, NewExchange, ResponseHead } from './exchanges.js';
import type { ExchangePage, PageCursor } from './reads.js';
import type { SessionRecord, SettingKey, SettingsMap, StoredExchange, TargetRecord } from './schema.js';
import type { ExchangeRecord, SseEventRecord } from '../protocol.js';

export { isFinal, supersedes } from './exchanges.js';

export { StorageError, isQuotaError, storageErrorInfo, type StorageErrorInfo, type StorageErrorKind } from './errors.js';
export { DB_NAME, DB_VERSION } from './schema.js';
export type { SessionRecord, SettingKey, SettingsMap, StoredExchange, TargetRecord } from './schema.js';
export type { ExchangeEnd, NewExchange, ResponseHead } from './exchanges.js';
export type { ExchangePage, PageCursor } from './reads.js';
export type { ReservedCopy, SeqBlock } from './reserve.js';

/** Typed access to the capture database. Every method throws only StorageError. */
export class CaptureStore {
  readonly #conn: Connection;
  /** `name` is for tests; everything else uses the default database. */
  constructor(name?: string) {
    this.#conn = new Connection(name);
  }

  // Exchanges: progressive writes, in the order the tap makes them.
  addExchange(rec: NewExchange): Promise<StoredExchange> { return exchanges.addExchange(this.#conn, rec); }
  /** A tapped Console send: fills in the Console's pending record; null when a final copy stands. */
  fillExchange(rec: NewExchange): Promise<StoredExchange | null> { return exchanges.fillExchange(this.#conn, rec); }
  putExchange(rec: StoredExchange): Promise<void> { return exchanges.putExchange(this.#conn, rec); }
  putExchanges(recs: readonly StoredExchange[]): Promise<void> { return exchanges.putExchanges(this.#conn, recs); }
  /** Relay records into a session: new ids get a seq, known ids only move forward. */
  mergeExchanges(session: string, recs: readonly ExchangeRecord[]): Promise<StoredExchange[]> {
    return exchanges.mergeExchanges(this.#conn, session, recs);
  }
  /** A block of `count` numbers of a session, reserved in a transaction over sessions alone (storage/reserve.ts). */
  reserveSeqs(session: string, count: number, after?: number): Promise<reserve.SeqBlock> {
    return reserve.reserveSeqs(this.#conn, session, count, after);
  }
  /** The stored copy of each record's id (undefined for a new id), in one read transaction. */
  lookupExchanges(recs: readonly { id: string }[]): Promise<(StoredExchange | undefined)[]> { return reserve.lookupExchanges(this.#conn, recs); }
  /** Writes reserved copies; resolves to the ids another writer stored first. */
  writeReserved(items: readonly reserve.ReservedCopy[]): Promise<string[]> { return reserve.writeReserved(this.#conn, items); }
  updateExchange(id: string, change: (rec: StoredExchange) => StoredExchange | void): Promise<StoredExchange> {
    return exchanges.updateExchange(this.#conn, id, change);
  }
  setResponseHead(id: string, head: ResponseHead, streaming: boolean): Promise<StoredExchange> {
    return exchanges.setResponseHead(this.#conn, id, head, streaming);
  }
  appendEvents(id: string, events: readonly SseEventRecord[]): Promise<StoredExchange> {
    return exchanges.appendEvents(this.#conn, id, events);
  }
  endExchange(id: string, end: ExchangeEnd): Promise<StoredExchange> { return exchanges.endExchange(this.#conn, id, end); }

  // Exchanges: reads.
  getExchange(id: string): Promise<StoredExchange | undefined> { return reads.getExchange(this.#conn, id); }
  /** Exchanges by id in one read transaction, in the order asked (undefined where missing). */
  getExchanges(ids: readonly string[]): Promise<(StoredExchange | undefined)[]> { return reads.getExchanges(this.#conn, ids); }
  pageExchanges(session: string, opts?: { after?: PageCursor | null; limit?: number }): Promise<ExchangePage> {
    return reads.pageExchanges(this.#conn, session, opts);
  }
  countExchanges(session: string): Promise<number> { return reads.countExchanges(this.#conn, session); }
  clearExchanges(session: string): Promise<void> { return exchanges.clearExchanges(this.#conn, session); }

  /** Every exchange of a session, a page at a time (for the analysis worker). */
  async *allExchanges(session: string, pageSize = 500): AsyncGenerator<StoredExchange[]> {
    let after: PageCursor | null = null;
    do {
      const page: ExchangePage = await this.pageExchanges(session, { after, limit: pageSize });
      if (page.items.length) yield page.items;
      after = page.next;
    } while (after);
  }

  // Sessions.
  listSessions(): Promise<SessionRecord[]> { return catalog.listSessions(this.#conn); }
  /** `imported`: the session holds a file read in (a finished capture). */
  createSession(name: string, opts: { imported?: boolean } = {}): Promise<SessionRecord> {
    return catalog.createSession(this.#conn, name, Date.now(), opts.imported ?? false);
  }
  renameSession(id: string, name: string): Promise<void> { return catalog.renameSession(this.#conn, id, name); }
  /** Removes a session and its exchanges (an import given up half way). */
  async deleteSession(id: string): Promise<void> {
    await exchanges.clearExchanges(this.#conn, id);
    await catalog.deleteSession(this.#conn, id);
  }
  currentSession(): Promise<SessionRecord> { return catalog.currentSession(this.#conn); }
  setCurrentSession(id: string): Promise<void> { return catalog.setSetting(this.#conn, 'captureSession', id); }

  // Watched targets.
  listTargets(): Promise<TargetRecord[]> { return catalog.listTargets(this.#conn); }
  addTarget(t: { url: string; viaRelay?: boolean }): Promise<TargetRecord> { return catalog.addTarget(this.#conn, t); }
  removeTarget(id: string): Promise<void> { return catalog.removeTarget(this.#conn, id); }

  // Settings.
  getSetting<K extends SettingKey>(key: K): Promise<SettingsMap[K] | undefined> { return catalog.getSetting(this.#conn, key); }
  setSetting<K extends SettingKey>(key: K, value: SettingsMap[K]): Promise<void> { return catalog.setSetting(this.#conn, key, value); }

  close(): void { this.#conn.close(); }
}
