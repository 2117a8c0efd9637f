// Fault: two inspector tabs open at once (issue 6). One service worker taps both tabs'
// calls; the relay pushes every external exchange to both tabs, one of which writes it; and
// each tab drains the JSONL backlog when it opens, one tab at a time. Every exchange must be
// in IndexedDB exactly once, none missing, and both tabs' lists must show all of them. The backlog is
// first drained by a tab that cannot store it (storage full): the other tab must still get
// it, because the relay keeps records until a tab acknowledges it stored them.
import type { Page } from '@playwright/test';
import { BACKLOG_CHANNEL, CAPTURE_CHANNEL } from '../../worker/capture/notices.ts';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, failRelayStorage, holdRelayBacklog, InspectorPage, relayCall, test, toolsCall, watchRelayFeed, type RelayUnderTest } from './fixtures.ts';

// The JSON-RPC id a record's request carries (each call in this test has its own).
const rpcId = (r: ExchangeRecord): number | undefined => {
  try {
    return (JSON.parse(r.request.body ?? '{}') as { id?: number }).id;
  } catch {
    return undefined;
  }
};

// Calls the demo through the relay with these JSON-RPC ids while no page is open, so they go
// to its JSONL file; resolves once each is filed complete. `filed`: the records filed since.
async function fileBacklog(relay: RelayUnderTest, rpcIds: readonly number[]) {
  const since = Date.now();
  for (const id of rpcIds) expect((await relayCall(relay, toolsCall(id, 'busy'))).status).toBe(200);
  const filed = async () => (await relay.captureRecords()).filter((r) => r.startedAt >= since);
  await expect.poll(async () => (await filed()).filter((r) => r.state === 'complete').length, { message: `the backlog in ${relay.jsonl}` }).toBe(rpcIds.length);
  return { filed, ids: (await filed()).map((r) => r.id).sort() };
}

const TAB_A = [201, 202];
const TAB_B = [211, 212];
const LIVE_RELAY = [221, 222];
const BACKLOG = [231, 232];
const ALL = [...TAB_A, ...TAB_B, ...LIVE_RELAY, ...BACKLOG];

test('two tabs capturing at once: calls from each tab, pushed relay exchanges and a JSONL backlog one tab could not store are each stored once and listed in both tabs', async ({ context, page, relay, mcpServer }) => {
  // While no page is open, external calls go to the relay's JSONL file.
  const { filed, ids: backlogIds } = await fileBacklog(relay, BACKLOG);

  // Tab B opens first, drains the backlog and cannot store it: it acknowledges nothing.
  const pageB: Page = await context.newPage();
  const full = await failRelayStorage(pageB);
  const b = new InspectorPage(pageB);
  const feedB = watchRelayFeed(pageB);
  await feedB.ready;
  await b.open();
  for (const id of backlogIds) expect(await feedB.connected).toContain(id);
  // Not lost in tab B either: storage refused the batch, so the page holds it in memory.
  await expect(pageB.getByTestId('storage-banner')).toHaveAttribute('data-count', String(BACKLOG.length));
  expect((await filed()).map((r) => r.id).sort()).toEqual(backlogIds);
  await full.release();

  // Tab A opens and drains the same backlog, which it stores and acknowledges.
  const a = new InspectorPage(page);
  const feedA = watchRelayFeed(page);
  await feedA.ready;
  await a.open();
  for (const id of backlogIds) expect(await feedA.connected).toContain(id);
  // Tab A's writes are announced to tab B, whose held copies are then no longer the only
  // ones: they leave its memory and its banner goes.
  await expect(pageB.getByTestId('storage-banner')).toHaveCount(0);
  const tabs = [a, b];

  const endpoint = mcpServer.url('/mcp');
  await a.watch(endpoint);
  const post = (tab: InspectorPage, id: number) =>
    tab.fetchInPage(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: toolsCall(id) });
  // Interleaved: A, B, the external client, and so on.
  for (let i = 0; i < 2; i++) {
    expect(await post(a, TAB_A[i]!)).toMatchObject({ status: 200 });
    expect(await post(b, TAB_B[i]!)).toMatchObject({ status: 200 });
    expect((await relayCall(relay, toolsCall(LIVE_RELAY[i]!, 'busy'))).status).toBe(200);
  }

  const ours = async (tab: InspectorPage) => (await tab.storedExchanges()).filter((r) => ALL.includes(rpcId(r) ?? -1));
  await expect
    .poll(async () => (await ours(a)).filter((r) => r.state === 'complete').map(rpcId).sort(), { message: 'every exchange complete in IndexedDB', timeout: 30_000 })
    .toEqual([...ALL].sort());
  const stored = await ours(a);
  // Exactly once each: one record per call, unique ids and unique positions in the session.
  expect(stored).toHaveLength(ALL.length);
  expect(new Set(stored.map((r) => r.id)).size).toBe(ALL.length);
  expect(new Set(stored.map((r) => r.seq)).size).toBe(ALL.length);
  expect(new Set(stored.map((r) => r.session)).size).toBe(1);
  const source = (ids: number[]) => stored.filter((r) => ids.includes(rpcId(r)!)).map((r) => r.source);
  expect(source([...TAB_A, ...TAB_B])).toEqual(['sw', 'sw', 'sw', 'sw']);
  expect(source([...LIVE_RELAY, ...BACKLOG])).toEqual(['relay', 'relay', 'relay', 'relay']);

  // Both tabs list every one of them, once.
  for (const tab of tabs) {
    for (const r of stored) {
      await expect(tab.page.locator(`[data-testid="exchange"][data-id="${r.id}"]`)).toHaveAttribute('data-state', 'complete');
    }
  }
  // Tab A stored and acknowledged the backlog: it left the file (pushes are never filed).
  await expect.poll(async () => (await filed()).length, { message: 'the backlog acknowledged' }).toBe(0);
  await pageB.close();
});

// Each tab lists a drained backlog before it writes it (worker/capture/write-behind.ts), so
// two tabs that drained the same backlog at the same moment both numbered the same exchanges:
// the second write of each collided, was merged, and that tab read its whole session again.
// A run of drains now holds a Web Lock (worker/capture/backlog-lock.ts): the tab that did not
// get it asks for the backlog only once the other's run ended, finds it acknowledged (so it
// numbers and writes none of it: no collision, no second read), and lists what the other
// stored from its notices. Each exchange is stored once, at one place, and listed once in both.
test('two tabs opened at once: one drains the backlog, the other waits for its run and lists what it stored without draining it again', async ({ context, page, relay }) => {
  const IDS = [241, 242, 243, 244];
  const { filed, ids: backlogIds } = await fileBacklog(relay, IDS);

  const pageB: Page = await context.newPage();
  // What each page's document hears on the capture channel (the page's own listener's) and on
  // the channel the holder's copies for a waiting tab go on (listened to here only).
  for (const p of [page, pageB]) {
    await p.addInitScript(({ capture, backlog }) => {
      const heard: { capture: string[]; backlog: number[] } = { capture: [], backlog: [] };
      (window as unknown as { __heard: typeof heard }).__heard = heard;
      new BroadcastChannel(capture).onmessage = (e) => void heard.capture.push((e.data as { type: string }).type);
      new BroadcastChannel(backlog).onmessage = (e) => void heard.backlog.push((e.data as { records: unknown[] }).records.length);
    }, { capture: CAPTURE_CHANNEL, backlog: BACKLOG_CHANNEL });
  }
  const heardBy = (p: Page) => p.evaluate(() => (window as unknown as { __heard: { capture: string[]; backlog: number[] } }).__heard);
  const heldA = await holdRelayBacklog(page);
  const heldB = await holdRelayBacklog(pageB);
  // In the order it happened: each tab asking for the backlog, and the first one let go.
  const events: string[] = [];
  void heldA.asked.then(() => events.push('a asks'));
  void heldB.asked.then(() => events.push('b asks'));
  const feedA = watchRelayFeed(page);
  const feedB = watchRelayFeed(pageB);
  await Promise.all([feedA.ready, feedB.ready]);
  const a = new InspectorPage(page);
  const b = new InspectorPage(pageB);
  await Promise.all([a.open(), b.open()]);
  // Whichever tab's worker got the lock asks first; its answer is held here for now.
  const first = await Promise.race([heldA.asked.then(() => 'a' as const), heldB.asked.then(() => 'b' as const)]);
  const second = first === 'a' ? 'b' : 'a';
  const [held1, held2, feed2] = first === 'a' ? [heldA, heldB, feedB] : [heldB, heldA, feedA];
  events.push(`${first} let go`);
  held1.release();
  held2.release();
  await held2.asked;
  // The other tab asked only after the first tab's run was let go, not while it was held.
  expect(events).toEqual([`${first} asks`, `${first} let go`, `${second} asks`]);

  const ours = async (tab: InspectorPage) => (await tab.storedExchanges()).filter((r) => backlogIds.includes(r.id));
  await expect.poll(async () => (await ours(a)).length, { message: 'the backlog stored', timeout: 30_000 }).toBe(IDS.length);
  const stored = await ours(a);
  expect(stored.map((r) => r.id).sort()).toEqual(backlogIds);
  expect(new Set(stored.map((r) => r.seq)).size).toBe(IDS.length);
  // By then the backlog was stored and acknowledged: the waiting tab's drain held none of it.
  await expect.poll(async () => (await feed2.drained()).length, { message: 'the waiting tab drained' }).toBeGreaterThan(0);
  for (const body of await feed2.drained()) for (const id of backlogIds) expect(body).not.toContain(id);
  for (const tab of [a, b]) {
    for (const r of stored) {
      // Once, at the place storage gave it.
      const row = tab.page.locator(`[data-testid="exchange"][data-id="${r.id}"]`);
      await expect(row).toHaveCount(1, { timeout: 30_000 });
      await expect(row.locator('td').first()).toHaveText(String(r.seq), { timeout: 30_000 });
    }
    // Every row of the list is one of the stored exchanges: no second copy at another place.
    await expect(tab.page.getByTestId('count-exchanges')).toHaveText(`${(await a.sessionExchanges(stored[0]!.session!)).length} exchanges`);
  }
  await expect.poll(async () => (await filed()).length, { message: 'the backlog acknowledged' }).toBe(0);
  // The holder sent its copies to the waiting tab on their own channel; no page's listener
  // on the capture channel was handed them.
  const heard = [await heardBy(page), await heardBy(pageB)];
  expect(heard.flatMap((h) => h.backlog).reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(IDS.length);
  for (const h of heard) expect(h.capture).not.toContain('backlog-laid');
  await pageB.close();
});
