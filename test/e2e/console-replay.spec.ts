// Issue 5, item 5: replay a recorded SDK session against the demo server (zero diffs) and
// against a changed server reached through the relay (the diff shown); the replay is a
// capture session of its own that can be inspected.
import { consoleTest as test, expect } from './fixtures.ts';

const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';

test('replays the recorded session against the demo server with zero diffs, as a session of its own', async ({ inspector, page }) => {
  await inspector.importFile(AUTO);
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-replay').click();
  await page.getByTestId('replay-target').fill('/demo/mcp');
  await page.getByTestId('replay-run').click();
  const summary = page.getByTestId('replay-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toHaveAttribute('data-different', '0');
  await expect(summary).toContainText('11 same, 0 different');
  await expect(page.getByTestId('replay-diff')).toHaveCount(0);
  // Each outcome names its recorded call by a link (no internal id), which selects it.
  const wizard = page.locator('[data-testid="replay-outcome"][data-name="setup_wizard"]');
  const recorded = wizard.getByTestId('replay-recorded-link');
  const conversation = await recorded.getAttribute('data-conversation');
  expect(conversation).toBeTruthy();
  await expect(wizard).not.toContainText(conversation!);
  await recorded.click();
  await expect(page.locator(`[data-testid="conversation"][data-id="${conversation}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('thread').locator('h2')).toContainText('setup_wizard');
  await page.getByTestId('replay-inspect').click();
  await expect(page.getByTestId('session-picker').locator('option:checked')).toContainText('Replay →');
  await expect(inspector.conversationRow('setup_wizard')).toHaveCount(1);
});

test('against a changed server (via the relay) the per-conversation diff is shown', async ({ inspector, page, changedDemo }) => {
  await inspector.importFile(AUTO);
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-replay').click();
  await page.getByTestId('replay-target').fill(changedDemo.url);
  await page.getByTestId('replay-relay').check();
  await page.getByTestId('replay-run').click();
  const summary = page.getByTestId('replay-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('2 different');
  const wizard = page.locator('[data-testid="replay-outcome"][data-name="setup_wizard"]');
  await expect(wizard).toHaveAttribute('data-status', 'different');
  await expect(wizard.getByTestId('replay-diff')).toContainText('result.content[0].text');
  await expect(wizard.getByTestId('replay-diff')).toContainText('CHANGED Created workspace');
  // The ignore list is editable: ignoring the texts makes the replay clean.
  await page.getByText('Ignore list').click();
  const ignore = page.getByTestId('replay-ignore');
  await ignore.fill(`${await ignore.inputValue()}\nresult.content[*].text`);
  await page.getByTestId('replay-run').click();
  await expect(summary).toContainText('0 different', { timeout: 60_000 });
});
