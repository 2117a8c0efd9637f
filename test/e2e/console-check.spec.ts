// Issue 31 item 5: Console → "Check this server" runs the check engine in the worker against
// the Console's endpoint. On the misbehaving demo the modified token is a failed probe, shown
// first, whose link selects the conversation its exchanges made; on the normal demo nothing
// fails; Stop ends a run midway. At 1024x640 the report is in view and no line is cut.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** Opens the Console, connects to `url`, opens the check tab and ticks every tool that may change data. */
async function checkTab(page: Page, url: string): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-call').click();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-check').click();
  await expect(page.getByTestId('check-endpoint')).toContainText(url);
  const ticks = page.getByTestId('check-allow');
  await expect(ticks.first()).toBeVisible();
  for (const t of await ticks.all()) await t.check();
}

/** Elements among `selector` whose content is wider than their box (text running out). */
function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.getAttribute('data-testid') ?? e.className}: ${e.scrollWidth} > ${e.clientWidth}`));
}

test('on the misbehaving demo the modified token fails first, and its link selects the probe\'s conversation; at 1024x640 the report is in view', async ({ inspector: _, page }) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await checkTab(page, '/demo/mcp?misbehave=1');
  await expect(page.getByTestId('check-guarded')).toContainText('confirm_action');
  await page.getByTestId('check-run').click();
  await expect(page.getByTestId('check-progress')).toBeVisible();
  const summary = page.getByTestId('check-summary');
  await expect(summary).toBeVisible({ timeout: 120_000 });
  await expect(summary).toHaveAttribute('data-passed', 'false');
  // Failed targets first, and a target's failed probes first.
  const first = page.getByTestId('check-target').first();
  await expect(first).not.toHaveAttribute('data-failed', '0');
  await expect(first.getByTestId('check-probe').first()).toHaveAttribute('data-verdict', 'failed');
  const modified = page.locator('[data-testid="check-target"][data-target="tools/call confirm_action"] [data-testid="check-probe"][data-probe="token-modified"]');
  await expect(modified).toHaveAttribute('data-verdict', 'failed');
  await expect(modified).toContainText('M10, M11');
  // The report is brought into view, inside the window, with nothing cut.
  const box = (await summary.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(640.5);
  expect(box.x + box.width).toBeLessThanOrEqual(1024.5);
  expect(await overflowing(page, '[data-testid="check"] li, [data-testid="check-summary"], [data-testid="check-target"] h4, [data-testid="check-guarded"] label')).toEqual([]);
  // The link selects the conversation the probe's exchanges joined: the check's own call, with the tamper round.
  await modified.getByTestId('check-probe-link').click();
  await expect(page.locator('[data-testid="conversation"][aria-selected="true"]')).toHaveCount(1);
  await expect(page.getByTestId('thread').locator('h2')).toContainText('confirm_action');
  await expect(page.getByTestId('thread').locator('[data-testid="round-origin"][data-origin="tamper"]').first()).toBeVisible();
  // The drives are labelled as the check's, one folded group in the list.
  await expect(page.locator('[data-testid="run-group"][data-origin="check"]')).toBeVisible();
  // The report downloads as the CLI writes it.
  const download = page.waitForEvent('download');
  await page.getByTestId('console-tab-check').click();
  await page.getByTestId('check-download-sarif').click();
  expect((await download).suggestedFilename()).toMatch(/^check-.*\.sarif$/);
});

test('on the normal demo no probe fails, and Stop ends a second run midway', async ({ inspector: _, page }) => {
  await checkTab(page, '/demo/mcp');
  await page.getByTestId('check-run').click();
  const summary = page.getByTestId('check-summary');
  await expect(summary).toBeVisible({ timeout: 120_000 });
  await expect(summary).toHaveAttribute('data-failed', '0');
  await expect(summary).toHaveAttribute('data-stopped', 'false');
  await expect(page.locator('[data-testid="check-probe"][data-verdict="failed"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="check-probe"][data-verdict="passed"]').first()).toBeVisible();
  const full = Number(/(\d+) requests in/.exec((await summary.textContent()) ?? '')![1]);

  await page.getByTestId('check-run').click();
  await expect.poll(async () => Number(await page.getByTestId('check-progress').getAttribute('data-calls')), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
  await page.getByTestId('check-stop').click();
  await expect(summary).toHaveAttribute('data-stopped', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('check-note').first()).toContainText('stopped by the user');
  const stopped = Number(/(\d+) requests in/.exec((await summary.textContent()) ?? '')![1]);
  expect(stopped).toBeLessThan(full);
});
