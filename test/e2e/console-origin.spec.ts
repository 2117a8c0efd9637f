// Console traffic in its place: every Console-made row says what made it, a connect's
// discovery calls and a tamper run are one group each (no client rule fires on a tamper
// test), origin:tamper finds them, and a fork of a round joins its
// conversation as a branch, with the branch tree drawn in the thread.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const group = (page: Page, origin: string) => page.locator(`[data-testid="run-group"][data-origin="${origin}"]`);
const rows = (page: Page, origin?: string) => page.locator(origin ? `[data-testid="conversation"][data-origin="${origin}"]` : '[data-testid="conversation"]');

async function connect(page: Page): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
}

async function answer(page: Page, key: string, fill: (q: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  const q = page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);
  await fill(q);
  await q.getByTestId('answer-accept').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
}

test('a connect and a tamper run are one labelled group each, origin:tamper finds them, and refused tamper tests count no error', async ({ inspector: _, page }) => {
  await connect(page);
  // The connect's calls: one folded group, labelled discovery.
  await expect(group(page, 'discovery')).toHaveCount(1);
  expect(Number(await group(page, 'discovery').getAttribute('data-count'))).toBeGreaterThanOrEqual(3);
  await expect(rows(page, 'discovery')).toHaveCount(0);

  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await answer(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  await answer(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await page.locator('[data-testid="step-round"][data-round="1"]').getByTestId('tamper-round').click();
  await expect(page.getByTestId('tamper-test').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('tamper-run-all').click();
  await expect(page.getByTestId('tamper-summary')).toBeVisible({ timeout: 60_000 });

  // The wizard's own rows say call and step; the tamper run is one group, not scattered rows.
  await expect(rows(page, 'call').first().getByTestId('origin-tag')).toHaveText('call');
  await expect(group(page, 'tamper')).toHaveCount(1);
  await expect(rows(page, 'tamper')).toHaveCount(0);
  const tamperCount = Number(await group(page, 'tamper').getAttribute('data-count'));
  expect(tamperCount).toBeGreaterThanOrEqual(5);
  // Opening the group shows its rows, each labelled.
  await group(page, 'tamper').click();
  await expect(rows(page, 'tamper')).toHaveCount(tamperCount);
  await expect(rows(page, 'tamper').first().getByTestId('origin-tag')).toHaveText('tamper');

  // The demo refuses every tampered request: no rule about the client fires on a tamper test
  // (it is the developer's experiment), so the status bar counts no error for them.
  const status = page.getByTestId('status-bar');
  await expect(status.getByTestId('count-errors')).toHaveText('✖ 0 errors');

  // The filter term (the wizard's own row stays too: a tamper test re-using its token joined it).
  await page.getByTestId('filter').fill('origin:tamper');
  await expect(group(page, 'discovery')).toHaveCount(0);
  await expect(group(page, 'tamper')).toHaveCount(1);
  await expect(rows(page, 'tamper')).toHaveCount(tamperCount);
  await page.getByTestId('filter').fill('-has:origin');
  await expect(group(page, 'tamper')).toHaveCount(0);
  await expect(rows(page, 'call')).toHaveCount(0);
});

test('a fork of a finished round is a branch of its conversation: one row, and the thread draws the tree the Console counts', async ({ inspector: _, page }) => {
  await connect(page);
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await answer(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  await page.getByTestId('send-retry').click();
  await answer(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await page.getByTestId('send-retry').click();
  await answer(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  // Fork round #3 (it sent the plan) with "team", after the chain had completed.
  await page.locator('[data-testid="step-round"][data-round="2"]').getByTestId('fork-round').click();
  const fork = page.getByTestId('fork-editor');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByLabel('Plan').selectOption('team');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByTestId('answer-accept').click();
  await fork.getByTestId('fork-send').click();
  await expect(page.getByTestId('step-round')).toHaveCount(5);
  await expect(page.getByTestId('step')).toContainText('2 branches');

  // One conversation for the wizard, not one per branch.
  const wizard = page.locator('[data-testid="conversation"]', { hasText: 'setup_wizard' });
  await expect(wizard).toHaveCount(1);
  await expect(wizard.getByTestId('branches-tag')).toHaveText('2');
  await wizard.click();
  // The fork is an experiment: the call keeps its own 4 rounds, the fork is counted apart.
  await expect(page.getByTestId('thread-meta')).toContainText('4 rounds + 1 from Console experiments, 2 branches');
  const tree = page.getByTestId('branch-tree');
  await expect(tree.getByTestId('branch')).toHaveCount(2);
  // The second branch leaves the first at round #2 (index 1), and is labelled a fork.
  await expect(tree.getByTestId('branch').nth(1)).toHaveAttribute('data-from', '1');
  await expect(tree.getByTestId('branch').nth(1)).toContainText('from #2');
  await expect(tree.getByTestId('branch').nth(1)).toContainText('from #2 fork');
  await expect(page.locator('[data-testid="round"][data-link="derived"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="round"][data-link="derived"]').getByTestId('round-origin')).toHaveText('fork');
  // The fork re-presented the token round #3 had presented: state/replayed, on the fork's round.
  await expect(page.locator('[data-testid="round"][data-link="derived"]').getByTestId('round-findings')).toBeVisible();
  await page.getByTestId('filter').fill('rule:state/replayed');
  await expect(wizard).toHaveCount(1);
});
