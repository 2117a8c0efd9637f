// The Console never makes a captured call look worse: one setup_wizard call, driven to its
// end, then re-sent with `r`, edited (the server refuses the edit), forked and tamper-tested,
// keeps its status, its round count and its findings in the list, the thread, the status bar
// and the Findings panel; what the experiments drew is shown apart, as their result.
import type { Page } from '@playwright/test';
import { expect, test, type InspectorPage } from './fixtures.ts';

async function answer(page: Page, key: string, fill: (q: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  const q = page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);
  await fill(q);
  await q.getByTestId('answer-accept').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
}

/** The wizard through the Console, answered to its end: 4 rounds, complete. */
async function wizardToTheEnd(page: Page): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await answer(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  await page.getByTestId('send-retry').click();
  await answer(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await page.getByTestId('send-retry').click();
  await answer(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
}

/** What the page says about the call: its row, its thread, the status bar, the Findings panel's lines. */
async function verdict(inspector: InspectorPage) {
  const page = inspector.page;
  const row = inspector.conversationRow('setup_wizard');
  await row.click();
  await page.getByTestId('findings-open').click();
  const panel = page.getByTestId('findings-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByText('Loading…')).toHaveCount(0);
  const own = await panel.getByTestId('findings-entries').getByTestId('findings-entry').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-rule')} ×${e.getAttribute('data-count')}`));
  await panel.getByTestId('findings-close').click();
  return {
    status: await row.getAttribute('data-status'),
    rounds: await row.getAttribute('data-rounds'),
    threadStatus: await page.getByTestId('thread-status').textContent(),
    errors: await page.getByTestId('count-errors').textContent(),
    warnings: await page.getByTestId('count-warnings').textContent(),
    own,
  };
}

test('a captured call re-sent, edited, forked and tamper-tested keeps its status, round count and findings; the experiments are shown apart', async ({ inspector, page }) => {
  await wizardToTheEnd(page);
  const row = inspector.conversationRow('setup_wizard');
  await expect(row).toHaveAttribute('data-rounds', '4', { timeout: 30_000 });
  await expect(row).toHaveAttribute('data-status', 'complete');
  const before = await verdict(inspector);
  expect(before).toMatchObject({ status: 'complete', rounds: '4', threadStatus: 'complete' });
  const rounds = page.getByTestId('round');
  await expect(rounds).toHaveCount(4);

  // The thread's button says what `r` does (the Console's Replay replays a whole session).
  await expect(page.getByTestId('resend-round')).toHaveText('↻ Re-send');
  // `r` on round 1: the first request again, with a fresh id.
  await rounds.nth(0).getByRole('button').first().click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('resend-result')).toContainText('HTTP 200');

  // An edit of round 3 (its token was spent: the server refuses it).
  await row.click();
  await rounds.nth(2).getByRole('button').first().click();
  await page.keyboard.press('e');
  const draft = page.getByTestId('draft-body');
  await expect(draft).toHaveValue(/"setup_wizard"/);
  await draft.fill((await draft.inputValue()).replace('"pro"', '"team"'));
  await page.getByTestId('draft-send').click();
  await expect(page.getByTestId('resend-result')).toBeVisible();

  // A fork of round #3 in the Console's step-through.
  await page.getByTestId('console-tab-call').click();
  await page.locator('[data-testid="step-round"][data-round="2"]').getByTestId('fork-round').click();
  const fork = page.getByTestId('fork-editor');
  // Round #3 sent the plan (and was asked to confirm): its fork answers round #2's question again.
  await expect(fork.getByTestId('fork-heading')).toContainText("Fork round #3: send other answers to round #2's question (plan)");
  await fork.locator('[data-testid="question"][data-key="plan"]').getByLabel('Plan').selectOption('team');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByTestId('answer-accept').click();
  await fork.getByTestId('fork-send').click();
  await expect(page.getByTestId('step-round')).toHaveCount(5);
  // Named as the thread names the branch: where it leaves from, then what made it.
  await expect(page.getByTestId('fork-tag')).toHaveText('from #2 fork (of #3)');

  // "Run all tamper tests" on round 2's token.
  await row.click();
  await rounds.nth(1).getByRole('button').first().click();
  await page.getByTestId('thread-tamper').click();
  await expect(page.getByTestId('tamper-test').first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('tamper-run-all').click();
  await expect(page.getByTestId('tamper-summary')).toBeVisible({ timeout: 60_000 });

  // The experiments joined the call as branches (one row, more rounds in its thread)...
  await expect(row).toHaveCount(1);
  await row.click();
  await expect.poll(() => rounds.count()).toBeGreaterThanOrEqual(7);
  // ...and changed nothing about it.
  const after = await verdict(inspector);
  expect(after).toEqual(before);
  await expect(page.getByTestId('thread-experiments')).toBeVisible();
  // In the thread, the call's own four rounds and the experiments' are told apart.
  await expect(page.locator('[data-testid="round"][data-experiment="false"]')).toHaveCount(4);
  await expect.poll(() => page.locator('[data-testid="round"][data-experiment="true"]').count()).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('thread-meta')).toContainText('4 rounds + ');
  // What they drew is their result, apart: the fork re-presented a spent token.
  await page.getByTestId('findings-open').click();
  const apart = page.getByTestId('findings-experiments');
  await expect(page.getByTestId('findings-experiments-head')).toContainText('Console experiments');
  await expect(apart.locator('[data-testid="findings-entry"][data-rule="state/replayed"]')).toHaveCount(1);
  for (const rule of ['mrtr/retry-reused-id', 'mrtr/state-dropped', 'mrtr/response-missing', 'mrtr/too-many-rounds'])
    await expect(page.locator(`[data-testid="findings-entry"][data-rule="${rule}"]`), rule).toHaveCount(0);
});
