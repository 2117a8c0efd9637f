// The IndexedDB schema and its upgrade ladder. Bump DB_VERSION and add one
// `if (oldVersion < n)` step per change; never edit a step that has shipped, since a
// browser may hold a database at any earlier version.
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { ExchangeRecord } from '../protocol.js';

export const DB_NAME = 'mrtr-inspector';
export const DB_VERSION = 2;

/** A named capture: every exchange the tap records belongs to exactly one. */
export interface SessionRecord {
  id: string;
  name: string;
  createdAt: number;
  /** Next `seq` to hand out; bumped in the same transaction that adds an exchange. */
  nextSeq: number;
  /** Made by importing a file: a finished capture, analysed as final (absent on older records). */
  imported?: boolean;
}

/** An MCP endpoint the user watches; the service worker taps requests to it. */
export interface TargetRecord {
  id: string;
  url: string;
  /** Calls go through the dev server's relay (for servers that send no CORS headers). */
  viaRelay: boolean;
  addedAt: number;
}

/** Known settings and their value types. Unknown keys are refused by the compiler. */
export interface SettingsMap {
  /** The session the tap records into. */
  captureSession: string;
  /** Keep captures across "clear" (devtools' "preserve log"). */
  preserveLog: boolean;
  /** The tap records (devtools' record toggle); absent means true. */
  recording: boolean;
  /**
   * Token verification keys the user asked to remember, per server (origin + path).
   * Hazard: secrets at rest; only ever written when the user ticks "remember".
   */
  tokenKeys: { server: string; text: string }[];
  /**
   * The Console's auto mode answers, per call target (server, method, tool) and key.
   * Hazard: never a secret; fields that look secret are taken out before they get here
   * (console/secret-fields.ts) and asked again after a reload.
   */
  consoleAnswers: { target: string; key: string; kind: string; response: Record<string, unknown>; withheld?: string[] }[];
}
export type SettingKey = keyof SettingsMap;

/** A stored exchange always has a session, so it appears in the session index. */
export type StoredExchange = ExchangeRecord & { session: string };

/**
 * Up to CHUNK_RECORDS exchanges of one session stored as one value (storage/chunks.ts):
 * in Chromium a request costs the same whatever its size, so a backlog or an import
 * stored a record per value spent its time on requests. Keyed by the number its
 * directory entry (`ChunkIds`) was given.
 */
export interface ChunkRecord {
  session: string;
  records: StoredExchange[];
}

/** A chunk's directory entry: which ids it holds (the id → chunk index), without bodies. */
export interface ChunkIds {
  session: string;
  ids: string[];
}

export interface MrtrSchema extends DBSchema {
  /** One value per exchange: the tap's progressive writes, and everything stored before chunks. */
  exchanges: {
    key: string;
    value: StoredExchange;
    indexes: { 'by-session-time': [string, number]; 'by-time': number };
  };
  sessions: { key: string; value: SessionRecord; indexes: { 'by-created': number } };
  targets: { key: string; value: TargetRecord; indexes: { 'by-url': string } };
  settings: { key: SettingKey; value: SettingsMap[SettingKey] };
  chunks: { key: number; value: ChunkRecord };
  chunkIds: { key: number; value: ChunkIds; indexes: { 'by-id': string; 'by-session': string } };
}

export type MrtrDatabase = IDBPDatabase<MrtrSchema>;

/** Runs every step between the stored version and DB_VERSION, in order. */
export function upgrade(
  db: MrtrDatabase,
  oldVersion: number,
  _newVersion: number | null,
  _tx: IDBPTransaction<MrtrSchema, StoreNames<MrtrSchema>[], 'versionchange'>,
): void {
  if (oldVersion < 1) {
    const exchanges = db.createObjectStore('exchanges', { keyPath: 'id' });
    exchanges.createIndex('by-session-time', ['session', 'startedAt']);
    exchanges.createIndex('by-time', 'startedAt');
    const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
    sessions.createIndex('by-created', 'createdAt');
    const targets = db.createObjectStore('targets', { keyPath: 'id' });
    targets.createIndex('by-url', 'url');
    db.createObjectStore('settings');
  }
  // Version 2 adds chunked storage beside the per-exchange store, which stays as it was:
  // what a version 1 database holds is read where it lies, so the upgrade moves nothing,
  // and a step that fails aborts the version change as a whole (the database stays at 1).
  if (oldVersion < 2) {
    db.createObjectStore('chunks');
    const ids = db.createObjectStore('chunkIds', { autoIncrement: true });
    // Unique: an id lives in one chunk at most, so a second writer's copy of an id is
    // refused by the database rather than stored twice (storage/chunks.ts).
    ids.createIndex('by-id', 'ids', { multiEntry: true, unique: true });
    ids.createIndex('by-session', 'session');
  }
  // if (oldVersion < 3) { ... }  ← the next change goes here.
}
