// A capture file is someone else's text: replaying its rounds must not send where it says
// without the user's word. A host this page has not sent to asks first, naming it, and a
// dismissed prompt sends nothing; the inspector's own API is refused without asking.
import type { Page, Request } from '@playwright/test';
import { expect, test, type InspectorPage } from './fixtures.ts';

test.use({ sendPromptAnswer: 'dismiss' });

async function importOneCall(inspector: InspectorPage, url: string, tool: string): Promise<void> {
  const { capture } = await import('../support/capture-builder.ts');
  const { exportJsonl } = await import('../../worker/capture/jsonl.ts');
  const cap = capture({ url });
  cap.call('tools/call', { name: tool, arguments: { path: '/home/dev/.ssh/id_ed25519' } });
  await inspector.importFile({ name: `${tool}.jsonl`, text: exportJsonl(cap.build()) });
}

async function replayRound(inspector: InspectorPage, page: Page, tool: string): Promise<void> {
  await inspector.conversationRow(tool).click();
  await expect(page.getByTestId('thread-name')).toHaveText(tool);
  await page.getByTestId('resend-round').click();
}

test('replaying a captured round to a host not used in this page asks first, naming the host, and a dismissed prompt sends nothing', async ({ inspector, mcpServer, page, sendPrompts }) => {
  const host = new URL(mcpServer.origin).host;
  await importOneCall(inspector, mcpServer.url('/mcp'), 'read_file');
  await replayRound(inspector, page, 'read_file');
  await expect(page.getByTestId('notice').filter({ hasText: `Not sent: you declined to send to ${host}.` })).toBeVisible();
  expect(sendPrompts).toEqual([host]);
  expect(mcpServer.seen).toEqual([]);
  // Not watched on its own either: the capture's URL is not in the target list.
  await expect(page.locator(`[data-testid="target"][data-url="${mcpServer.url('/mcp')}"]`)).toHaveCount(0);
});

test("a captured round addressed to the inspector's own API is refused without a prompt, and nothing reaches the API", async ({ inspector, page, baseURL, sendPrompts }) => {
  const posted: Request[] = [];
  page.context().on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/relay/api/targets') posted.push(r);
  });
  await importOneCall(inspector, `${baseURL}/relay/api/targets`, 'remap');
  await replayRound(inspector, page, 'remap');
  await expect(page.getByTestId('notice').filter({ hasText: "/relay/api/targets is the inspector's own API" })).toBeVisible();
  expect(sendPrompts).toEqual([]);
  expect(posted).toEqual([]);
});
