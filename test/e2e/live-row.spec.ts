// A live event stream updates its own row in the list: in progress while the server holds
// the result, complete once it arrives, and the list takes only the changed rows.
import { expect, test } from './fixtures.ts';

const TOOLS_CALL = JSON.stringify({
  jsonrpc: '2.0', id: 11, method: 'tools/call',
  params: {
    name: 'report', arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

test('a live event stream updates its row from in progress to complete, through list deltas', async ({ inspector, mcpServer, page }) => {
  const endpoint = mcpServer.url('/stream');
  await inspector.watch(endpoint);
  await inspector.startStream('live', endpoint, TOOLS_CALL);

  const stored = await inspector.waitForStored((r) => r.request.url === endpoint && (r.response?.events?.length ?? 0) >= 1, 'the first event of the stream');
  expect(stored.state).toBe('streaming');
  const row = page.locator('[data-testid="conversation"]').filter({ hasText: 'report' });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'in-progress');
  const id = await row.getAttribute('data-id');

  mcpServer.release();
  await inspector.waitForStored((r) => r.id === stored.id && r.state === 'complete', 'the completed stream');
  // The same row (same conversation id) turns complete; still one row for the call.
  await expect(page.locator(`[data-testid="conversation"][data-id="${id}"]`)).toHaveAttribute('data-status', 'complete');
  await expect(row).toHaveCount(1);
  // The list was updated with the changed rows only, not sent whole.
  await expect(page.getByTestId('conversation-scroll')).toHaveAttribute('data-list-update', 'delta');
});
