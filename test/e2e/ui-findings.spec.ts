// The findings summary of the status bar: repeated findings grouped per server and rule,
// expandable to their occurrences, each of which selects its conversation.
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import { ask, capture, reply } from '../support/capture-builder.ts';
import { expect, test } from './fixtures.ts';

/** Six calls to one server, each issuing one readable unprotected token (so six state/unprotected warnings). */
function unprotectedCapture(): string {
  const cap = capture();
  for (let i = 0; i < 6; i++) {
    const token = Buffer.from(JSON.stringify({ step: i })).toString('base64url');
    const first = cap.call('tools/call', { name: `step_${i}`, arguments: { i } }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, token);
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
  }
  return exportJsonl(cap.build());
}

test('repeated findings are one line per server and rule, and an occurrence selects its conversation', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'unprotected.jsonl', text: unprotectedCapture() });
  await expect(page.getByTestId('conversation')).toHaveCount(6);
  await page.getByTestId('findings-open').click();
  const panel = page.getByTestId('findings-panel');
  const group = panel.locator('[data-testid="findings-entry"][data-rule="state/unprotected"]');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('data-count', '6');
  await expect(group.locator('summary')).toHaveText(/▲\s*state\/unprotected ×6 on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  await expect(group).toHaveAttribute('data-severity', 'warning');

  await group.locator('summary').click();
  const occurrences = group.getByTestId('finding-occurrence');
  await expect(occurrences).toHaveCount(6);
  const fourth = occurrences.nth(3);
  const conversation = await fourth.getAttribute('data-conversation');
  expect(conversation).toBeTruthy();
  // Named by tool, round and time, not by internal ids.
  await expect(fourth).toHaveText(/^step_\d, round \d+ at \d{1,2}:\d\d:\d\d/);
  await expect(fourth).not.toContainText(conversation!);
  const round = await fourth.getAttribute('data-round');
  await fourth.click();
  const row = page.locator(`[data-testid="conversation"][data-id="${conversation}"]`);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-testid="conversation"][aria-selected="true"]')).toHaveCount(1);
  // The thread of that conversation is on screen (each call has its own tool name).
  const name = (await row.locator('.c-name').innerText()).trim();
  expect(name).toMatch(/^step_\d$/);
  await expect(page.getByTestId('thread').locator('h2')).toContainText(name);
  await expect(page.locator('[data-testid="round"][aria-current="true"]')).toHaveAttribute('data-round', round!);

  await page.getByTestId('findings-close').click();
  await expect(panel).toHaveCount(0);
  // Esc closes it too.
  await page.getByTestId('findings-open').click();
  await expect(panel).toBeVisible();
  await page.locator('body').press('Escape');
  await expect(panel).toHaveCount(0);
});
