// Nothing on screen is cut without a way to read it, and nothing runs off the window: at
// five window sizes, light and dark, one crowded call is drawn and measured (scrollWidth
// against clientWidth, bounding boxes against the window). One page load for the whole
// sweep: the window is resized between sizes, so the suite stays fast. The dark theme
// changes colours only (test/unit/web/theme-colours-only.test.ts holds it to that), so it
// cannot move a box: it is swept at one size, the smallest, not at all five again.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { crowdedHar } from './fixtures/crowded-har.ts';

const SIZES = [
  { width: 1024, height: 640 }, { width: 1024, height: 768 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 2560, height: 1440 },
] as const;
/** Each theme with the sizes it is measured at. */
const THEMES = [{ theme: 'light', sizes: SIZES }, { theme: 'dark', sizes: [SIZES[0]] }] as const;

/** List cells whose text runs out of them with no title giving the whole text. */
function cutWithoutTitle(page: Page): Promise<string[]> {
  return page.locator('[data-testid="conversation"] > span').evaluateAll((els) => els
    .filter((e) => e.scrollWidth > e.clientWidth + 1)
    .filter((e) => {
      const title = e.getAttribute('title') ?? '';
      // The title must hold every piece of text the cell shows (tags and badges included).
      const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      const pieces: string[] = [];
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const t = (n.textContent ?? '').trim();
        if (t && !n.parentElement?.closest('[aria-hidden="true"]')) pieces.push(t);
      }
      return !title || pieces.some((t) => !title.includes(t));
    })
    .map((e) => `${e.className}: "${e.textContent}" title="${e.getAttribute('title') ?? ''}"`));
}

/** Keys of the visible JSON trees that wrap onto a second line or are cut. */
function squashedKeys(page: Page): Promise<string[]> {
  return page.locator('.jt .k, .jt .ix').evaluateAll((els) => els
    .filter((e) => (e as HTMLElement).offsetParent !== null)
    .filter((e) => {
      const r = e.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(e).fontSize) * 1.9;
      return r.height > line || e.scrollWidth > e.clientWidth + 1;
    })
    .map((e) => `${e.textContent} (${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)})`));
}

/** Where a box leaves the window, or null when it lies wholly inside. */
async function offWindow(page: Page, el: Locator): Promise<string | null> {
  const b = await el.boundingBox();
  const vp = page.viewportSize()!;
  if (!b) return 'not drawn';
  const out = b.x < 0 || b.y < 0 || b.x + b.width > vp.width + 0.5 || b.y + b.height > vp.height + 0.5;
  return out ? `${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)} in ${vp.width}x${vp.height}` : null;
}

/** Descendants of `el` (and `el`) whose text runs out of their box. */
function overflowing(el: Locator): Promise<string[]> {
  return el.evaluate((root) => [root, ...Array.from(root.querySelectorAll('*'))]
    .filter((e) => e instanceof HTMLElement && e.offsetParent !== null && getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
    .map((e) => `${e.getAttribute('data-testid') ?? e.className}: ${e.scrollWidth} > ${e.clientWidth}`));
}

/** Points along the sticky thread header where something else is drawn on top of it. */
function headerCovered(page: Page): Promise<string[]> {
  return page.getByTestId('thread-header').evaluate((h) => {
    // Across the whole pane, its side padding included.
    const pane = h.closest('[data-testid="thread"]')!.getBoundingClientRect();
    const r = { left: pane.left, width: pane.width - 14, top: h.getBoundingClientRect().top, bottom: h.getBoundingClientRect().bottom };
    const out: string[] = [];
    for (const fx of [0.005, 0.25, 0.5, 0.75, 0.995]) {
      for (const y of [r.top + 2, r.bottom - 1.5]) {
        const x = r.left + r.width * fx;
        const top = document.elementFromPoint(x, y);
        if (top && !h.contains(top)) out.push(`${Math.round(x)},${Math.round(y)}: ${top.getAttribute('data-testid') ?? top.className}`);
      }
    }
    return out;
  });
}

test('at five window sizes (light) and the smallest (dark), no list cell, tree key or menu is cut or off screen, and the thread header stays on top', async ({ inspector, page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(SIZES[0]);
  await inspector.importFile(crowdedHar());
  await inspector.conversationRow('provision_workspace').click();
  await expect(page.getByTestId('round')).toHaveCount(4);
  const problems: string[] = [];
  const note = (where: string, list: string[] | string | null) => {
    for (const p of Array.isArray(list) ? list : list ? [list] : []) problems.push(`${where}: ${p}`);
  };

  for (const { theme, sizes } of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const size of sizes) {
      await page.setViewportSize(size);
      const at = `${size.width}x${size.height} ${theme}`;
      const stacked = size.width < 1200;
      await expect(page.getByTestId('pane-detail')).toHaveCount(stacked ? 1 : 0);

      note(`${at} list`, await cutWithoutTitle(page));

      // The selected round scrolled up under the sticky header: the header stays on top.
      if (stacked) await page.getByTestId('pane-thread').click();
      await page.getByTestId('round').first().locator('.head').click();
      await page.getByTestId('thread').evaluate((t) => {
        // Round 2's top 10 px under the header.
        const r = t.querySelector('[data-round="1"]')!.getBoundingClientRect();
        t.scrollTop += r.top - t.querySelector('header')!.getBoundingClientRect().bottom + 10;
      });
      note(`${at} thread header`, await headerCovered(page));
      // A round selected by key while its top is under the header is brought out from under it.
      await page.keyboard.press('j');
      await expect(page.getByTestId('round').nth(1)).toHaveAttribute('aria-current', 'true');
      const under = await page.getByTestId('thread').evaluate((t) =>
        t.querySelector('header')!.getBoundingClientRect().bottom - t.querySelector('[data-round="1"]')!.getBoundingClientRect().top);
      if (under > 0.5) note(`${at} thread`, `the selected round's top is ${Math.round(under)} px under the header`);
      note(`${at} thread keys`, await squashedKeys(page));

      // The token's payload and the request body: keys beside long values.
      if (stacked) await page.getByTestId('pane-detail').click();
      for (const tab of ['state', 'request', 'response']) {
        await page.getByTestId(`tab-${tab}`).click();
        await expect(page.getByTestId('tabpanel')).toHaveAttribute('data-tab', tab);
        note(`${at} ${tab} keys`, await squashedKeys(page));
      }
      if (stacked) await page.getByTestId('pane-thread').click();

      // Menus: inside the window, their text whole.
      await page.getByTestId('export').click();
      const menu = page.getByTestId('export-menu');
      await expect(menu).toBeVisible();
      note(`${at} export menu`, await offWindow(page, menu));
      note(`${at} export menu`, await overflowing(menu));
      await page.getByTestId('export').click();
      await page.getByTestId('columns-menu').click();
      note(`${at} columns menu`, await offWindow(page, page.getByTestId('columns-pop')));
      await page.getByTestId('columns-menu').click();

      // A bad filter: the box keeps its width, the error shows whole, the status bar is not cut.
      const filter = page.getByTestId('filter');
      const width = (await filter.boundingBox())!.width;
      await filter.fill('foo:bar');
      await filter.press('Enter');
      const error = page.getByTestId('filter-error');
      await expect(error).toBeVisible();
      const after = (await filter.boundingBox())!.width;
      if (after < width - 1) note(`${at} filter`, `the box shrank from ${Math.round(width)} to ${Math.round(after)} px`);
      note(`${at} filter error`, await offWindow(page, error));
      note(`${at} filter error`, await overflowing(error));
      note(`${at} status bar`, await overflowing(page.getByTestId('status-bar')));
      await filter.fill('');
      await filter.press('Enter');
      await expect(error).toBeHidden();
    }
  }
  expect(problems).toEqual([]);
});
