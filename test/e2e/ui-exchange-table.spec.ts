// The Console's table of the newest raw exchanges keeps only the rows in view (and a margin)
// in the document: a session larger than that is scrolled through, its newest row drawn once
// it comes into view, and the heading counts the whole page of 200.
import { expect, test } from './fixtures.ts';

test('a session of 600 exchanges: the table counts its newest 200, draws only the rows near the view, and scrolling to the end draws the newest', async ({ inspector, page }) => {
  await inspector.importGenerated(600);
  await page.getByTestId('console-tab-traffic').click();
  await expect(page.locator('#exchanges-h .count')).toHaveText('200');
  const rows = page.locator('[data-testid="exchange"]');
  const seqs = async () => rows.evaluateAll((rs) => rs.map((r) => Number(r.querySelector('td')!.textContent)));
  // The oldest of the 200 (seq 400) at the top; far fewer than 200 rows in the document.
  await expect.poll(async () => (await seqs())[0]).toBe(400);
  const top = await seqs();
  expect(top.length).toBeGreaterThan(10);
  expect(top.length).toBeLessThan(100);
  expect(top).toEqual(top.map((_, i) => 400 + i));
  // Scrolled to the end: the newest (seq 599) is drawn, the oldest is not.
  await page.getByTestId('exchange-scroll').evaluate((s) => { s.scrollTop = s.scrollHeight; });
  await expect.poll(async () => (await seqs()).at(-1)).toBe(599);
  const end = await seqs();
  expect(end[0]).toBeGreaterThan(400);
  expect(end.length).toBeLessThan(100);
  // Its cells are whole in their titles when cut.
  const last = rows.last();
  await expect(last).toBeInViewport();
  await expect(last.locator('td.url')).toHaveAttribute('title', /^http/);
});
