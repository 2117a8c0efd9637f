// A send through the relay that cannot reach its server says why (the relay's own answer
// names ECONNREFUSED), and the exchange is recorded with the server's URL, not the relay's
// /relay/api/forward/<id>.
import { createServer } from 'node:net';
import { expect, test } from './fixtures.ts';

/** A port nothing listens on: bound once by the system, then let go. */
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

test('an Edit & re-send via the relay to a dead port shows the cause and is recorded with the target URL', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await inspector.conversationRow('setup_wizard').click();
  await page.getByTestId('round').first().getByRole('button').first().click();
  await page.getByTestId('edit').click();
  await expect(page.getByTestId('draft-body')).toHaveValue(/"setup_wizard"/);
  const target = `http://127.0.0.1:${await deadPort()}/mcp`;
  await page.getByTestId('resend-url').fill(target);
  await page.getByTestId('resend-relay').check();
  await page.getByTestId('draft-send').click();
  const summary = page.getByTestId('resend-summary');
  await expect(summary).toContainText('ECONNREFUSED');
  await expect(summary).not.toContainText('no answer to id');
  await expect(page.getByTestId('resend-result')).toContainText('HTTP 502');

  const record = await inspector.waitForStored((r) => r.source === 'console' && r.state !== 'pending' && (r.request.body ?? '').includes('"setup_wizard"'), 'the relayed re-send');
  expect(record.request.url).toBe(target);
});
