// Words in the thread and the dialogs read as written: a task card's step keeps the space
// before its time, and the Clear dialog counts one conversation in the singular.
import { expect, test } from './fixtures.ts';
import { taskCapture } from './fixtures/task-capture.ts';

test('a task card\'s timeline keeps a space between a step\'s repeat count and its time', async ({ inspector, page }) => {
  await inspector.importFile(taskCapture());
  await inspector.conversationRow('book_trip').click();
  const steps = page.getByTestId('task-card').getByTestId('task-timeline-step');
  await expect(steps.first()).toHaveText(/^working ×3 \d/);
  await expect(steps.first().getByTestId('task-step-at')).toHaveText(/^ \d/);
});

test('the Clear dialog of a stored session with one conversation says "1 conversation"', async ({ inspector, page }) => {
  const { capture } = await import('../support/capture-builder.ts');
  const { exportJsonl } = await import('../../worker/capture/jsonl.ts');
  const cap = capture();
  cap.call('tools/call', { name: 'only_one', arguments: {} });
  await inspector.importFile({ name: 'one.jsonl', text: exportJsonl(cap.build()) });
  await page.getByTestId('clear').click();
  const dialog = page.getByTestId('confirm-clear');
  await expect(dialog).toContainText('deletes its 1 conversation from this browser');
  await page.getByTestId('confirm-clear-no').click();
});
