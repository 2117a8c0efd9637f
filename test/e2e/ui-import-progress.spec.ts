// Importing a large file in the page streams it: a progress bar with Cancel shows while the
// worker reads it in batches (listed as read, stored behind), the session is shown before
// the file is read through, and Cancel keeps what was read, stored whole (named so), and
// says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
// The storage module's database name (as fixtures.ts names it).
const DB_NAME = 'mrtr-inspector';
import { generateCapture } from '../bench/generate-capture.ts';
import { expect, test } from './fixtures.ts';

// Stored exchanges of one session, counted in IndexedDB (reading 12k records back is slow):
// those stored a value each, and the ids of its chunks (worker/storage/chunks.ts).
function storedCount(page: Page, session: string): Promise<number> {
  return page.evaluate(([name, s]) => new Promise<number>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const range = IDBKeyRange.bound([s, -Infinity], [s, Infinity]);
      const tx = db.transaction(['exchanges', 'chunkIds']);
      const singles = tx.objectStore('exchanges').index('by-session-time').count(range);
      const chunks = tx.objectStore('chunkIds').index('by-session').getAll(s);
      tx.oncomplete = () => {
        db.close();
        resolve((chunks.result as { ids: string[] }[]).reduce((n, c) => n + c.ids.length, singles.result));
      };
      tx.onerror = () => reject(tx.error);
    };
  }), [DB_NAME, session] as const);
}

// Cancel must get in between batches (the page reads 2000 a batch, worker/services/import-api.ts),
// so that file is six batches long, room for a click on a loaded machine. A whole import
// needs no such room: three batches (the last one short) show the progress and the storing
// across batches as well as six did, at less than half the work.
const EXCHANGES = 12_000;
const WHOLE = 5_000;
let dir = '';
let file = '';
let whole = '';

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-import-'));
  file = join(dir, 'big-capture.har');
  await generateCapture(file, EXCHANGES);
  whole = join(dir, 'whole-capture.har');
  await generateCapture(whole, WHOLE);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A 12k-exchange file on a loaded 2-core machine: generous, and no timing asserted.
test.setTimeout(300_000);

test('a large import shows its progress and its session early, and Cancel keeps the stored part and says so', async ({ inspector, page }) => {
  void inspector;
  const before = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('import-file').setInputFiles(file);
  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  // Cancelled while the file is still being read (the first batch is listed; the reading
  // yields between batches, so the cancel gets in before the next one).
  await expect(page.getByTestId('import-listed')).not.toHaveText('0 read');
  await page.getByTestId('import-cancel').click();
  await expect(progress).toBeHidden();
  // Its session was shown.
  await expect(page.getByTestId('session-picker')).not.toHaveValue(before);

  const notice = page.getByTestId('notice').filter({ hasText: 'cancelled' });
  await expect(notice).toBeVisible();
  const kept = Number(/the first (\d+) exchanges were kept/.exec((await notice.textContent()) ?? '')?.[1]);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(EXCHANGES);
  const session = await page.getByTestId('session-picker').inputValue();
  await expect(page.getByTestId('session-picker').locator('option:checked')).toHaveText(`big-capture.har (first ${kept}, cancelled)`);
  // Exactly the records announced are stored: whole batches, nothing half-written, nothing
  // read and listed left unwritten; and the list shows those, not what was read.
  expect(await storedCount(page, session)).toBe(kept);
  await expect(page.getByTestId('count-exchanges')).toHaveText(`${kept} exchanges`);
});

test('a large import runs to the end with its progress shown, and every exchange is stored', async ({ inspector, page }) => {
  void inspector;
  await page.getByTestId('import-file').setInputFiles(whole);
  await expect(page.getByTestId('import-progress')).toBeVisible();
  await expect(page.getByTestId('import-progress')).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('notice').filter({ hasText: `Imported ${WHOLE} exchanges from whole-capture.har` })).toBeVisible();
  const session = await page.getByTestId('session-picker').inputValue();
  expect(await storedCount(page, session)).toBe(WHOLE);
});
