// Issue 5, items 1 to 3: the Console connects to the embedded demo, steps through the
// 3-round wizard answering each form, forks round 2 with another answer (both branches
// complete), and edits a retry's inputResponses before sending it.
import { expect, test, type InspectorPage } from './fixtures.ts';
import type { Page } from '@playwright/test';

async function connect(page: Page, url = '/demo/mcp'): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await expect(page.getByTestId('console-call')).toBeVisible();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
}

async function startWizard(page: Page): Promise<void> {
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
}

/** Answers the open form question `key`: `fill` sets its field, then Accept. */
async function answerForm(page: Page, key: string, fill: (q: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  const q = page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);
  await expect(q).toBeVisible();
  await fill(q);
  await q.getByTestId('answer-accept').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
}

async function sendRetry(page: Page, rounds: number): Promise<void> {
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(rounds);
}

test('steps through the 3-round wizard answering each form, and the call completes', async ({ inspector, page }) => {
  await connect(page);
  await startWizard(page);
  // Validation before sending: the name is required.
  const name = page.locator('[data-testid="question"][data-key="name"]');
  await name.getByTestId('answer-accept').click();
  await expect(name.getByTestId('field-error')).toContainText('required');
  await answerForm(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  // The exact retry: a new id, the echoed token, the answer in inputResponses.
  const preview = page.getByTestId('preview-text');
  await expect(preview).toHaveValue(/"requestState": "v1\./);
  await expect(preview).toHaveValue(/"inputResponses"/);
  await expect(preview).toHaveValue(/Mcp-Name: setup_wizard/);
  await sendRetry(page, 2);
  await answerForm(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await sendRetry(page, 3);
  await answerForm(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  // Ctrl+Enter sends from the preview.
  await preview.focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last()).toContainText('Created workspace "Acme Labs" on the pro plan.');
  // The service worker tapped the Console's sends, filed once under the Console's record ids.
  const last = await inspector.waitForStored((r) => r.source === 'console' && (r.request.body ?? '').includes('"confirm"'), 'the tapped last retry');
  expect((await inspector.storedExchanges()).filter((r) => r.request.body === last.request.body)).toHaveLength(1);
});

test('forks round 2 with another answer, and both branches complete', async ({ inspector: _, page }) => {
  await connect(page);
  await startWizard(page);
  await answerForm(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  await sendRetry(page, 2);
  await answerForm(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await sendRetry(page, 3);
  await answerForm(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await sendRetry(page, 4);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');

  // Round #3 sent the plan: fork it with "team". The fork mark is drawn, not the ⑂
  // character, which common UI fonts lack (it showed as a box).
  const forkButton = page.locator('[data-testid="step-round"][data-round="2"]').getByTestId('fork-round');
  await expect(forkButton.getByTestId('fork-icon')).toBeVisible();
  await expect(forkButton).not.toContainText('⑂');
  await forkButton.click();
  const fork = page.getByTestId('fork-editor');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByLabel('Plan').selectOption('team');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByTestId('answer-accept').click();
  await expect(fork.getByTestId('fork-answers')).toContainText('"team"');
  await fork.getByTestId('fork-send').click();
  await expect(page.getByTestId('step-round')).toHaveCount(5);
  await expect(page.locator('[data-testid="step-round"][data-round="4"]')).toHaveAttribute('data-fork', 'true');
  await answerForm(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await sendRetry(page, 6);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step')).toContainText('2 branches');
  const finals = page.locator('[data-testid="step-round"][data-kind="complete"]');
  await expect(finals).toHaveCount(2);
  await expect(finals.nth(0)).toContainText('on the pro plan');
  await expect(finals.nth(1)).toContainText('on the team plan');
});

test("edits a retry's inputResponses before sending, and the server answers the edit", async ({ inspector: _, page }) => {
  await connect(page);
  await startWizard(page);
  await answerForm(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'));
  const preview = page.getByTestId('preview-text');
  const text = await preview.inputValue();
  await preview.fill(text.replace('"name": "Acme Labs"', '"name": "Edited Co"'));
  await preview.blur();
  await expect(page.getByTestId('draft-diff')).toHaveAttribute('data-edited', 'true');
  await expect(page.getByTestId('draft-diff').locator('[data-kind="added"]')).toContainText('Edited Co');
  await sendRetry(page, 2);
  await answerForm(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('free'); });
  await sendRetry(page, 3);
  await answerForm(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await sendRetry(page, 4);
  await expect(page.getByTestId('step-round').last()).toContainText('Created workspace "Edited Co" on the free plan.');
});

test('e opens a captured request in the editor with a diff; sending records an exchange derived from it', async ({ inspector, page }) => {
  await page.getByTestId('call-demo').click();
  await expect(inspector.conversationRow('slow_report')).toHaveCount(1);
  await inspector.conversationRow('slow_report').click();
  const original = await inspector.waitForStored((r) => r.source === 'sw' && (r.request.body ?? '').includes('"slow_report"'), 'the demo call');
  await page.getByTestId('round').first().getByRole('button').first().click();
  await page.locator('body').click({ position: { x: 5, y: 400 } });
  await page.keyboard.press('e');
  const body = page.getByTestId('draft-body');
  await expect(body).toHaveValue(/"slow_report"/);
  await body.fill((await body.inputValue()).replace(/"id": \d+/, '"id": 777'));
  await expect(page.getByTestId('draft-diff').locator('[data-kind="added"]')).toContainText('777');
  await page.getByTestId('draft-send').click();
  await expect(page.getByTestId('resend-result')).toContainText('HTTP 200');
  const derived = await inspector.waitForStored((r) => r.source === 'console' && r.derivedFrom !== undefined, 'the re-sent exchange');
  expect((await inspector.storedExchanges()).some((r) => r.id === derived.derivedFrom)).toBe(true);
  expect(derived.request.body).toContain('"id": 777');
  // "Show it" selects the new exchange's conversation and round, not only its session.
  await page.getByTestId('resend-show').click();
  await expect(page.locator('[data-testid="conversation"][aria-selected="true"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="round"][aria-current="true"]')).toHaveAttribute('data-exchange-id', derived.id);
  void original;
});

export type { InspectorPage };
