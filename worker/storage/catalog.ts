// Sessions, watched targets and settings: the small stores.
import type { Connection } from './connection.js';
import { StorageError, toStorageError } from './errors.js';
import type { SessionRecord, SettingKey, SettingsMap, TargetRecord } from './schema.js';

async function run<T>(doing: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toStorageError(err, doing);
  }
}

function newId(): string {
  return crypto.randomUUID();
}

export function listSessions(conn: Connection): Promise<SessionRecord[]> {
  return run('listing sessions', async () => (await conn.get()).getAllFromIndex('sessions', 'by-created'));
}

export function createSession(conn: Connection, name: string, now = Date.now(), imported = false): Promise<SessionRecord> {
  return run('creating a session', async () => {
    const rec: SessionRecord = { id: newId(), name, createdAt: now, nextSeq: 0, ...(imported ? { imported: true } : {}) };
    await (await conn.get()).add('sessions', rec);
    return rec;
  });
}

export function renameSession(conn: Connection, id: string, name: string): Promise<void> {
  return run('renaming a session', async () => {
    const db = await conn.get();
    const tx = db.transaction('sessions', 'readwrite');
    const s = await tx.store.get(id);
    if (!s) throw new StorageError('not-found', `No session with id ${id}.`);
    await Promise.all([tx.store.put({ ...s, name }), tx.done]);
  });
}

/** Removes a session record (its exchanges are cleared by the caller first: clearExchanges). */
export function deleteSession(conn: Connection, id: string): Promise<void> {
  return run('removing a session', async () => {
    await (await conn.get()).delete('sessions', id);
  });
}

/**
 * The session the tap records into, creating "Session 1" on first use. Created in one
 * transaction so two contexts starting at once (page and service worker) agree.
 */
export function currentSession(conn: Connection, now = Date.now()): Promise<SessionRecord> {
  return run('choosing the capture session', async () => {
    const db = await conn.get();
    // Nearly always there: read in one round trip and without a write lock. The relay feed
    // asks before every batch it numbers, and in a worker busy checking a backlog each round
    // trip waited for a turn of its event loop (three of them cost a live record 0.1–0.5 s).
    const read = db.transaction(['sessions', 'settings']);
    const [current, all] = await Promise.all([read.objectStore('settings').get('captureSession'), read.objectStore('sessions').getAll()]);
    const found = current === undefined ? undefined : all.find((x) => x.id === current);
    if (found) return found;
    const tx = db.transaction(['sessions', 'settings'], 'readwrite');
    const settings = tx.objectStore('settings');
    const sessions = tx.objectStore('sessions');
    const id = (await settings.get('captureSession')) as string | undefined;
    let s = id ? await sessions.get(id) : undefined;
    if (!s) {
      s = { id: newId(), name: 'Session 1', createdAt: now, nextSeq: 0 };
      await Promise.all([sessions.put(s), settings.put(s.id, 'captureSession')]);
    }
    await tx.done;
    return s;
  });
}

export function listTargets(conn: Connection): Promise<TargetRecord[]> {
  return run('listing watched targets', async () => {
    const all = await (await conn.get()).getAll('targets');
    return all.sort((a, b) => a.addedAt - b.addedAt);
  });
}

/** Watches a URL (idempotent: an already watched URL keeps its record, updated). */
export function addTarget(conn: Connection, t: { url: string; viaRelay?: boolean }, now = Date.now()): Promise<TargetRecord> {
  return run('adding a watched target', async () => {
    const db = await conn.get();
    const tx = db.transaction('targets', 'readwrite');
    const existing = await tx.store.index('by-url').get(t.url);
    const rec: TargetRecord = existing
      ? { ...existing, viaRelay: t.viaRelay ?? existing.viaRelay }
      : { id: newId(), url: t.url, viaRelay: t.viaRelay ?? false, addedAt: now };
    await Promise.all([tx.store.put(rec), tx.done]);
    return rec;
  });
}

export function removeTarget(conn: Connection, id: string): Promise<void> {
  return run('removing a watched target', async () => {
    await (await conn.get()).delete('targets', id);
  });
}

export function getSetting<K extends SettingKey>(conn: Connection, key: K): Promise<SettingsMap[K] | undefined> {
  return run('reading a setting', async () => (await (await conn.get()).get('settings', key)) as SettingsMap[K] | undefined);
}

export function setSetting<K extends SettingKey>(conn: Connection, key: K, value: SettingsMap[K]): Promise<void> {
  return run('saving a setting', async () => {
    await (await conn.get()).put('settings', value, key);
  });
}
