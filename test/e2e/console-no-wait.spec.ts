// Regression: a Console send waited for the capture service worker's write of it (up to
// 15 s per send once the tap had marked the answer) before the Console moved on and stored
// it. Now the worker saves each send as pending before it leaves, the tap fills in that
// record when it gets to it, and nothing waits: with the service worker's writes held back,
// the Console still connects and its sends are listed at once, each stored once; when the
// writes are let go, the tap fills in the same records (no second copy, no second row).
import type { Worker } from '@playwright/test';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, test } from './fixtures.ts';

// Holds every timer the service worker sets until `release`: its exchange writer starts
// each write from a timer, so the tap forwards and streams as usual but writes nothing.
async function holdTapWrites(sw: Worker): Promise<{ release(): Promise<void> }> {
  await sw.evaluate(() => {
    const g = globalThis as unknown as { heldTimers?: (() => void)[]; realSetTimeout?: typeof setTimeout; setTimeout: typeof setTimeout };
    g.heldTimers = [];
    g.realSetTimeout ??= g.setTimeout;
    g.setTimeout = ((fn: (...a: unknown[]) => void, _ms?: number, ...args: unknown[]) => {
      g.heldTimers!.push(() => fn(...args));
      return 0;
    }) as typeof setTimeout;
  });
  return {
    release: () => sw.evaluate(() => {
      const g = globalThis as unknown as { heldTimers?: (() => void)[]; realSetTimeout?: typeof setTimeout; setTimeout: typeof setTimeout };
      g.setTimeout = g.realSetTimeout!;
      for (const f of g.heldTimers!.splice(0)) f();
    }),
  };
}

const isConsole = (r: ExchangeRecord) => r.source === 'console';

test('a Console send is stored once, with no waiting for the tap: listed as soon as its answer is in, then filled in by the tap under the same id', async ({ inspector, page }) => {
  const sw = page.context().serviceWorkers()[0];
  expect(sw, 'the capture service worker').toBeTruthy();
  const hold = await holdTapWrites(sw!);

  // Connecting sends server/discover and the list requests: five or so linked sends.
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  // Before, each of those sends waited up to 15 s for its held write: this took minutes.
  await expect(page.getByTestId('server-info')).toBeVisible();

  // Saved before they left, shown from the Console's own copies while the tap is held.
  const pending = (await inspector.storedExchanges()).filter(isConsole);
  expect(pending.length).toBeGreaterThan(0);
  expect(pending.every((r) => r.state === 'pending')).toBe(true);
  await page.getByTestId('console-tab-traffic').click();
  for (const r of pending) await expect(page.locator(`[data-testid="exchange"][data-id="${r.id}"]`)).toHaveAttribute('data-state', 'complete');

  // The tap gets to write: it fills in the same records, one per send.
  await hold.release();
  let stored: ExchangeRecord[] = [];
  await expect.poll(async () => {
    stored = (await inspector.storedExchanges()).filter(isConsole);
    return stored.every((r) => r.state === 'complete' && r.client !== undefined);
  }, { message: 'the tap filled in every Console send' }).toBe(true);
  expect(stored.map((r) => r.id).sort()).toEqual(pending.map((r) => r.id).sort());
  expect(stored.map((r) => r.seq).sort()).toEqual(pending.map((r) => r.seq).sort());
  // Nothing the tap wrote was refused (an add over the pending record would have been).
  await expect(page.getByTestId('storage-banner')).toHaveCount(0);
  for (const r of stored) await expect(page.locator(`[data-testid="exchange"][data-id="${r.id}"]`)).toHaveCount(1);
});
