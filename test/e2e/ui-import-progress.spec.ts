// Importing a large file in the page streams it: a progress bar with Cancel shows while the
// worker reads and stores it in batches, the session is shown before the file is read
// through, and Cancel keeps what was stored (named so) and says so.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCapture } from '../bench/generate-capture.ts';
import { expect, test } from './fixtures.ts';

const EXCHANGES = 12_000;
let dir = '';
let file = '';

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mrtr-import-'));
  file = join(dir, 'big-capture.har');
  await generateCapture(file, EXCHANGES);
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a large import shows its progress and its session early, and Cancel keeps the stored part and says so', async ({ inspector, page }) => {
  void inspector;
  const before = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('import-file').setInputFiles(file);
  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  // The first batch is stored and its session shown while the file is still being read.
  await expect(page.getByTestId('import-stored')).not.toHaveText('0 stored');
  await expect(page.getByTestId('session-picker')).not.toHaveValue(before);
  await expect(progress).toBeVisible();
  await page.getByTestId('import-cancel').click();
  await expect(progress).toBeHidden();

  const notice = page.getByTestId('notice').filter({ hasText: 'cancelled' });
  await expect(notice).toBeVisible();
  const kept = Number(/the first (\d+) exchanges were kept/.exec((await notice.textContent()) ?? '')?.[1]);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(EXCHANGES);
  const session = await page.getByTestId('session-picker').inputValue();
  await expect(page.getByTestId('session-picker').locator('option:checked')).toHaveText(`big-capture.har (first ${kept}, cancelled)`);
  // Exactly the records announced are stored: whole batches, nothing half-written.
  expect(await inspector.sessionExchanges(session)).toHaveLength(kept);
});

test('a large import runs to the end with its progress shown, and every exchange is stored', async ({ inspector, page }) => {
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByTestId('import-progress')).toBeVisible();
  await expect(page.getByTestId('import-progress')).toBeHidden({ timeout: 120_000 });
  await expect(page.getByTestId('notice').filter({ hasText: `Imported ${EXCHANGES} exchanges from big-capture.har` })).toBeVisible();
  const session = await page.getByTestId('session-picker').inputValue();
  expect(await inspector.sessionExchanges(session)).toHaveLength(EXCHANGES);
});
