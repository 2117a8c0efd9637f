// The toolbar's and the endpoint list's Call lead somewhere: a task-only demo tool (its
// tools/list says so) is offered as a task in the Console before any call, a watched endpoint calls the tool
// the user names, a call made while an import is on screen says where it is recorded, and
// a captured form preview reads as a preview, with nothing that looks clickable.
import { expect, test } from './fixtures.ts';

test('a task-only demo tool is offered as a task before any call, as the demo\'s tools/list declares it', async ({ inspector, page }) => {
  await inspector.chooseDemoTool('research_report');
  const call = page.getByTestId('call-demo');
  await expect(call).toHaveText('▶ Call research_report as task…');
  await expect(call).toHaveAttribute('data-task-only', 'true');
  await page.getByTestId('demo-tool-menu').click();
  await expect(page.locator('[data-testid="demo-tool"][data-name="research_report"]')).toContainText('(task only)');
  await page.getByTestId('demo-tool-menu').click();
  await page.getByTestId('console-tab-traffic').click();
  const sent = (await inspector.storedExchanges()).length;
  await call.click();
  await expect(page.getByTestId('console-tab-call')).toHaveAttribute('aria-selected', 'true');
  // Offered, never sent to fail with -32021.
  expect((await inspector.storedExchanges()).filter((r) => (r.request.body ?? '').includes('"tools/call"'))).toHaveLength(0);
  expect((await inspector.storedExchanges()).length).toBe(sent);
});

test('a task-only tool chosen on an earlier visit is offered as a task on the first Call after a reload, without failing first', async ({ inspector, page }) => {
  await inspector.chooseDemoTool('research_report');
  await page.reload();
  const call = page.getByTestId('call-demo');
  await expect(call).toHaveAttribute('data-tool', 'research_report');
  await call.click();
  await expect(page.getByTestId('console-tab-call')).toHaveAttribute('aria-selected', 'true');
  await expect(call).toHaveText('▶ Call research_report as task…');
  expect((await inspector.storedExchanges()).filter((r) => (r.request.body ?? '').includes('"tools/call"'))).toHaveLength(0);
});

test('a watched endpoint’s Call sends the tool the user names', async ({ inspector, mcpServer, page }) => {
  await page.getByTestId('console-tab-traffic').click();
  const endpoint = mcpServer.url('/mcp');
  await inspector.watch(endpoint);
  const target = page.locator(`[data-testid="target"][data-url="${new URL(endpoint).href}"]`);
  await target.getByTestId('target-tool').fill('lookup_order');
  await inspector.callTarget(endpoint);
  await inspector.waitForStored((r) => (r.request.body ?? '').includes('"name":"lookup_order"'), 'the named tool’s call');
});

test('a call made while an import is on screen says which session records it', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await page.getByTestId('call-demo').click();
  await expect(page.getByTestId('notice').last()).toContainText(/is sent to the demo server and recorded in “.+”, not in “sdk-v2-manual\.har” on screen/);
});

test('a captured form preview is labelled a preview and has no buttons', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await inspector.conversationRow('setup_wizard').click();
  const preview = page.getByTestId('round').first().getByTestId('form-preview');
  await expect(preview.getByTestId('form-preview-label')).toHaveText('Form preview · read only · filled with what the client sent');
  await expect(preview.getByRole('button')).toHaveCount(0);
});
