// The tasks extension in the page: a task's conversation shows a task card (status
// timeline, polls and their pace, keys outstanding and answered, the final result), and
// the filter terms has:task and task:<status> narrow the list. One test: one import, read
// as a user would.
import { expect, test } from './fixtures.ts';
import { taskCapture } from './fixtures/task-capture.ts';

test('a task conversation shows its task card: timeline, polls, keys and result; has:task and task:<status> filter the list', async ({ inspector, page }) => {
  await inspector.importFile(taskCapture());
  await inspector.conversationRow('book_trip').click();
  const card = page.getByTestId('task-card');
  await expect(card.getByTestId('task-id')).toHaveText('trip-1');
  await expect(card.getByTestId('task-status')).toHaveText('completed');
  await expect(card.getByTestId('task-timeline-step')).toHaveText([/working\s*×3/, /input_required\s*×2/, /completed/]);
  await expect(card.getByTestId('task-polls')).toContainText('5 polls (1 folded into earlier rounds)');
  await expect(card.getByTestId('task-polls')).toContainText('interval asked 500 ms');
  await expect(card.getByTestId('task-polls')).toContainText('seen 700 ms');
  await expect(card.getByTestId('task-answered')).toContainText('seat');
  await expect(card.getByTestId('task-answered')).toContainText('meal');
  await expect(card.getByTestId('task-outstanding')).toHaveText('none');
  await expect(card.getByTestId('task-final')).toContainText('Booked: seat 12C, soup.');
  // The MRTR rounds before the task and every task step are rounds of this one thread.
  const rounds = page.getByTestId('round');
  await expect(rounds).toHaveCount(8);
  await expect(rounds.nth(2).getByTestId('round-task')).toHaveText('task get: working ×2 polls');

  await inspector.conversationRow('render_video').click();
  await expect(page.getByTestId('task-card').getByTestId('task-outstanding')).toContainText('codec');
  await expect(page.getByTestId('task-card').getByTestId('task-final')).toHaveCount(0);

  // The filter terms of the tasks extension, typed in the page (the terms' matching is
  // test/unit/query/task-filter.test.ts).
  const rows = page.getByTestId('conversation');
  await expect(rows).toHaveCount(4);
  const filter = page.getByTestId('filter');
  await filter.fill('has:task');
  await expect(rows).toHaveCount(3);
  await filter.fill('-has:task');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('echo');
  await filter.fill('task:input_required');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('render_video');
  await filter.fill('task:cancelled');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('index_repo');
  await filter.fill('task:done');
  await expect(page.getByTestId('filter-error')).toBeVisible();
});
