// The page/worker version handshake.
import { expect, InspectorPage, serverBuildId, test, withBuildId } from './fixtures.ts';

test('a stale service worker is replaced at start, and the page says so', async ({ page, context, browser, baseURL }) => {
  // The first copy of /sw.js the browser fetches claims an older build id: the served
  // script with the server's build id (asked in a context of its own) replaced. (The
  // worker's own update check is not routed through Playwright, so it gets the real script.)
  const build = await serverBuildId(browser, baseURL!);
  let served = 0;
  await context.route('**/sw.js', async (route) => {
    served += 1;
    if (served > 1) return route.continue();
    const res = await route.fetch();
    const code = await res.text();
    // An assertion failing inside a route handler would hang the registration instead.
    await route.fulfill(code.includes(build) ? { response: res, body: withBuildId(code, build, 'stale-build') } : { status: 500, body: `build id ${build} not found in /sw.js` });
  });
  const inspector = new InspectorPage(page);
  await inspector.open();
  // The notice is written only after a second handshake with the new worker matched.
  await expect(page.getByTestId('notice')).toContainText('was stale (build stale-build');
  await expect(page.getByTestId('notice')).toContainText('and was replaced by build');
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});
