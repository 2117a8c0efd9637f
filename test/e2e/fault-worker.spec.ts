// Issue 6, the analysis worker dies: by closing itself (no event reaches the page) or by an
// uncaught error. The page notices, starts a new worker, rebuilds the session from storage
// (and gives it again the keys entered this visit, which are still not stored), tells the
// user, and goes on capturing.
import { DEMO_STATE_KEY } from '../../worker/demo-key.ts';
import { analysisWorker, expect, test } from './fixtures.ts';

const RESTARTED = 'it was restarted and rebuilt the session from storage.';

test('an analysis worker that closes itself is noticed, restarted and rebuilt from storage, and a call made afterwards still appears', async ({ inspector, page }) => {
  await page.getByTestId('call-demo').click();
  await inspector.waitForStored((r) => new URL(r.request.url).pathname === '/demo/mcp' && r.state === 'complete', 'the demo call');
  const rows = page.locator('[data-testid="conversation"]');
  await expect(rows).toHaveCount(1);
  const before = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));

  const dying = await analysisWorker(page);
  await dying.evaluate(() => self.close()).catch(() => undefined); // it may not answer: it is closing
  await expect(page.getByTestId('notice').filter({ hasText: 'The analysis worker stopped' }))
    .toContainText(`The analysis worker stopped (it stopped without reporting an error: closed, or out of memory); ${RESTARTED}`);
  expect(await analysisWorker(page)).not.toBe(dying);
  await expect(rows).toHaveCount(before.length);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(before);

  await page.getByTestId('call-demo').click();
  await expect(rows.filter({ hasText: 'slow_report' })).toHaveCount(2);
});

test('an uncaught error in the analysis worker restarts it; the key entered this visit is applied again and still not stored', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  const rows = page.locator('[data-testid="conversation"]');
  const before = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  expect(before.length).toBeGreaterThan(1);
  await inspector.conversationRow('setup_wizard').click();
  await page.getByTestId('round').nth(1).getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  await page.getByTestId('key-input').fill(DEMO_STATE_KEY);
  await page.getByTestId('key-save').click();
  const token = page.getByTestId('token').first();
  await expect(token).toHaveAttribute('data-verified', 'true');

  const dying = await analysisWorker(page);
  await dying.evaluate(() => {
    setTimeout(() => {
      throw new Error('boom');
    });
  });
  await expect(page.getByTestId('notice').filter({ hasText: 'The analysis worker stopped' }))
    .toContainText(`The analysis worker stopped (an uncaught error: Uncaught Error: boom); ${RESTARTED}`);
  expect(await analysisWorker(page)).not.toBe(dying);
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(before);
  // The thread and the token were read again from the new worker, verified with the key
  // the page passed it again; the key is still not in storage ("remember" was not ticked).
  await expect(token).toHaveAttribute('data-verified', 'true');
  const stored = await page.evaluate(() => new Promise<unknown>((resolve) => {
    const open = indexedDB.open('mrtr-inspector');
    open.onsuccess = () => {
      const get = open.result.transaction('settings').objectStore('settings').get('tokenKeys');
      get.onsuccess = () => { open.result.close(); resolve(get.result ?? null); };
    };
  }));
  expect(JSON.stringify(stored ?? '')).not.toContain(DEMO_STATE_KEY);
});
