// The page names things the way the user sees them: rounds by their number in the thread,
// calls by their tool and time, never by the store's exchange numbers; the calls an
// ambiguous round could continue are links; an answer that never came says so.
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import { ask, capture, reply } from '../support/capture-builder.ts';
import { expect, test } from './fixtures.ts';
import { taskCapture } from './fixtures/task-capture.ts';

function tiedRetry(): string {
  const cap = capture();
  const confirm = { ok: ask.form('Sure?', { ok: { type: 'boolean' } }) };
  const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm);
  cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm);
  cap.retry(first, { ok: reply.accept({ ok: true }) });
  return exportJsonl(cap.build());
}

test('the calls an ambiguous start could continue are links that select them', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'tied.jsonl', text: tiedRetry() });
  await page.locator('[data-testid="conversation"]').filter({ has: page.getByTestId('ambiguous-tag') }).click();
  const links = page.getByTestId('thread-ambiguous').getByTestId('candidate-link');
  await expect(links).toHaveCount(2);
  await expect(links.first()).toHaveText(/^the confirm_action call of /);
  const target = await links.nth(1).getAttribute('data-conversation');
  await links.nth(1).click();
  await expect(page.locator(`[data-testid="conversation"][data-id="${target}"]`)).toHaveAttribute('aria-selected', 'true');
});

test('the task card and the Timing tab name rounds by their number in the thread, not by exchange', async ({ inspector, page }) => {
  await inspector.importFile(taskCapture());
  await inspector.conversationRow('book_trip').click();
  const answered = page.getByTestId('task-card').getByTestId('task-answered');
  await expect(answered).toContainText(/seat .* in round #\d+/);
  await expect(answered).not.toContainText('exchange');
  const link = answered.getByTestId('task-answered-round').first();
  const n = Number((await link.textContent())!.replace(/\D/g, ''));
  await link.click();
  await expect(page.getByTestId('round').nth(n - 1)).toHaveAttribute('aria-current', 'true');

  await page.getByTestId('tab-timing').click();
  const timing = page.getByTestId('timing');
  await expect(timing).toContainText(`round #${n} of this call`);
  await expect(timing).not.toContainText('exchange');
});

test('a round the server never answered says so in its ANSWER section instead of leaving it empty', async ({ inspector, page }) => {
  const cap = capture();
  const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired({ ok: ask.form('Sure?', { ok: { type: 'boolean' } }) });
  cap.wait(60_000);
  cap.retry(first, { ok: reply.accept({ ok: true }) }).noResponse();
  await inspector.importFile({ name: 'silent.jsonl', text: exportJsonl(cap.build()) });
  await inspector.conversationRow('confirm_action').click();
  const last = page.getByTestId('round').nth(1);
  await expect(last).toHaveAttribute('data-outcome', 'no-response');
  await expect(last.getByTestId('no-answer')).toContainText('no answer: the server sent nothing back');
  await expect(page.getByTestId('round').first().getByTestId('no-answer')).toHaveCount(0);
  // One definition of duration: the unanswered retry a minute later does not lengthen it, in the list or the thread.
  const listed = (await inspector.conversationRow('confirm_action').getByTestId('duration-cell').textContent())!;
  expect(listed).not.toMatch(/min/);
  await expect(page.getByTestId('thread-duration')).toHaveText(`duration ${listed}`);
});

test('while an imported session is on screen the toolbar and status bar say the capture goes elsewhere, not that the screen records', async ({ inspector, page }) => {
  const status = page.getByTestId('sw-status');
  await expect(status).toHaveText('● Capturing');
  const capture = await page.getByTestId('session-picker').inputValue();
  await inspector.importFile(taskCapture());
  await expect(status).toHaveText('○ Capturing elsewhere');
  await expect(status).toHaveAttribute('data-status', 'capturing');
  await expect(page.getByTestId('status-capture')).toHaveText('· stored session, not recording');
  await expect(page.getByTestId('status-bar')).not.toContainText('capturing');
  await page.getByTestId('session-picker').selectOption(capture);
  await expect(status).toHaveText('● Capturing');
  await expect(page.getByTestId('status-capture')).toHaveText('· capturing');
});
