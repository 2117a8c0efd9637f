// The flag that spares each test's window Chromium's WebUI omnibox popup (chromium-args.ts)
// still names the features this Chromium has: a renamed feature would bring back a renderer
// and about a second of CPU per browser context, silently.
import { expect, test } from './fixtures.ts';

test('a new browser context loads no WebUI omnibox popup beside its page', async ({ browser, page }) => {
  await page.goto('data:text/html,<p>blank</p>');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
  await cdp.detach();
  expect(targetInfos.map((t) => t.url)).toContain('data:text/html,<p>blank</p>');
  expect(targetInfos.filter((t) => t.url.startsWith('chrome://omnibox-popup')).map((t) => t.url)).toEqual([]);
});
