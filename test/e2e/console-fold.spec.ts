// The Console's results and questions come into sight at small windows: the first question's
// input and Accept, the re-send's answer and its "Show it" are scrolled into view (checked by
// geometry: the element's box inside the viewport, and on top at its centre, not hidden by
// its scrolling container); "Call as task" leaves no paused step-through above the task.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** The element is wholly inside the viewport and is what the page shows at its centre. */
async function expectInSight(page: Page, el: Locator, what: string): Promise<void> {
  await expect(el, what).toBeVisible();
  await expect.poll(async () => {
    const box = await el.boundingBox();
    const vp = page.viewportSize()!;
    if (!box) return 'no box';
    if (box.y < 0 || box.x < 0 || box.y + box.height > vp.height || box.x + box.width > vp.width) return `outside the ${vp.width}x${vp.height} viewport: ${JSON.stringify(box)}`;
    const onTop = await el.evaluate((node, p) => {
      const hit = document.elementFromPoint(p.x, p.y);
      return hit !== null && (node === hit || node.contains(hit));
    }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    return onTop ? 'in sight' : 'covered or clipped at its centre';
  }, { message: what }).toBe('in sight');
}

async function startWizard(page: Page): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
}

for (const size of [{ width: 1024, height: 640 }, { width: 1024, height: 768 }]) {
  test(`at ${size.width}x${size.height} the first question and the re-send's answer are scrolled into view`, async ({ inspector, page }) => {
    await page.setViewportSize(size);
    await startWizard(page);
    const q = page.locator('[data-testid="questions"] [data-testid="question"][data-key="name"]');
    await expectInSight(page, q.getByLabel('Workspace name'), 'the first question\'s input');
    await expectInSight(page, q.getByTestId('answer-accept'), 'its Accept');

    // Edit & re-send the call's first round: the answer and "Show it" come into sight.
    const row = inspector.conversationRow('setup_wizard');
    await expect(row).toHaveCount(1, { timeout: 30_000 });
    await row.click();
    await page.getByTestId('round').first().getByRole('button').first().click();
    await page.keyboard.press('e');
    await expect(page.getByTestId('draft-body')).toHaveValue(/"setup_wizard"/);
    await page.getByTestId('draft-send').click();
    await expect(page.getByTestId('resend-result')).toContainText('HTTP 200');
    await expectInSight(page, page.getByTestId('resend-result'), 'the re-send\'s answer');
    await expectInSight(page, page.getByTestId('resend-show'), '"Show it"');
  });
}

test('"Call as task" replaces a step-through left paused: no question of the earlier call stays above the task', async ({ inspector: _, page }) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  await startWizard(page);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
  await page.getByTestId('console-start-task').click();
  await expect(page.getByTestId('task')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('step')).toHaveCount(0);
  await expect(page.getByTestId('questions')).toHaveCount(0);
});
