// The conversation list draws only the rows near its view (web/lib/fixed-rows.svelte.ts): a
// long list scrolled by the keyboard keeps the selected row whole in view below the sticky
// header, both ways, and scrolling to the end draws the last row.
import { expect, test } from './fixtures.ts';

test('j and k keep the selected row whole in view below the header in a list longer than the screen', async ({ inspector, page }) => {
  await inspector.importGenerated(900);
  const rows = page.getByTestId('conversation');
  const scroller = page.getByTestId('conversation-scroll');
  const total = Number((await page.getByTestId('count-conversations').textContent())!.split(' ')[0]);
  expect(total).toBeGreaterThan(150);
  // Far fewer rows in the document than in the list.
  expect(await rows.count()).toBeLessThan(80);
  // Where the selected row is against the header and the view (both read again: the panes
  // may move as the selection's thread loads). Rows are 22 px apart; each one's bottom
  // border (1 px) lies under the next row.
  const shownWhole = async () => {
    const [b, head, view] = await Promise.all([page.locator('[data-testid="conversation"][aria-selected="true"]').boundingBox(), scroller.locator('.head').boundingBox(), scroller.boundingBox()]);
    if (!b || !head || !view) return 'not laid out';
    const fits = b.y >= head.y + head.height - 0.5 && b.y + 22 <= view.y + view.height + 0.5;
    return fits ? 'whole' : `row at ${b.y}-${b.y + 22}, header ends at ${head.y + head.height}, view ends at ${view.y + view.height}`;
  };
  await rows.first().click();
  for (let i = 0; i < 60; i++) await page.keyboard.press('j');
  await expect(page.locator('[data-testid="conversation"][aria-selected="true"]')).toHaveCount(1);
  await expect.poll(shownWhole).toBe('whole');
  expect(await scroller.evaluate((s) => s.scrollTop)).toBeGreaterThan(0);
  for (let i = 0; i < 55; i++) await page.keyboard.press('k');
  await expect.poll(shownWhole).toBe('whole');
  // Scrolled to the end: the last row is drawn and the first is not.
  const firstId = await rows.first().getAttribute('data-id');
  await scroller.evaluate((s) => { s.scrollTop = s.scrollHeight; });
  await expect.poll(async () => rows.evaluateAll((rs) => rs.some((r) => r.getBoundingClientRect().bottom > 0))).toBe(true);
  await expect(page.locator(`[data-testid="conversation"][data-id="${firstId}"]`)).toHaveCount(0);
  const drawnLast = await rows.evaluateAll((rs) => Math.max(...rs.map((r) => r.getBoundingClientRect().bottom)));
  const view = (await scroller.boundingBox())!;
  expect(drawnLast).toBeGreaterThan(view.y + view.height - 30);
});
