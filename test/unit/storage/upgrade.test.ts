// The schema's upgrade ladder (worker/storage/schema.ts) on a database written with the
// version 1 layout, as builds before chunked storage left it: opened through the real
// upgrade path, every record and body reads back as stored, and new writes land beside
// them; an upgrade that fails midway leaves the database at version 1, all of it readable.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';
import { DB_VERSION, upgrade, type MrtrSchema } from '../../../worker/storage/schema.js';
import { SCHEMA_V1 } from '../../support/schema-v1.js';

// The version 1 layout (test/support/schema-v1.ts).
async function writeVersion1(name: string, records: StoredExchange[]): Promise<void> {
  const db = await openDB(name, 1, {
    upgrade(d) {
      for (const s of SCHEMA_V1) {
        const store = d.createObjectStore(s.name, s.keyPath === undefined ? {} : { keyPath: s.keyPath });
        for (const [index, keyPath] of s.indexes) store.createIndex(index, keyPath);
      }
    },
  });
  const tx = db.transaction(['exchanges', 'sessions', 'settings'], 'readwrite');
  for (const r of records) void tx.objectStore('exchanges').put(r);
  void tx.objectStore('sessions').put({ id: 's', name: 'Session 1', createdAt: 1, nextSeq: records.length });
  void tx.objectStore('settings').put('s', 'captureSession');
  await tx.done;
  db.close();
}

function records(count: number): StoredExchange[] {
  return Array.from({ length: count }, (_, i) => ({
    v: 1, id: `old-${i}`, seq: i, session: 's', source: i % 2 ? 'relay' : 'sw', startedAt: 5000 + i, state: 'complete',
    request: { method: 'POST', url: 'http://t/mcp', headers: [{ name: 'content-type', value: 'application/json' }], body: `{"jsonrpc":"2.0","id":${i},"method":"tools/call"}` },
    response: i % 3 === 0
      ? { status: 200, receivedAt: 5001 + i, headers: [], events: [{ t: 5002 + i, event: 'message', data: `{"n":${i}}` }], tail: 'data: {"cut' }
      : { status: 200, receivedAt: 5001 + i, headers: [], body: `{"jsonrpc":"2.0","id":${i},"result":{"n":${i}}}` },
    endedAt: 5003 + i,
  }));
}

describe('upgrading a stored capture database', () => {
  it('reads every record and body a version 1 database held, and adds new ones beside them', async () => {
    const old = records(700);
    await writeVersion1('upgrade-ok', old);
    const store = new CaptureStore('upgrade-ok');
    try {
      for (const r of old.slice(0, 50)) expect(await store.getExchange(r.id)).toEqual(r);
      expect(await store.getExchanges(old.map((r) => r.id))).toEqual(old);
      const listed: StoredExchange[] = [];
      for await (const page of store.allExchanges('s')) listed.push(...page);
      expect(listed).toEqual(old);
      expect((await store.currentSession()).nextSeq).toBe(700);

      const [merged] = await store.mergeExchanges('s', [{ ...old[0]!, state: 'complete', error: 'again' }, ...records(0)]);
      expect(merged).toBeUndefined(); // a final stored copy stands
      const fresh = await store.mergeExchanges('s', Array.from({ length: 300 }, (_, i) => ({ ...old[0]!, id: `new-${i}`, startedAt: 9000 + i })));
      expect(fresh.map((r) => r.seq)).toEqual(Array.from({ length: 300 }, (_, i) => 700 + i));
      expect(await store.countExchanges('s')).toBe(1000);
      expect(await store.getExchange('old-699')).toEqual(old[699]);
    } finally {
      store.close();
    }
    const db = await openDB('upgrade-ok');
    expect(db.version).toBe(DB_VERSION);
    db.close();
  });

  it('leaves a version 1 database readable, as it was, when the upgrade fails midway', async () => {
    const old = records(120);
    await writeVersion1('upgrade-fails', old);
    await expect(openDB<MrtrSchema>('upgrade-fails', DB_VERSION, {
      upgrade(db, from, to, tx) {
        tx.done.catch(() => undefined); // aborted below, on purpose
        upgrade(db, from, to, tx);
        throw new Error('the browser gave up midway');
      },
    })).rejects.toThrow();
    const db = await openDB('upgrade-fails');
    expect(db.version).toBe(1);
    expect([...db.objectStoreNames].sort()).toEqual(['exchanges', 'sessions', 'settings', 'targets']);
    const byId = (a: StoredExchange, b: StoredExchange) => a.id.localeCompare(b.id);
    expect((await db.getAll('exchanges')).sort(byId)).toEqual([...old].sort(byId));
    db.close();
    // And the next open upgrades it after all.
    const store = new CaptureStore('upgrade-fails');
    expect(await store.getExchanges(old.map((r) => r.id))).toEqual(old);
    store.close();
  });
});
