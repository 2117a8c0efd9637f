// Issue 5, item 2, auto mode: the Console answers with the answers given before (to the same
// call of the same server) and stops only on questions it has no answer for. Against the
// embedded demo's three-round wizard (name, plan, confirm).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const WIZARD_DONE = 'Created workspace "Acme Labs" on the pro plan.';

async function connect(page: Page): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
}

const question = (page: Page, key: string) => page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);

/**
 * Starts the call; resolves once this call's step-through stopped (paused or finished). The
 * view of the call before stays on screen until the new one arrives: every call's first id
 * differs, so the first round's text changing tells them apart.
 */
async function call(page: Page, status: 'paused' | 'complete', rounds: number): Promise<void> {
  const first = page.locator('[data-testid="step-round"][data-round="0"]');
  const before = (await first.count()) > 0 ? await first.textContent() : null;
  await page.getByTestId('console-start').click();
  if (before !== null) await expect(first).not.toHaveText(before);
  await expect(page.getByTestId('step-round')).toHaveCount(rounds);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', status);
}

/** Answers the wizard's name and plan by hand and sends each: paused at confirm. */
async function answerNameAndPlan(page: Page): Promise<void> {
  await question(page, 'name').getByLabel('Workspace name').fill('Acme Labs');
  await question(page, 'name').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  await question(page, 'plan').getByLabel('Plan').selectOption('pro');
  await question(page, 'plan').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(3);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
}

async function answerConfirm(page: Page): Promise<void> {
  await question(page, 'confirm').getByLabel('Create the workspace').check();
  await question(page, 'confirm').getByTestId('answer-accept').click();
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
}

test('a second run of the same call in auto mode runs through on the saved answers without stopping', async ({ inspector: _, page }) => {
  await connect(page);
  await call(page, 'paused', 1);
  await answerNameAndPlan(page);
  await answerConfirm(page);

  // Auto mode, switched on from the keyboard: the same call again finishes in one go, its
  // retries carrying the answers given by hand.
  await page.getByTestId('auto-mode').focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('auto-mode')).toBeChecked();
  await call(page, 'complete', 4);
  await expect(page.getByTestId('step-auto')).toBeVisible();
  await expect(page.getByTestId('questions')).toHaveCount(0);
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
  await expect(page.locator('[data-testid="step-round"][data-round="1"] pre').first()).toContainText('"name": "Acme Labs"');

  // Another tool's question of the same key asks something else: auto mode stops on it.
  await page.getByTestId('console-target').selectOption('t:confirm_action');
  await page.locator('[data-field="action"] input').fill('deploy');
  await call(page, 'paused', 1);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
  await expect(page.getByTestId('preview')).toContainText('1 question still open: confirm');
});

test('auto mode stops on a question it has no answer for; once answered, the next run runs through', async ({ inspector: _, page }) => {
  await connect(page);
  await page.getByTestId('auto-mode').check();
  // Nothing saved yet: every question is new, so it stops at each.
  await call(page, 'paused', 1);
  await answerNameAndPlan(page); // left paused at confirm: never answered

  // Run 2 answers name and plan on its own and stops at the new question.
  await call(page, 'paused', 3);
  await expect(page.locator('[data-testid="step-round"][data-round="1"] pre').first()).toContainText('"name": "Acme Labs"');
  await expect(page.locator('[data-testid="step-round"][data-round="2"] pre').first()).toContainText('"plan": "pro"');
  await expect(page.getByTestId('questions').getByTestId('question')).toHaveCount(1);
  await expect(question(page, 'confirm')).toHaveAttribute('data-answered', 'false');
  await answerConfirm(page);

  // Run 3 has every answer: it runs through.
  await call(page, 'complete', 4);
  await expect(page.getByTestId('step-round').last()).toContainText(WIZARD_DONE);
});
