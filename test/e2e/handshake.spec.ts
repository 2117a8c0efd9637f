// The page/worker version handshake.
import { expect, InspectorPage, test } from './fixtures.ts';

test('a stale service worker is replaced at start, and the page says so', async ({ page, context }) => {
  // The first copy of /sw.js the browser fetches claims an older build id. (The worker's
  // own update check is not routed through Playwright, so it gets the real script.)
  let served = 0;
  await context.route('**/sw.js', async (route) => {
    served += 1;
    if (served > 1) return route.continue();
    const res = await route.fetch();
    const code = (await res.text()).replace(/((?:const|let|var) BUILD_ID = )(["'])[^"']*\2/, '$1"stale-build"');
    // An assertion failing inside a route handler would hang the registration instead.
    await route.fulfill(code.includes('"stale-build"') ? { response: res, body: code } : { status: 500, body: 'BUILD_ID not found in /sw.js' });
  });
  const inspector = new InspectorPage(page);
  await inspector.open();
  // The notice is written only after a second handshake with the new worker matched.
  await expect(page.getByTestId('notice')).toContainText('was stale (build stale-build');
  await expect(page.getByTestId('notice')).toContainText('and was replaced by build');
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});
