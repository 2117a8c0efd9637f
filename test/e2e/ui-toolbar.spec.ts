// Issue 4, item 1: the toolbar's record toggle, clear and preserve log, on real demo calls.
import { expect, relayCall, test, toolsCall } from './fixtures.ts';

test('pausing recording stops the tap, clear empties the view, and preserve log keeps the old session', async ({ inspector, page }) => {
  const rows = page.locator('[data-testid="conversation"]');
  // The page's demo calls carry JSON-RPC ids 1, 2, 3… in order.
  const callDemo = async () => {
    await page.getByTestId('call-demo').click();
    await expect(page.getByTestId('last-call')).toContainText('HTTP');
  };
  const storedIds = async () => (await inspector.storedExchanges()).map((r) => (JSON.parse(r.request.body ?? '{}') as { id?: number }).id);

  await callDemo();
  await expect(rows).toHaveCount(1);

  // Paused: call 2 still goes out and is answered, but the tap records nothing.
  await page.getByTestId('record').click();
  await expect(page.getByTestId('record')).toHaveAttribute('aria-pressed', 'false');
  await callDemo();
  await page.getByTestId('record').click();
  await expect(page.getByTestId('record')).toHaveAttribute('aria-pressed', 'true');
  await callDemo();
  // Once call 3 is stored, call 2 would be too had it been tapped (it ended before 3 began).
  await expect.poll(storedIds).toContain(3);
  expect(await storedIds()).not.toContain(2);
  await expect(rows).toHaveCount(2);

  // Clear without preserve log: the session on screen is emptied.
  await page.getByTestId('clear').click();
  await expect(rows).toHaveCount(0);
  await callDemo();
  await expect(rows).toHaveCount(1);

  // With preserve log: clear starts a new session and keeps the old one selectable.
  await page.getByTestId('preserve-log').check();
  const options = page.getByTestId('session-picker').locator('option');
  const before = await options.count();
  const old = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('clear').click();
  await expect(options).toHaveCount(before + 1);
  await expect(rows).toHaveCount(0);
  await page.getByTestId('session-picker').selectOption(old);
  await expect(rows).toHaveCount(1);
});

test('"Call" sends the demo tool chosen from the demo\'s tools/list, kept across a reload; the default one completes', async ({ inspector, page }) => {
  // The default finishes on its first request: its row completes.
  await page.getByTestId('call-demo').click();
  await expect(inspector.conversationRow('slow_report')).toHaveAttribute('data-status', 'complete');

  // The menu lists what the demo's tools/list names; a choice is what the next call sends.
  await page.getByTestId('demo-tool-menu').click();
  await expect(page.getByTestId('demo-tool')).toContainText(['confirm_action', 'setup_wizard', 'busy', 'slow_report']);
  await expect(page.locator('[data-testid="demo-tool"][aria-checked="true"]')).toHaveAttribute('data-name', 'slow_report');
  await page.locator('[data-testid="demo-tool"][data-name="setup_wizard"]').click();
  await page.getByTestId('call-demo').click();
  const wizard = inspector.conversationRow('setup_wizard');
  await expect(wizard).toHaveCount(1);
  const sent = await inspector.waitForStored((r) => r.request.headers.some((h) => h.name === 'mcp-name' && h.value === 'setup_wizard'), 'the chosen call');
  expect(JSON.parse(sent.request.body ?? '{}')).toMatchObject({ method: 'tools/call', params: { name: 'setup_wizard' } });

  // Remembered: after a reload the button still calls it.
  await page.reload();
  await inspector.waitUntilCapturing();
  await expect(page.getByTestId('call-demo')).toHaveAttribute('data-tool', 'setup_wizard');
  await page.getByTestId('call-demo').click();
  await expect(page.locator('[data-testid="conversation"]').filter({ hasText: 'setup_wizard' })).toHaveCount(2);
});

test('after Clear with preserve log, calls through the relay go to the new session too, not the one the relay feed numbered into before', async ({ inspector, page, relay }) => {
  const rows = page.locator('[data-testid="conversation"]');
  const rpcId = (body: string | undefined) => (JSON.parse(body ?? '{}') as { id?: number }).id;
  const sessionOf = async (id: number) => (await inspector.storedExchanges()).find((r) => rpcId(r.request.body) === id)?.session;
  expect((await relayCall(relay, toolsCall(301, 'busy'))).status).toBe(200);
  await expect(rows).toHaveCount(1);
  const old = await page.getByTestId('session-picker').inputValue();
  await expect.poll(() => sessionOf(301)).toBe(old);

  await page.getByTestId('preserve-log').check();
  await page.getByTestId('clear').click();
  await expect(rows).toHaveCount(0);
  const fresh = await page.getByTestId('session-picker').inputValue();
  expect(fresh).not.toBe(old);
  expect((await relayCall(relay, toolsCall(302, 'busy'))).status).toBe(200);
  await expect.poll(() => sessionOf(302)).toBe(fresh);
  await expect(rows).toHaveCount(1);
  await page.getByTestId('session-picker').selectOption(old);
  await expect(rows).toHaveCount(1);
  expect(await sessionOf(301)).toBe(old);
});
