// A stdio round in the page reads as stdio: no HTTP status on the round or in the Headers
// tab, and copies that re-run it (a shell pipe into the server's command, the JSON-RPC
// line) in place of cURL and fetch, which cannot reach a stdio server.
import { StdioPairing } from '../../cli/wrap/stdio-pairing.ts';
import { exportJsonl } from '../../worker/capture/jsonl.ts';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, test } from './fixtures.ts';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'remember', arguments: { note: 'milk' }, _meta: META } });

function stdioCapture(): string {
  const latest = new Map<string, ExchangeRecord>();
  let t = 1_800_000_000_000;
  const p = new StdioPairing({ name: 'server-memory', client: 'stdio:server-memory:1', emit: (r) => latest.set(r.id, structuredClone(r)), now: () => (t += 5) });
  p.clientLine(CALL);
  p.serverLine(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } }));
  return exportJsonl([...latest.values()].sort((a, b) => a.seq - b.seq));
}

test('a stdio round shows no HTTP status and copies as a shell pipe and its JSON-RPC line', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'stdio.jsonl', text: stdioCapture() });
  await inspector.conversationRow('remember').click();
  const round = page.getByTestId('round').first();
  await expect(round).toContainText('complete');
  await expect(round).not.toContainText('HTTP 200');
  await page.getByTestId('tab-headers').click();
  await expect(page.getByTestId('stdio-transport')).toBeVisible();
  await expect(page.getByTestId('tabpanel')).not.toContainText('HTTP 200');

  await expect(page.getByTestId('copy-curl')).toHaveText('Copy as shell pipe');
  await page.getByTestId('copy-curl').click();
  const pipe = page.getByTestId('copied-text');
  await expect(pipe).toContainText(`printf '%s\\n' '${CALL}' | $SERVER`);
  await expect(pipe).not.toContainText('curl');
  await page.getByTestId('copy-fetch').click();
  await expect(pipe).toHaveText(CALL);
});
