// Issue 5, against someone else's server: an official SDK v2 server run as its own Node
// process (test/peers/sdk-trip-server.ts, started and stopped by the `sdkPeers` fixture).
// The Console connects (directly, the server sending CORS headers for the inspector; or via
// the relay, the server sending none), discovers, calls the three-round `plan_trip`, answers
// a form, a sampling reply and roots, then another form, and sees the final result; the
// tapped conversation's requestState verifies in the requestState tab once the key is entered.
import type { Page } from '@playwright/test';
import { expect, sdkTest as test, type InspectorPage, type SdkPeer } from './fixtures.ts';

async function connect(page: Page, url: string, viaRelay: boolean): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill(url);
  if (viaRelay) await page.getByTestId('console-relay').check();
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toContainText('sdk-trip-server 1.0.0 · 2026-07-28', { timeout: 30_000 });
}

const question = (page: Page, key: string) => page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);

/** Steps through plan_trip by hand and checks the final text the server built from every answer. */
async function planTrip(page: Page): Promise<void> {
  await page.getByTestId('console-target').selectOption('t:plan_trip');
  await page.locator('[data-field="traveller"] input').fill('Ann');
  await page.getByTestId('console-start').click();
  const step = page.getByTestId('step');
  await expect(step).toHaveAttribute('data-status', 'paused');

  // Round 1: a form (an enum and an integer with its default filled in).
  const where = question(page, 'where');
  await expect(where).toContainText('Where should Ann go?');
  await expect(where.getByLabel('Nights')).toHaveValue('3');
  await where.getByLabel('Destination').selectOption('Kyoto');
  await where.getByLabel('Nights').fill('5');
  await where.getByTestId('answer-accept').click();
  await expect(where).toHaveAttribute('data-answered', 'true');
  await expect(page.getByTestId('preview-text')).toHaveValue(/"requestState": "v1\./);
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);

  // Round 2: sampling and roots together; the Send waits for both. Regression: answering
  // one question re-rendered the others from the server's question, dropping unsaved edits.
  const pitch = question(page, 'pitch');
  await expect(pitch).toHaveAttribute('data-kind', 'sampling');
  await expect(pitch.getByTestId('answer-json')).toHaveValue(/Write one line selling 5 nights in Kyoto\./);
  const reply = JSON.stringify({ role: 'assistant', content: { type: 'text', text: 'Temples at dawn, ramen at midnight.' }, model: 'hand-written', stopReason: 'endTurn' });
  await pitch.getByTestId('answer-json').fill(reply);
  const roots = question(page, 'roots');
  await roots.getByTestId('answer-json').fill(JSON.stringify({ roots: [{ uri: 'file:///home/ann/trips', name: 'trips' }] }));
  await roots.getByTestId('answer-use').click();
  await expect(roots).toHaveAttribute('data-answered', 'true');
  await expect(page.getByTestId('send-retry')).toBeDisabled();
  await expect(pitch.getByTestId('answer-json')).toHaveValue(reply);
  await pitch.getByTestId('answer-use').click();
  await expect(pitch).toHaveAttribute('data-answered', 'true');
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(3);

  // Round 3: the last form, sent from the keyboard.
  const book = question(page, 'book');
  await book.getByLabel('Book it').check();
  await book.getByTestId('answer-accept').click();
  await page.getByTestId('preview-text').focus();
  await page.keyboard.press('Control+Enter');
  await expect(step).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last())
    .toContainText('Booked for Ann: 5 nights in Kyoto. Pitch: Temples at dawn, ramen at midnight. Itinerary saved under file:///home/ann/trips.');
}

/** The tapped conversation in the list: its echoed token verifies with the server's key. */
async function verifyToken(inspector: InspectorPage, peer: SdkPeer): Promise<void> {
  const page = inspector.page;
  const row = inspector.conversationRow('plan_trip');
  await expect(row).toHaveAttribute('data-rounds', '4', { timeout: 30_000 });
  await row.click();
  await expect(page.getByTestId('round')).toHaveCount(4);
  await page.getByTestId('round').nth(1).getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  const echoed = page.getByTestId('token').first();
  await expect(echoed.getByTestId('token-format')).toContainText('sdk-hmac-v1');
  await expect(echoed.getByTestId('token-payload')).toContainText('"step": 1');
  await expect(echoed).toHaveAttribute('data-verified', 'null');
  await page.getByTestId('key-input').fill(peer.key);
  await page.getByTestId('key-save').click();
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');
  await expect(page.getByTestId('token').first().getByTestId('token-verification')).toContainText('✔ verified');
}

test('steps through an SDK v2 server process reached directly (CORS), and its token verifies with its key', async ({ inspector, page, sdkPeers }) => {
  const peer = await sdkPeers.start({ cors: true });
  await connect(page, peer.url, false);
  await planTrip(page);
  await verifyToken(inspector, peer);
});

test('steps through an SDK v2 server process that sends no CORS headers, via the relay', async ({ inspector, page, sdkPeers }) => {
  const peer = await sdkPeers.start({ cors: false });
  await connect(page, peer.url, true);
  await planTrip(page);
  await verifyToken(inspector, peer);
});
