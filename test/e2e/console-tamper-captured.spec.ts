// Issue 5, item 4, started from a captured round: the wizard's traffic, tapped by the service
// worker, is opened in the thread view; "Tamper tests…" on the round whose answer issued a
// token plans the tests on it. A captured round knows no catalog, so the other tool to
// present the token on is named in the panel; then "run all" gives a verdict per test
// (every one rejected by the demo's signed, bound, single-use tokens) and the report exports.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { TamperReport } from '../../worker/console/tamper-report.ts';
import { expect, test, type InspectorPage } from './fixtures.ts';

/** The Console starts the wizard and answers the name: round 2 issued a token asking for the plan (left unanswered). */
async function wizardAtPlan(page: Page): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  const name = page.locator('[data-testid="questions"] [data-testid="question"][data-key="name"]');
  await name.getByLabel('Workspace name').fill('Captured Co');
  await name.getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
}

/** Opens the tapped conversation in the thread view and starts the tamper tests on its round 2. */
async function tamperCapturedRound(inspector: InspectorPage): Promise<void> {
  const page = inspector.page;
  const row = inspector.conversationRow('setup_wizard');
  await expect(row).toHaveAttribute('data-rounds', '2', { timeout: 30_000 });
  await row.click();
  const rounds = page.getByTestId('round');
  await expect(rounds).toHaveCount(2);
  await rounds.nth(1).getByRole('button').first().click();
  await expect(page.getByTestId('thread-tamper')).toBeEnabled();
  await page.getByTestId('thread-tamper').click();
  await expect(page.getByTestId('tamper')).toContainText('on round #2 of the setup_wizard call');
  await expect(page.getByTestId('tamper-test').first()).toBeVisible({ timeout: 30_000 });
}

const verdictOf = (page: Page, t: string) => page.locator(`[data-testid="tamper-test"][data-test="${t}"]`);
const REJECTED = ['flip-byte', 'other-tool', 'drop', 'foreign-token', 'parallel-reuse'];

test('tamper tests started from a captured round: every verdict against the demo is rejected, and the report exports', async ({ inspector, page }) => {
  await wizardAtPlan(page);
  await tamperCapturedRound(inspector);

  // Without another tool named, the two tests that need one cannot run, and say why.
  await expect(verdictOf(page, 'other-tool')).toHaveAttribute('data-state', 'not-run');
  await expect(verdictOf(page, 'other-tool').getByTestId('tamper-detail')).toContainText('name another tool');
  await expect(verdictOf(page, 'foreign-token')).toHaveAttribute('data-state', 'not-run');
  await page.getByTestId('tamper-other-name').fill('confirm_action');
  await page.getByTestId('tamper-other-args').fill('{"action": "tamper-test"}');
  await page.getByTestId('tamper-other-args').press('Enter');
  await expect(verdictOf(page, 'other-tool')).toHaveAttribute('data-state', 'ready');
  await expect(verdictOf(page, 'foreign-token')).toHaveAttribute('data-state', 'ready');

  await page.getByTestId('tamper-run-all').click();
  const summary = page.getByTestId('tamper-summary');
  await expect(summary).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('rejected 5, accepted 0, inconclusive 0, scheduled 1, not run 0');
  for (const t of REJECTED) {
    await expect(verdictOf(page, t), t).toHaveAttribute('data-verdict', 'rejected');
    await expect(verdictOf(page, t).getByTestId('verdict'), t).toHaveText('✔ rejected (good)');
    await expect(verdictOf(page, t).getByTestId('tamper-answer').first(), t).toContainText('server: HTTP');
  }
  await expect(verdictOf(page, 'after-expiry')).toHaveAttribute('data-state', 'scheduled');

  const download = page.waitForEvent('download');
  await page.getByTestId('tamper-export-json').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('tamper-report-setup_wizard.json');
  const report = JSON.parse(await readFile(await file.path(), 'utf8')) as TamperReport;
  expect(report).toMatchObject({ kind: 'mrtr-inspector/tamper-report', method: 'tools/call', name: 'setup_wizard' });
  expect(report.summary).toEqual({ rejected: 5, accepted: 0, unchangedAnswer: 0, inconclusive: 0, scheduled: 1, notRun: 0 });
  expect(Object.fromEntries(report.results.map((r) => [r.test, r.verdict ?? r.status]))).toEqual({
    'flip-byte': 'rejected', 'other-tool': 'rejected', drop: 'rejected', 'foreign-token': 'rejected', 'parallel-reuse': 'rejected', 'after-expiry': 'scheduled',
  });

  const markdown = page.waitForEvent('download');
  await page.getByTestId('tamper-export-md').click();
  const md = await readFile(await (await markdown).path(), 'utf8');
  expect(md).toContain('Tamper: flip one byte of the token');
  expect(md).toContain('rejected');
});
