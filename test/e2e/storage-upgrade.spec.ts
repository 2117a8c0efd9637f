// A capture database in the layout builds before chunked storage left it (schema version 1:
// one value per exchange), written in the page's origin before the app first opens it, then
// opened by this build in a real browser: upgraded to version 2 in place, its session and
// every exchange listed, and a live exchange through the relay stored beside them (a new
// number, the old records untouched), all of it there again after a reload.
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, InspectorPage, relayCall, test, toolsCall } from './fixtures.ts';
import { SCHEMA_V1, type V1Store } from '../support/schema-v1.ts';

const OLD = 120;
const SESSION = 'old-session';

// The version 1 layout (test/support/schema-v1.ts), written in the page with IndexedDB's own API.
function writeVersion1(args: { session: string; records: ExchangeRecord[]; layout: readonly V1Store[] }): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('mrtr-inspector', 1);
    open.onupgradeneeded = () => {
      for (const s of args.layout) {
        const store = open.result.createObjectStore(s.name, s.keyPath === undefined ? {} : { keyPath: s.keyPath });
        for (const [name, keyPath] of s.indexes) store.createIndex(name, keyPath);
      }
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(['exchanges', 'sessions', 'settings'], 'readwrite');
      for (const r of args.records) tx.objectStore('exchanges').put({ ...r, session: args.session });
      tx.objectStore('sessions').put({ id: args.session, name: 'Kept from before', createdAt: 1, nextSeq: args.records.length });
      tx.objectStore('settings').put(args.session, 'captureSession');
      tx.oncomplete = () => {
        const version = db.version;
        db.close();
        resolve(version);
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

function databaseVersion(): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('mrtr-inspector');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const v = open.result.version;
      open.result.close();
      resolve(v);
    };
  });
}

// Relay-recorded tools/calls of the demo, as an older build stored them (complete, numbered 0…).
function oldRecords(): ExchangeRecord[] {
  return Array.from({ length: OLD }, (_, i) => ({
    v: 1, id: `old-${i}`, seq: i, source: 'relay', startedAt: 1_700_000_000_000 + i * 10, state: 'complete', endedAt: 1_700_000_000_005 + i * 10,
    request: { method: 'POST', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'content-type', value: 'application/json' }], body: toolsCall(i + 1, 'report') },
    response: { status: 200, receivedAt: 1_700_000_000_004 + i * 10, headers: [{ name: 'content-type', value: 'application/json' }], body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, result: { content: [{ type: 'text', text: `report ${i}` }] } }) },
  }));
}

test('a version 1 capture database is upgraded in a real browser: its session and exchanges listed, a live exchange stored beside them', async ({ page, relay }) => {
  // A page of the origin that does not start the app: the database is written before the app opens it.
  await page.goto('/favicon.svg');
  const old = oldRecords();
  expect(await page.evaluate(writeVersion1, { session: SESSION, records: old, layout: SCHEMA_V1 })).toBe(1);
  // Whatever an earlier test left in the relay's file is drained into the same session.
  const backlog = new Set((await relay.captureRecords()).map((r) => r.id)).size;

  const inspector = new InspectorPage(page);
  await inspector.open();
  expect(await page.evaluate(databaseVersion)).toBe(2);
  await expect(page.getByTestId('session-picker')).toHaveValue(SESSION);
  await expect(page.getByTestId('session-picker').locator('option:checked')).toContainText('Kept from before');
  await expect(page.getByTestId('count-exchanges')).toHaveText(`${OLD + backlog} exchanges`, { timeout: 30_000 });
  // Every old record reads back as it was stored.
  const before = await inspector.sessionExchanges(SESSION);
  for (const r of old) expect(before.find((x) => x.id === r.id)).toEqual({ ...r, session: SESSION });

  // A live call through the relay: numbered past the old records, stored beside them.
  expect((await relayCall(relay, toolsCall(9_001, 'report'))).status).toBe(200);
  await expect(page.getByTestId('count-exchanges')).toHaveText(`${OLD + backlog + 1} exchanges`, { timeout: 30_000 });
  await expect.poll(async () => (await inspector.sessionExchanges(SESSION)).length, { timeout: 30_000 }).toBe(OLD + backlog + 1);
  const after = await inspector.sessionExchanges(SESSION);
  const live = after.find((r) => !r.id.startsWith('old-') && (r.request.body ?? '').includes('9001'));
  expect(live).toBeDefined();
  expect(live!.seq).toBeGreaterThanOrEqual(OLD);
  expect(new Set(after.map((r) => r.seq)).size).toBe(after.length);
  for (const r of old) expect(after.find((x) => x.id === r.id)).toEqual({ ...r, session: SESSION });

  await page.reload();
  await inspector.waitUntilCapturing();
  await expect(page.getByTestId('count-exchanges')).toHaveText(`${OLD + backlog + 1} exchanges`, { timeout: 30_000 });
});
