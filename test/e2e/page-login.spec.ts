// The inspector lets a browser in only through the link printed at start: a browser without
// the page cookie is told where the link is, the link trades its token for the cookie and
// leaves the address bar, and reloads and new tabs keep working on the bare URL.
import { expect, InspectorPage, PAGE_TOKEN, test } from './fixtures.ts';

test('a browser without the link sees where to find it; the link lets it in, leaves the address bar, and reloads and a second tab keep working', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const locked = await page.goto('/');
    expect(locked?.status()).toBe(403);
    await expect(page.getByRole('heading')).toHaveText('Open the link printed in your terminal');
    await expect(page.locator('body')).toContainText(`${baseURL}/?token=…`);
    expect(await context.cookies()).toEqual([]);

    await page.goto(`/?token=${'A'.repeat(32)}`);
    await expect(page.locator('body')).toContainText("This link's token is not this inspector's");
    expect(await context.cookies()).toEqual([]);

    await page.goto(`/?token=${PAGE_TOKEN}`);
    await expect(page).toHaveURL(`${baseURL}/`);
    const inspector = new InspectorPage(page);
    await inspector.waitUntilCapturing();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.reload();
    await inspector.waitUntilCapturing();
    const second = await context.newPage();
    await new InspectorPage(second).open();
    await expect(second).toHaveURL(`${baseURL}/`);
  } finally {
    await context.close();
  }
});
