// An imported file is a finished capture: the page reads it as the CLI does, so a call
// left waiting for its retry is abandoned (not in progress), also after a reload.
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import { ask, capture, reply } from '../support/capture-builder.ts';
import { expect, test } from './fixtures.ts';

/** One call answered to the end, one left waiting on its input request. */
function withUnanswered(): string {
  const cap = capture();
  const done = cap.call('tools/call', { name: 'answered_call', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, 'T1');
  cap.retry(done, { k: reply.accept({ a: 'b' }) });
  cap.call('tools/call', { name: 'left_waiting', arguments: {} }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, 'T2');
  return exportJsonl(cap.build());
}

test('an imported call left waiting reads abandoned, as the CLI says, and status:abandoned finds it', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'unanswered.jsonl', text: withUnanswered() });
  await expect(page.getByTestId('conversation')).toHaveCount(2);
  await expect(inspector.conversationRow('left_waiting')).toHaveAttribute('data-status', 'abandoned');
  await expect(page.locator('[data-testid="conversation"][data-status="in-progress"]')).toHaveCount(0);

  const filter = page.getByTestId('filter');
  await filter.fill('status:abandoned');
  await expect(page.getByTestId('conversation')).toHaveCount(1);
  await expect(inspector.conversationRow('left_waiting')).toBeVisible();

  // Read again from storage after a reload: still a finished capture.
  const session = await page.getByTestId('session-picker').inputValue();
  await page.reload();
  await page.getByTestId('session-picker').selectOption(session);
  await expect(inspector.conversationRow('left_waiting')).toHaveAttribute('data-status', 'abandoned');
});
