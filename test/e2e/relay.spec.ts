// External clients through the relay: the official SDK v2 client, run as its own Node
// process, reaches the page live (page open) or through the JSONL backlog (page closed).
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, InspectorPage, test, watchRelayFeed, type ClientRun } from './fixtures.ts';

const WIZARD_DONE = { ok: true, text: 'Created workspace "Relay Labs" on the team plan.', asked: ['name', 'plan', 'confirm'] };
// The client's whole session: discover, then the wizard's four rounds of one tools/call.
const SESSION_METHODS = ['server/discover', 'tools/call', 'tools/call', 'tools/call', 'tools/call'];

const rpcMethod = (r: ExchangeRecord) => (JSON.parse(r.request.body ?? '{}') as { method?: string }).method;
const bySeq = (a: ExchangeRecord, b: ExchangeRecord) => a.seq - b.seq;

function expectWizardRun(run: ClientRun): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual(WIZARD_DONE);
}

// The page's list shows the wizard as one conversation of four rounds, finished.
async function expectWizardThreaded(inspector: InspectorPage): Promise<void> {
  const row = inspector.page.locator('[data-testid="conversation"]').filter({ hasText: 'setup_wizard' });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('tools/call');
  await expect(row).toHaveAttribute('data-rounds', '4', { timeout: 30_000 });
  await expect(row).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
}

// Waits until IndexedDB holds the whole session, complete, and returns it in seq order.
async function storedSession(inspector: InspectorPage): Promise<ExchangeRecord[]> {
  const relayed = async () => (await inspector.storedExchanges()).filter((r) => r.source === 'relay');
  await expect
    .poll(async () => (await relayed()).filter((r) => r.state === 'complete').length, { message: 'the relayed session in IndexedDB', timeout: 30_000 })
    .toBe(SESSION_METHODS.length);
  const records = (await relayed()).sort(bySeq);
  expect(records.map(rpcMethod)).toEqual(SESSION_METHODS);
  expect(new Set(records.map((r) => r.seq)).size).toBe(records.length);
  expect(new Set(records.map((r) => r.session)).size).toBe(1);
  for (const r of records) expect(r).toMatchObject({ source: 'relay', state: 'complete', response: { status: 200 } });
  return records;
}

test('the official SDK v2 client, run as its own process against the relay, is threaded live in the open page and stored with source relay', async ({ page, relay }) => {
  const feed = watchRelayFeed(page);
  await feed.ready;
  const inspector = new InspectorPage(page);
  await inspector.open();
  await feed.connected; // the page is counted by the relay: from here on it is pushed to

  expectWizardRun(await relay.runClient('demo'));

  await expectWizardThreaded(inspector);
  const stored = await storedSession(inspector);
  for (const r of stored) await expect(page.locator(`[data-testid="exchange"][data-id="${r.id}"]`)).toHaveAttribute('data-state', 'complete');
  // They came over the event stream: no backlog the page drained carried any of them.
  for (const body of await feed.drained()) for (const r of stored) expect(body).not.toContain(r.id);
});

test('with no page open the run lands in the JSONL file; the next page imports it once, empties the file, and a reload does not duplicate it', async ({ page, relay }) => {
  const since = Date.now();
  expectWizardRun(await relay.runClient('demo'));

  // The relay appends asynchronously; wait for every exchange's final line.
  let filed: ExchangeRecord[] = [];
  await expect
    .poll(async () => {
      filed = (await relay.captureRecords()).filter((r) => r.startedAt >= since);
      return filed.filter((r) => r.state === 'complete').length;
    }, { message: `the session in ${relay.jsonl}`, timeout: 30_000 })
    .toBe(SESSION_METHODS.length);
  expect(filed.map(rpcMethod)).toEqual(SESSION_METHODS);
  for (const r of filed) expect(r.source).toBe('relay');

  const feed = watchRelayFeed(page);

  await feed.ready;
  const inspector = new InspectorPage(page);
  await inspector.open();
  expect(await feed.connected).toContain(filed[0].id);
  await expectWizardThreaded(inspector);
  const stored = await storedSession(inspector);
  expect(stored.map((r) => r.id).sort()).toEqual(filed.map((r) => r.id).sort());
  await expect.poll(() => relay.captureText(), { message: 'the JSONL file emptied by the import' }).toBe('');

  const again = watchRelayFeed(page);

  await again.ready;
  await page.reload();
  await inspector.waitUntilCapturing();
  expect(await again.connected).toBe(''); // the reloaded page's drain: nothing left to import
  await expectWizardThreaded(inspector);
  const after = (await inspector.storedExchanges()).filter((r) => r.source === 'relay');
  expect(after.map((r) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());
  expect(after.sort(bySeq).map((r) => r.seq)).toEqual(stored.map((r) => r.seq));
  await expect(page.locator('[data-testid="exchange"]')).toHaveCount(SESSION_METHODS.length);
});
