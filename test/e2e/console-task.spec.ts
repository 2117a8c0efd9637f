// The Console drives a task of the tasks extension against the embedded demo's
// research_report: called as a task, polled, its two questions (a form, then a sampling
// request) answered through tasks/update with the same question cards as MRTR rounds, the
// key tests' outcomes shown, and the task completed; a second task is cancelled; the
// misbehaving demo's re-used key is reported and can still be answered.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

async function startTask(page: Page, url = '/demo/mcp'): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:research_report');
  await page.getByTestId('console-start-task').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'working');
  await expect(page.getByTestId('task-id')).toHaveText(/^task-/);
}

const question = (page: Page, key: string) => page.locator(`[data-testid="task-questions"] [data-testid="question"][data-key="${key}"]`);

async function pollUntilAsked(page: Page, key: string): Promise<void> {
  await page.getByTestId('task-poll-until').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'input_required');
  await expect(question(page, key)).toBeVisible();
}

test('drives the demo task from the Console to completion, answering a form and a sampling request, with the key tests shown', async ({ inspector, page }) => {
  await startTask(page);
  await pollUntilAsked(page, 'scope');
  const scope = question(page, 'scope');
  await expect(scope).toHaveAttribute('data-kind', 'elicitation-form');
  await scope.getByLabel('Topic').fill('tides');
  await scope.getByLabel('Depth').selectOption('detailed');
  await scope.getByTestId('answer-accept').click();
  await expect(scope).toHaveAttribute('data-answered', 'true');
  await page.getByTestId('task-submit').click();
  await expect(page.getByTestId('task-answered')).toContainText('scope');

  await pollUntilAsked(page, 'draft');
  const draft = question(page, 'draft');
  await expect(draft).toHaveAttribute('data-kind', 'sampling');
  await expect(draft.getByTestId('answer-json')).toHaveValue(/"role": "assistant"/);

  // The key tests while the task waits for "draft": each is acknowledged and ignored.
  for (const kind of ['twice', 'unknown', 'reuse']) await page.getByTestId(`task-keytest-${kind}`).click();
  const tests = page.getByTestId('task-keytest');
  await expect(tests).toHaveCount(3);
  await expect(page.locator('[data-testid="task-keytest"][data-kind="twice"]')).toHaveAttribute('data-verdict', 'ignored');
  await expect(page.locator('[data-testid="task-keytest"][data-kind="unknown"]')).toContainText('never-asked-1');
  await expect(page.locator('[data-testid="task-keytest"][data-kind="unknown"]')).toHaveAttribute('data-verdict', 'ignored');
  await expect(page.locator('[data-testid="task-keytest"][data-kind="reuse"]')).toHaveAttribute('data-verdict', 'ignored');
  await expect(page.locator('[data-testid="task-keytest"][data-kind="reuse"]')).toContainText('waiting for draft');

  await draft.getByTestId('answer-use').click();
  await page.getByTestId('task-submit').click();
  await page.getByTestId('task-poll-until').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('task-result')).toContainText('Report on tides (detailed) is ready.');
  await expect(page.locator('[data-testid="task-timeline"] li').last()).toHaveText('completed ×1');
  // Every task request went out as captured traffic (the tap stored the last poll).
  await inspector.waitForStored((r) => r.source === 'console' && (r.request.body ?? '').includes('"tasks/get"') && (r.response?.body ?? '').includes('"completed"'), 'the final tasks/get');
});

test('cancels a running task from the Console', async ({ inspector: _, page }) => {
  await startTask(page);
  await pollUntilAsked(page, 'scope');
  await page.getByTestId('task-cancel').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('task')).toHaveAttribute('data-phase', 'done');
  await expect(page.getByTestId('task-poll')).toBeDisabled();
  await expect(page.locator('[data-testid="task-sends"] li[data-kind="cancel"]')).toHaveCount(1);
});

test('reports the key the misbehaving demo task re-uses for a different request, and still lets it be answered', async ({ inspector: _, page }) => {
  await startTask(page, '/demo/mcp?misbehave=1');
  await pollUntilAsked(page, 'scope');
  const scope = question(page, 'scope');
  await scope.getByLabel('Topic').fill('tides');
  await scope.getByLabel('Depth').selectOption('brief');
  await scope.getByTestId('answer-accept').click();
  await page.getByTestId('task-submit').click();
  await expect(page.getByTestId('task-answered')).toContainText('scope');
  await page.getByTestId('task-poll-until').click();
  await expect(page.getByTestId('task-reused')).toContainText('scope');
  await expect(question(page, 'scope')).toHaveAttribute('data-kind', 'sampling');
  await question(page, 'scope').getByTestId('answer-use').click();
  await page.getByTestId('task-submit').click();
  await page.getByTestId('task-poll-until').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'completed');
});

test('drives a task-required tool that asks through MRTR before it creates its task (the conformance suite\'s test_tool_with_task)', async ({ inspector: _, page }) => {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp?fixtures=conformance');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:test_tool_with_task');
  await page.getByTestId('console-start-task').click();
  // The MRTR round: its question on the task panel, answered and sent as the call's retry.
  await expect(page.getByTestId('task')).toHaveAttribute('data-phase', 'rounds');
  await expect(page.getByTestId('task-rounds')).toContainText('MRTR round 1');
  const name = question(page, 'user_name');
  await expect(name).toHaveAttribute('data-kind', 'elicitation-form');
  await name.getByLabel('name').fill('Ada');
  await name.getByTestId('answer-accept').click();
  await expect(page.getByTestId('task-submit')).toHaveText('Submit (retry the call)');
  await page.getByTestId('task-submit').click();
  // Then the task it created, polled to its result.
  await expect(page.getByTestId('task-id')).toHaveText(/^fx-/);
  await page.getByTestId('task-poll-until').click();
  await expect(page.getByTestId('task')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('task-result')).toContainText('Hello, Ada!');
  await expect(page.locator('[data-testid="task-sends"] li').first()).toHaveAttribute('data-kind', 'call');
  await expect(page.locator('[data-testid="task-sends"] li[data-kind="retry"]')).toHaveCount(1);
});
