// Issue 4, item 1 (layout) and item 7 (look): the panes, the status bar, resizing that
// persists, light/dark from the system, and no captured text ever turned into markup.
import { expect, test } from './fixtures.ts';

const MANUAL = 'test/fixtures/sdk/sdk-v2-manual.har';

test('an imported capture fills the list, the thread, the detail pane and the status bar; light and dark follow prefers-color-scheme', async ({ inspector, page }) => {
  await inspector.importFile(MANUAL);
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(5);
  await expect(page.getByTestId('status-bar')).toContainText('5 conversations · 11 exchanges · ✖ 1 error · ▲ 0 warnings');
  const wizard = inspector.conversationRow('setup_wizard');
  await expect(wizard).toHaveAttribute('data-rounds', '4');
  await expect(wizard).toContainText('complete');
  // The tampered call: status and findings badge carry text and an icon, not colour alone.
  const failed = page.locator('[data-testid="conversation"][data-status="error"]');
  await expect(failed).toContainText('✖ error');
  await expect(failed.getByTestId('findings-badge')).toContainText('✖ 1');
  await wizard.click();
  await expect(page.getByTestId('round')).toHaveCount(4);
  await expect(page.getByTestId('tabpanel')).toHaveAttribute('data-tab', 'headers');
  await expect(page.getByTestId('header').filter({ hasText: 'mcp-method' })).toBeVisible();

  // Light and dark follow the system's preference.
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(bg).toBe('rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(bg).toBe('rgb(30, 31, 34)');
  const fg = await page.evaluate(() => getComputedStyle(document.body).color);
  expect(fg).toBe('rgb(227, 227, 232)');
  // Data is set in a monospace font.
  const font = await page.locator('[data-testid="conversation"] .mono').first().evaluate((el) => getComputedStyle(el).fontFamily);
  expect(font).toMatch(/mono|Menlo|Consolas/i);
});

test('panes resize and the layout survives a reload', async ({ inspector, page }) => {
  const list = page.getByTestId('splitter').first();
  const before = Number(await list.getAttribute('aria-valuenow'));
  await list.focus();
  // Narrower first: the default width is already near what a 1280-wide window allows.
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  await expect(list).toHaveAttribute('aria-valuenow', String(before - 80));
  const box = await list.boundingBox();
  await page.mouse.move(box!.x + 2, box!.y + 100);
  await page.mouse.down();
  await page.mouse.move(box!.x - 38, box!.y + 100, { steps: 4 });
  await page.mouse.up();
  await expect(list).toHaveAttribute('aria-valuenow', String(before - 120));
  await page.reload();
  await inspector.waitUntilCapturing();
  await expect(page.getByTestId('splitter').first()).toHaveAttribute('aria-valuenow', String(before - 120));
});

test('captured HTML and script in bodies and tokens are shown as text, never turned into elements', async ({ inspector, page }) => {
  const hostile = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b id=boom>b</b>';
  const token = `v1.${Buffer.from(JSON.stringify({ p: { note: hostile }, exp: 1 })).toString('base64url')}.AAAA`;
  const call = (id: number, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  const entry = (request: string, response: string, t: number) => ({
    startedDateTime: new Date(Date.UTC(2026, 10, 1, 0, 0, t)).toISOString(), time: 3,
    request: { method: 'POST', url: 'http://127.0.0.1:9/mcp', httpVersion: 'HTTP/1.1', cookies: [], queryString: [], headersSize: -1, bodySize: -1,
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'mcp-method', value: 'tools/call' }, { name: 'mcp-name', value: hostile }],
      postData: { mimeType: 'application/json', text: request } },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: -1, bodySize: -1,
      headers: [{ name: 'content-type', value: 'application/json' }], content: { size: response.length, mimeType: 'application/json', text: response } },
    cache: {}, timings: { send: 0, wait: 2, receive: 1 },
  });
  const first = call(1, { name: hostile, arguments: { html: hostile } });
  const ask = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', requestState: token,
    inputRequests: { [hostile]: { method: 'elicitation/create', params: { mode: 'form', message: hostile, requestedSchema: { type: 'object', properties: { [hostile]: { type: 'string', title: hostile } } } } },
      s: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: hostile } }], maxTokens: 5 } } } } });
  const retry = call(2, { name: hostile, arguments: { html: hostile }, requestState: token, inputResponses: { [hostile]: { action: 'accept', content: { x: hostile } } } });
  const done = JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: hostile } });
  const har = { log: { version: '1.2', creator: { name: 'e2e', version: '1' }, entries: [entry(first, ask, 1), entry(retry, done, 2)] } };
  await inspector.importFile({ name: 'hostile.har', text: JSON.stringify(har) });

  await page.locator('[data-testid="conversation"]').first().click();
  await expect(page.getByTestId('round')).toHaveCount(2);
  await expect(page.getByTestId('thread')).toContainText(hostile);
  for (const tab of ['headers', 'request', 'response', 'state', 'findings', 'timing']) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId('tabpanel')).toHaveAttribute('data-tab', tab);
  }
  await page.getByTestId('round').first().getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  await expect(page.getByTestId('token-payload').first()).toContainText('<script>');
  await page.getByTestId('round-diff').first().evaluate((d) => ((d as HTMLDetailsElement).open = true));
  await expect(page.locator('img[src="x"], #boom')).toHaveCount(0);
  const scripts = await page.locator('script').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  expect(scripts.some((s) => s.includes('__xss'))).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});
