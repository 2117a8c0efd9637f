// The replay diff reads as a table with recorded and replayed columns, a path column wide
// enough to read, objects drawn as trees, and results that belong to the session they came from.
import { consoleTest as test, expect } from './fixtures.ts';

const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';

test('the replay diff has recorded/replayed headings, a readable path column, and is cleared on a session switch', async ({ inspector, page, changedDemo }) => {
  await inspector.importFile(AUTO);
  const imported = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-replay').click();
  await page.getByTestId('replay-target').fill(changedDemo.url);
  await page.getByTestId('replay-relay').check();
  await page.getByTestId('replay-run').click();
  await expect(page.getByTestId('replay-summary')).toContainText('2 different', { timeout: 60_000 });
  const diff = page.locator('[data-testid="replay-outcome"][data-name="setup_wizard"]').getByTestId('replay-diff');
  await expect(diff.locator('thead th')).toHaveText(['Path', 'Recorded', 'Replayed']);
  // Geometry, not pixels: the path sits on one line (its cell is as wide as the text needs).
  const path = diff.getByTestId('replay-diff-path').first();
  await expect(path).toHaveText('result.content[0].text');
  const box = await path.evaluate((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return { lines: range.getClientRects().length, width: td.getBoundingClientRect().width };
  });
  expect(box.lines).toBe(1);
  expect(box.width).toBeGreaterThan(120);

  // Another session on screen: the results of the one replayed from go away.
  const other = await page.getByTestId('session-picker').locator('option').evaluateAll(
    (os, cur) => (os as HTMLOptionElement[]).find((o) => o.value !== cur && o.value !== '' && !o.text.includes('Replay'))?.value, imported);
  expect(other).toBeTruthy();
  await page.getByTestId('session-picker').selectOption(other!);
  await expect(page.getByTestId('replay-summary')).toHaveCount(0);
});
