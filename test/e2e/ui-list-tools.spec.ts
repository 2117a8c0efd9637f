// The conversation list's devtools basics: a click on a column header sorts (aria-sort says
// how, j/k follow the sorted order, a third click gives back capture order), a row's context
// menu copies its request and URL, re-sends it and filters the list to its tool, and a call
// that runs as a task is marked in the list.
import { expect, test } from './fixtures.ts';
import { taskCapture } from './fixtures/task-capture.ts';

const MANUAL = 'test/fixtures/sdk/sdk-v2-manual.har';

const ms = (t: string) => (t.endsWith(' ms') ? Number(t.slice(0, -3)) : Number(t.slice(0, -2)) * 1000);

test('a click on a column header sorts the list, aria-sort says which way, and j follows the sorted order', async ({ inspector, page }) => {
  await inspector.importFile(MANUAL);
  const header = page.getByTestId('column-duration');
  const durations = async () => (await page.getByTestId('duration-cell').allTextContents()).map(ms);
  const captureOrder = await page.locator('[data-testid="conversation"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
  await expect(header).toHaveAttribute('aria-sort', 'none');

  await page.getByTestId('sort-duration').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const up = await durations();
  expect(up).toEqual([...up].sort((a, b) => a - b));
  expect(up[0]).toBeLessThan(up[up.length - 1]);

  await page.getByTestId('sort-duration').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const down = await durations();
  expect(down).toEqual([...up].reverse());
  // The keyboard walks the order on screen.
  const rows = page.locator('[data-testid="conversation"]');
  await rows.nth(0).click();
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');

  await page.getByTestId('sort-duration').click();
  await expect(header).toHaveAttribute('aria-sort', 'none');
  expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(captureOrder);
});

test('a row’s context menu copies its request as cURL and its URL, filters by its tool and re-sends it', async ({ inspector, page }) => {
  await inspector.importFile(MANUAL);
  const row = inspector.conversationRow('setup_wizard');
  await row.click({ button: 'right' });
  const menu = page.getByTestId('row-menu');
  await expect(menu).toBeVisible();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(menu.getByTestId('row-copy-curl')).toBeEnabled();
  await menu.getByTestId('row-copy-curl').click();
  await expect(menu).toBeHidden();
  await expect(page.getByTestId('copied-text')).toContainText('curl');
  await expect(page.getByTestId('copied-text')).toContainText('setup_wizard');

  await row.click({ button: 'right' });
  await page.getByTestId('row-copy-url').click();
  await expect(page.getByTestId('copied-text')).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  // Escape closes it without acting.
  await row.click({ button: 'right' });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await row.click({ button: 'right' });
  await expect(menu.getByTestId('row-resend')).toHaveText(/^Re-send round #\d$/);
  await menu.getByTestId('row-resend').click();
  await expect(page.getByTestId('console-tab-edit')).toHaveAttribute('aria-selected', 'true');

  await row.click({ button: 'right' });
  await page.getByTestId('row-filter-tool').click();
  await expect(page.getByTestId('filter')).toHaveValue('name:setup_wizard');
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(1);
});

test('a call that runs as a task is marked in the list', async ({ inspector, page }) => {
  await inspector.importFile(taskCapture());
  await expect(inspector.conversationRow('book_trip').getByTestId('task-tag')).toHaveText('task');
  await expect(inspector.conversationRow('book_trip').getByTestId('conversation-name')).toHaveAttribute('title', /task \(runs as a task\)/);
  const plain = page.locator('[data-testid="conversation"]').filter({ hasNot: page.getByTestId('task-tag') });
  expect(await plain.count()).toBeGreaterThan(0);
});
