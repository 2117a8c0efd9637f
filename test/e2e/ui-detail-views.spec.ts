// Detail views: every JSON value (bodies, token payloads, results) is one collapsible tree
// with search and copy-path, and a form preview in the thread shows what was answered.
// One import of the manual SDK capture is read as a user would, tab after tab.
import { expect, test } from './fixtures.ts';

test('a multi-round call in detail: a JSON body is a tree (branches fold, search opens the branch that holds a hit, a node copies its path), the token payload and a round result are drawn by the same tree, and a form preview shows the values the next round sent, not the first option', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await inspector.conversationRow('setup_wizard').click();
  await page.getByTestId('round').nth(3).getByRole('button').first().click();
  await page.getByTestId('tab-response').click();
  const tree = page.getByTestId('body-tree');
  await expect(tree).toBeVisible();
  // Syntax colour: the result's text is a string node, its path written as the diffs write it.
  const text = tree.locator('[data-path="result.content[0].text"]');
  await expect(text.locator('.string')).toContainText('Created workspace');
  // Folding the result hides it; a search for a word inside opens it again and counts the hit.
  await tree.getByRole('button', { name: 'Collapse result', exact: true }).click();
  await expect(text).toHaveCount(0);
  await expect(tree.locator('[data-path="result"]')).toContainText('"result": {3 keys}');
  await tree.getByTestId('json-search').fill('acme');
  await expect(tree.getByTestId('json-hits')).toHaveText('1 match');
  await expect(text).toHaveClass(/hit/);
  // Copy path (the clipboard may be refused in a test browser; the path is shown either way).
  await text.hover();
  await text.getByTestId('copy-path').click();
  await expect(tree.getByTestId('json-copied')).toContainText('result.content[0].text');

  // The token payload and a round result: the same tree.
  await page.getByTestId('round').nth(2).getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  const payload = page.getByTestId('token').first().getByTestId('token-payload');
  await expect(payload.locator('[data-path="answers.name"] .string')).toHaveText('"Acme Labs"');
  const last = page.getByTestId('round').nth(3);
  await last.locator('summary', { hasText: 'result' }).click();
  await expect(last.getByTestId('result-tree').locator('[data-path="content[0].type"]')).toContainText('"text"');

  // The form previews in the thread: what the next round sent.
  const rounds = page.getByTestId('round');
  const name = rounds.nth(0).locator('[data-testid="form-field"][data-field="name"]');
  await expect(name.locator('input')).toHaveValue('Acme Labs');
  const plan = rounds.nth(1).locator('[data-testid="form-field"][data-field="plan"]');
  await expect(plan).toHaveAttribute('data-sent', 'pro');
  await expect(plan.locator('select')).toHaveValue('pro');
  await expect(rounds.nth(2).locator('[data-testid="form-field"][data-field="confirm"] input[type="checkbox"]')).toBeChecked();
  await expect(rounds.nth(1).getByTestId('answer-action')).toHaveText('✔ answered: accepted');
});

test('edit & re-send goes with a fresh id (the captured one on request), to an editable URL, and says why an unreachable server did not answer', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await inspector.conversationRow('setup_wizard').click();
  await page.getByTestId('round').first().getByRole('button').first().click();
  await page.getByTestId('edit').click();
  const body = page.getByTestId('draft-body');
  await expect(body).toHaveValue(/"setup_wizard"/);
  // The captured id was 0; the draft carries another one, and the diff shows the change.
  await expect(body).not.toHaveValue(/"id": 0\b/);
  await expect(page.getByTestId('draft-diff').locator('[data-kind="removed"]')).toContainText('"id": 0');
  await page.getByTestId('resend-keep-id').check();
  await expect(body).toHaveValue(/"id": 0\b/);
  await page.getByTestId('resend-keep-id').uncheck();
  await expect(body).not.toHaveValue(/"id": 0\b/);
  // Pointed at a port where nothing listens, the answer names the causes and the next step.
  await expect(page.getByTestId('resend-url')).toHaveValue(/^http/);
  await page.getByTestId('resend-url').fill('http://127.0.0.1:9/mcp');
  await page.getByTestId('draft-send').click();
  const result = page.getByTestId('resend-result');
  await expect(result).toContainText('not answered');
  await expect(result).not.toContainText('HTTP 0');
  await expect(page.getByTestId('resend-summary')).toContainText('via relay');
});

test('a conversation that re-presents an earlier call\'s token links to that call by its name and time, and the link selects it', async ({ inspector, page }) => {
  const { capture, ask, reply } = await import('../support/capture-builder.ts');
  const { exportJsonl } = await import('../../worker/capture/jsonl.ts');
  const cap = capture();
  const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired({ ok: ask.form('Proceed?', { ok: { type: 'boolean' } }, ['ok']) }, 'tok-1');
  cap.retry(first, { ok: reply.accept() });
  cap.retry(first, { ok: reply.accept() }); // the same retry sent again after completion
  await inspector.importFile({ name: 'replayed.jsonl', text: exportJsonl(cap.build()) });
  const rows = page.locator('[data-testid="conversation"]').filter({ hasText: 'confirm_action' });
  await expect(rows).toHaveCount(2);
  await rows.nth(1).click();
  await expect(page.getByTestId('round')).toHaveCount(1);
  const link = page.getByTestId('replay-of-link');
  await expect(link).toContainText('the confirm_action call of');
  await expect(link).not.toContainText('c0');
  await link.click();
  await expect(page.getByTestId('round')).toHaveCount(2);
  await expect(page.getByTestId('replay-of-link')).toHaveCount(0);
});
