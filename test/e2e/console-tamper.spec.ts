// Issue 5, item 4: tamper tests, labelled as such, on a Console round that carries a token.
// The demo server (HMAC-signed, bound tokens) rejects them; its misbehaving mode (unsigned
// tokens) accepts the flipped byte, and the verdict names the rule that breaks.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** Connects to `url`, starts the wizard, answers the name and sends: round #2 issued a token asking for the plan. */
async function wizardAtPlan(page: Page, url: string): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  const name = page.locator('[data-testid="questions"] [data-testid="question"][data-key="name"]');
  await name.getByLabel('Workspace name').fill('Acme Labs');
  await name.getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  const plan = page.locator('[data-testid="questions"] [data-testid="question"][data-key="plan"]');
  await plan.getByLabel('Plan').selectOption('pro');
  await plan.getByTestId('answer-accept').click();
  await page.locator('[data-testid="step-round"][data-round="1"]').getByTestId('tamper-round').click();
  await expect(page.getByTestId('tamper-test').first()).toBeVisible({ timeout: 30_000 });
}

const verdictOf = (page: Page, test: string) => page.locator(`[data-testid="tamper-test"][data-test="${test}"]`);

test('each tamper test against the demo server is rejected, and "run all" gives an exportable report', async ({ inspector: _, page }) => {
  await wizardAtPlan(page, '/demo/mcp');
  await expect(page.getByTestId('tamper')).toContainText('Tamper: flip one byte of the token');
  // One test on its own: the server's answer and the verdict.
  await verdictOf(page, 'flip-byte').getByTestId('tamper-run').click();
  await expect(verdictOf(page, 'flip-byte')).toHaveAttribute('data-verdict', 'rejected');
  await expect(verdictOf(page, 'flip-byte').getByTestId('tamper-answer').first()).toContainText('server: HTTP');
  // All of them.
  await page.getByTestId('tamper-run-all').click();
  await expect(page.getByTestId('tamper-summary')).toBeVisible({ timeout: 60_000 });
  for (const t of ['flip-byte', 'other-tool', 'drop', 'foreign-token', 'parallel-reuse']) {
    await expect(verdictOf(page, t), t).toHaveAttribute('data-verdict', 'rejected');
    await expect(verdictOf(page, t).getByTestId('verdict')).toContainText('rejected (good)');
  }
  // Time is never faked: the after-expiry test says when the token expires and offers to schedule.
  await expect(verdictOf(page, 'after-expiry')).toHaveAttribute('data-state', 'scheduled');
  await expect(verdictOf(page, 'after-expiry').getByTestId('expiry')).toContainText('expires in');
  await expect(verdictOf(page, 'after-expiry').getByTestId('tamper-schedule')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByTestId('tamper-export-json').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^tamper-report-.*\.json$/);
});

test("against the demo's misbehaving mode the flipped token is accepted, naming the rule it breaks", async ({ inspector: _, page }) => {
  await wizardAtPlan(page, '/demo/mcp?misbehave=1');
  await page.getByTestId('tamper-run-all').click();
  await expect(page.getByTestId('tamper-summary')).toBeVisible({ timeout: 60_000 });
  await expect(verdictOf(page, 'flip-byte')).toHaveAttribute('data-verdict', 'accepted');
  await expect(verdictOf(page, 'flip-byte').getByTestId('verdict-rule')).toHaveText('mrtr/invalid-state-accepted');
  await expect(page.getByTestId('tamper-summary')).not.toContainText('accepted 0');
});
