// Issue 6, storage full: IndexedDB refuses the tap's writes (a real QuotaExceededError,
// from the DevTools protocol's quota override). The exchange is not lost: the page holds it
// in memory, lists and analyses it, exports it, says so in a banner that stays, keeps it
// across an analysis-worker restart, and writes it on "Retry saving" once space is free.
import { readJsonl } from '../../worker/capture/jsonl.ts';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { analysisWorker, downloadText, expect, StorageQuota, test } from './fixtures.ts';

// The demo's tools/call (not the tools/list that choosing the tool sent, stored before storage filled).
const isDemoCall = (r: ExchangeRecord) => new URL(r.request.url).pathname === '/demo/mcp' && (r.request.body ?? '').includes('"tools/call"');

test('with storage full, a tapped call is held in memory, listed, exported and kept across a worker restart, and Retry saving writes it once space is freed', async ({ inspector, page, relay }) => {
  test.setTimeout(240_000); // `fill` may wait up to 30 s for Chromium to enforce the quota
  // `busy` answers its first request with one JSON round. Choosing it lists the demo's tools
  // (one tools/list, stored before storage fills).
  await inspector.chooseDemoTool('busy');
  // The relay's backlog (other tests' external calls) is drained, stored and acknowledged
  // before storage fills, so the only exchange held below is this test's call.
  await expect.poll(async () => (await relay.captureRecords()).length, { message: `the relay backlog in ${relay.jsonl}, drained` }).toBe(0);
  const before = new Set((await inspector.storedExchanges()).map((r) => r.id));
  const quota = await StorageQuota.of(page);
  await quota.fill();

  await page.getByTestId('call-demo').click();
  const banner = page.getByTestId('storage-banner');
  await expect(banner).toContainText('Storage is full: 1 exchange is held in memory only. Free space, then Retry saving — or Export now.');
  // Listed and analysed with the capture session like a stored exchange, though not stored;
  // the copy the page holds follows the exchange to its end.
  const row = inspector.conversationRow('busy');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-rounds', '1');
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-traffic').click();
  const newRows = () => page.$$eval('[data-testid="exchange"]', (rows, known) =>
    rows.filter((r) => !known.includes((r as HTMLElement).dataset.id ?? '')).map((r) => (r as HTMLElement).dataset.state), [...before]);
  await expect.poll(newRows, { message: 'the held call in the traffic list, complete' }).toEqual(['complete']);
  expect((await inspector.storedExchanges()).filter(isDemoCall)).toEqual([]);

  // Export now: the held exchange is in the file, complete.
  const file = await downloadText(page, () => page.getByTestId('export-held').click());
  expect(file.name).toMatch(/\.jsonl$/);
  const exported = readJsonl(file.text).exchanges.filter(isDemoCall);
  expect(exported).toHaveLength(1);
  expect(exported[0].state).toBe('complete');
  expect(JSON.parse(exported[0].request.body ?? '{}')).toMatchObject({ method: 'tools/call', params: { name: 'busy' } });

  // A restarted analysis worker gets the held exchange again from the page.
  await (await analysisWorker(page)).evaluate(() => self.close()).catch(() => undefined);
  await expect(page.getByTestId('notice').filter({ hasText: 'The analysis worker stopped' })).toContainText('it was restarted and rebuilt the session from storage');
  await expect(row).toHaveCount(1);
  await expect(banner).toHaveAttribute('data-count', '1');

  // Space freed: Retry saving writes it, the banner leaves, the row stays.
  await quota.lift();
  await page.getByTestId('retry-saving').click();
  await expect(banner).toHaveCount(0);
  const stored = await inspector.waitForStored((r) => isDemoCall(r) && r.state === 'complete', 'the held demo call, saved');
  expect(stored.id).toBe(exported[0].id);
  await expect(row).toHaveCount(1);
  await expect(page.locator(`[data-testid="conversation"][data-id="c${stored.seq}"]`)).toHaveCount(1);
});
