// A large batch is listed first and checked next (engine/analysis-engine.ts "Checks may
// trail", services/context.ts): nothing is checked while a relay drain is read, and what it
// left is checked in slices once it is read, the page told after each. The status bar
// then counts what the whole analysis finds.
import { analyze } from '../../worker/analysis.ts';
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import { ask, capture, reply } from '../support/capture-builder.ts';
import { expect, InspectorPage, test } from './fixtures.ts';

/** `calls` calls of two rounds each, each issuing a readable unprotected token: far more
 *  checking than one slice of it holds. */
function backlog(calls: number) {
  const cap = capture();
  for (let i = 0; i < calls; i++) {
    const token = Buffer.from(JSON.stringify({ step: i })).toString('base64url');
    const first = cap.call('tools/call', { name: `step_${i % 7}`, arguments: { i } }).inputRequired({ k: ask.form('?', { a: { type: 'string' } }) }, token);
    cap.retry(first, { k: reply.accept({ a: 'b' }) });
  }
  return cap.build().map((r) => ({ ...r, source: 'relay' as const }));
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

test('a relay backlog far larger than one slice of checks is listed, then checked whole: the status bar ends at what the whole analysis finds', async ({ page }) => {
  const records = backlog(3000);
  const whole = await analyze(structuredClone(records), { final: false });
  const errors = whole.findings.filter((f) => f.severity === 'error').length;
  const warnings = whole.findings.filter((f) => f.severity === 'warning').length;
  expect(warnings).toBeGreaterThanOrEqual(3000); // one state/unprotected per call at least

  // The page's first drain gets this backlog (no drain id: nothing to acknowledge).
  let served = false;
  await page.route((url) => url.pathname === '/relay/api/backlog', async (route) => {
    if (served) return route.continue();
    served = true;
    await route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: exportJsonl(records) });
  });
  const inspector = new InspectorPage(page);
  await inspector.open();
  await expect(page.getByTestId('count-exchanges')).toHaveText(plural(records.length, 'exchange'), { timeout: 60_000 });
  // Without the checks that follow the drain, the counts would stop at what one slice found.
  await expect(page.getByTestId('count-checking')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('count-warnings')).toHaveText(`▲ ${plural(warnings, 'warning')}`);
  await expect(page.getByTestId('count-errors')).toHaveText(`✖ ${plural(errors, 'error')}`);
});
