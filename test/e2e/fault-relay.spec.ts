// Faults on the relay's side of capture (issue 6): a target going down mid-stream is
// recorded `aborted` with the events received so far, never lost (on the service worker's
// path here; the relay's own recording is covered by test/unit/relay/target-down.test.ts),
// and the relay's backlog leaves its file only once a page has stored it.
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, failRelayStorage, InspectorPage, relayCall, test, toolsCall, watchRelayFeed } from './fixtures.ts';

test('a watched target that dies mid-stream: the page sees the exchange aborted, with the event it received', async ({ inspector, mcpServer, page }) => {
  const endpoint = mcpServer.url('/dying');
  await inspector.watch(endpoint);
  await inspector.startStream('d', endpoint, toolsCall(11));
  await expect.poll(async () => (await inspector.readStream('d')).events.length).toBe(1);
  const streaming = await inspector.waitForStored((r) => r.request.url === endpoint && (r.response?.events?.length ?? 0) === 1, 'the first event');
  expect(streaming.state).toBe('streaming');

  mcpServer.cut();
  // The page's own read breaks: it is told the answer was cut, not handed a clean end.
  await expect.poll(async () => (await inspector.readStream('d')).error).not.toBeNull();
  expect((await inspector.readStream('d')).done).toBe(false);
  const rec = await inspector.waitForStored((r) => r.id === streaming.id && r.state !== 'streaming', 'the end of the cut exchange');
  expect(rec.state).toBe('aborted');
  expect(rec.response?.events?.map((e) => e.id)).toEqual(['1']);
  expect(rec.error).toBeTruthy();
  await expect(page.locator(`[data-testid="exchange"][data-id="${rec.id}"]`)).toHaveAttribute('data-state', 'aborted');
  await expect(page.locator(`[data-testid="exchange"][data-id="${rec.id}"]`)).toHaveAttribute('data-events', '1');
  expect((await inspector.storedExchanges()).filter((r) => r.request.url === endpoint)).toHaveLength(1);
});

test('a "via relay" target that dies mid-stream: the relay cuts the page too, and the page sees the exchange aborted with its event', async ({ inspector, mcpServer, page }) => {
  const target = mcpServer.url('/dying');
  await page.getByTestId('target-url').fill(target);
  await page.getByLabel('via relay').check();
  await page.getByTestId('add-target').click();
  await expect(page.locator(`[data-testid="target"][data-url="${target}"]`)).toBeVisible();
  // The page sends its targets to the relay; the relay names the id it forwards under.
  let id: string | undefined;
  await expect.poll(async () => {
    const got = await inspector.fetchInPage('/relay/api/targets');
    id = 'text' in got ? (JSON.parse(got.text) as { targets: { id: string; url: string }[] }).targets.find((t) => t.url === target)?.id : undefined;
    return id;
  }, { message: 'the relay never learnt the target' }).toBeTruthy();
  const forward = new URL(`/relay/api/forward/${encodeURIComponent(id!)}`, page.url()).href;

  await inspector.startStream('r', forward, toolsCall(12));
  await expect.poll(async () => (await inspector.readStream('r')).events.length).toBe(1);
  const streaming = await inspector.waitForStored((r) => r.request.url === target && (r.response?.events?.length ?? 0) === 1, 'the first relayed event');
  mcpServer.cut();
  await expect.poll(async () => (await inspector.readStream('r')).error).not.toBeNull();
  const rec = await inspector.waitForStored((r) => r.id === streaming.id && r.state !== 'streaming', 'the end of the cut exchange');
  expect(rec.state).toBe('aborted');
  expect(rec.response?.events?.map((e) => e.id)).toEqual(['1']);
  await expect(page.locator(`[data-testid="exchange"][data-id="${rec.id}"]`)).toHaveAttribute('data-state', 'aborted');
});

test('a relay backlog the page could not store (storage full) stays in the JSONL file and comes again on the next drain, stored once', async ({ page, relay }) => {
  // IndexedDB refuses relay records until released, as a full disk would.
  const full = await failRelayStorage(page);
  const since = Date.now();
  for (const n of [1, 2]) expect((await relayCall(relay, toolsCall(100 + n, 'busy'))).status).toBe(200);
  const filed = async () => (await relay.captureRecords()).filter((r) => r.startedAt >= since);
  await expect.poll(async () => (await filed()).filter((r) => r.state === 'complete').length, { message: `the calls in ${relay.jsonl}` }).toBe(2);
  const ids = (await filed()).map((r) => r.id).sort();

  const acks: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/relay/api/backlog/ack') acks.push(r.postData() ?? '');
  });
  const first = watchRelayFeed(page);
  await first.ready;
  const inspector = new InspectorPage(page);
  await inspector.open();
  for (const id of ids) expect(await first.connected).toContain(id);
  // Not lost meanwhile: the page holds what storage refused, in memory.
  await expect(page.getByTestId('storage-banner')).toHaveAttribute('data-count', '2');
  const relayed = async () => (await inspector.storedExchanges()).filter((r) => ids.includes(r.id));
  expect(await relayed()).toEqual([]);

  // Nothing was acknowledged, so the file still holds both; the next page load drains them again.
  await full.release();
  const second = watchRelayFeed(page);
  await second.ready;
  await page.reload();
  await inspector.waitUntilCapturing();
  const body = await second.connected;
  for (const id of ids) expect(body).toContain(id);
  await expect.poll(async () => (await relayed()).filter((r) => r.state === 'complete').length, { message: 'the re-delivered records in IndexedDB' }).toBe(2);
  await expect.poll(async () => (await filed()).length, { message: 'the file emptied by the acknowledgement' }).toBe(0);
  const stored: ExchangeRecord[] = await relayed();
  expect(stored.map((r) => r.id).sort()).toEqual(ids);
  expect(new Set(stored.map((r) => r.seq)).size).toBe(2);
  // One acknowledgement, for the drain that was stored, naming exactly those records.
  expect(acks).toHaveLength(1);
  expect((JSON.parse(acks[0]!) as { ids: string[] }).ids.sort()).toEqual(ids);
  for (const id of ids) await expect(page.locator(`[data-testid="exchange"][data-id="${id}"]`)).toHaveCount(1);
});
