// A retry that fits two open calls equally starts its own conversation, linked ambiguously:
// its first round is the ambiguous one, so the list's "?" and the thread header say which
// calls it could have continued and why, not only "?".
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import { ask, capture, reply } from '../support/capture-builder.ts';
import { expect, test } from './fixtures.ts';

function tiedRetry(): string {
  const cap = capture();
  const confirm = { ok: ask.form('Sure?', { ok: { type: 'boolean' } }) };
  const first = cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm);
  cap.call('tools/call', { name: 'confirm_action', arguments: {} }).inputRequired(confirm);
  cap.retry(first, { ok: reply.accept({ ok: true }) });
  return exportJsonl(cap.build());
}

test('an ambiguous first round names its candidates and the reason on the list and in the thread', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'tied.jsonl', text: tiedRetry() });
  await expect(page.getByTestId('conversation')).toHaveCount(3);
  const tag = page.getByTestId('ambiguous-tag');
  await expect(tag).toHaveCount(1);
  await expect(tag).toHaveText('?');
  await expect(tag).toHaveAttribute('title', /could continue the confirm_action call of .+ or the confirm_action call of .+: .*no token tells them apart/);

  await page.locator('[data-testid="conversation"]').filter({ has: tag }).click();
  const line = page.getByTestId('thread-ambiguous');
  await expect(line).toBeVisible();
  await expect(line).toContainText(/ambiguous start: could continue the confirm_action call of .+ or the confirm_action call of .+: .*no token tells them apart/);
});
