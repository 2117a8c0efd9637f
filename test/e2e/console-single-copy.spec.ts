// Issue 5 regression: every Console send was stored twice (the service worker's tap in the
// capture session, and the worker's own copy in a "Console" or "Replay" session). Each send
// now names its record in a link header the tap reads and strips: stored once, linked
// (derivedFrom), in the session the Console meant, and the server never sees the header.
import type { Page } from '@playwright/test';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, recordingTest, test, type InspectorPage } from './fixtures.ts';

const LINK_HEADER = 'x-mrtr-inspector-link';
const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';

async function connect(page: Page, url = '/demo/mcp'): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill(url);
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
}

/** Answers the open form question `key` with `fill`, then Send: `rounds` rounds are shown after. */
async function answerAndSend(page: Page, key: string, fill: (q: ReturnType<Page['locator']>) => Promise<void>, rounds: number): Promise<void> {
  const q = page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);
  await fill(q);
  await q.getByTestId('answer-accept').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(rounds);
}

/** Bodies stored more than once (what the bug made of every Console send). */
function repeated(records: ExchangeRecord[]): string[] {
  const seen = new Map<string, number>();
  for (const r of records) seen.set(r.request.body ?? '', (seen.get(r.request.body ?? '') ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([b]) => b);
}

const bodyHas = (r: ExchangeRecord, re: RegExp) => re.test(r.request.body ?? '');

/** Waits until IndexedDB holds `n` records matching `pred`, all finished; returns every record. */
async function waitForFinished(inspector: InspectorPage, pred: (r: ExchangeRecord) => boolean, n: number, what: string): Promise<ExchangeRecord[]> {
  let all: ExchangeRecord[] = [];
  await expect.poll(async () => {
    all = await inspector.storedExchanges();
    const hits = all.filter(pred);
    return hits.length >= n && hits.every((r) => r.state !== 'pending' && r.state !== 'streaming');
  }, { message: `IndexedDB never held ${what}`, timeout: 30_000 }).toBe(true);
  return all;
}

test('step-through, a fork and a tamper test: each send is stored once, linked, in the capture session', async ({ inspector, page }) => {
  const capture = await page.getByTestId('session-picker').inputValue();
  await connect(page);
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
  await answerAndSend(page, 'name', (q) => q.getByLabel('Workspace name').fill('Acme Labs'), 2);
  await answerAndSend(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); }, 3);
  await answerAndSend(page, 'confirm', (q) => q.getByLabel('Create the workspace').check(), 4);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  // Fork round #3 (it sent the plan) with "team".
  await page.locator('[data-testid="step-round"][data-round="2"]').getByTestId('fork-round').click();
  const fork = page.getByTestId('fork-editor');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByLabel('Plan').selectOption('team');
  await fork.locator('[data-testid="question"][data-key="plan"]').getByTestId('answer-accept').click();
  await fork.getByTestId('fork-send').click();
  await expect(page.getByTestId('step-round')).toHaveCount(5);
  // A tamper test on round #2 (its answer issued the token that asked for the plan).
  await page.locator('[data-testid="step-round"][data-round="1"]').getByTestId('tamper-round').click();
  const flip = page.locator('[data-testid="tamper-test"][data-test="flip-byte"]');
  await flip.getByTestId('tamper-run').click();
  await expect(flip).toHaveAttribute('data-verdict', 'rejected');

  const all = await waitForFinished(inspector, (r) => r.derivedFrom !== undefined, 2, 'the fork and the tamper send');
  // Every record here came from the Console: filed by the tap under its ids, never twice.
  expect(all.map((r) => r.source)).toEqual(all.map(() => 'console'));
  expect(all.every((r) => r.session === capture)).toBe(true);
  // The tap's copies (it names the page as client), not the worker's.
  expect(all.filter((r) => r.client === undefined)).toEqual([]);
  expect(repeated(all)).toEqual([]);
  const step = all.filter((r) => bodyHas(r, /setup_wizard/) && r.derivedFrom === undefined);
  expect(step).toHaveLength(4);
  const sentPlan = step.find((r) => bodyHas(r, /"plan":\s*\{[^}]*"pro"/))!;
  const forked = all.find((r) => bodyHas(r, /"team"/))!;
  expect(forked.derivedFrom).toBe(sentPlan.id);
  const sentName = step.find((r) => bodyHas(r, /"Acme Labs"/))!;
  const tampered = all.filter((r) => r.derivedFrom === sentName.id);
  expect(tampered.length).toBeGreaterThan(0);
  // No "Console" session any more: the capture session holds the Console's traffic.
  await expect(page.getByTestId('session-picker').locator('option')).not.toContainText(['Console']);
});

test('r and e on a cross-origin watched server: each re-send stored once, linked; the server never sees the link header', async ({ inspector, page, mcpServer }) => {
  const url = mcpServer.url('/mcp');
  await inspector.watch(url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'echo_tool', arguments: {} } });
  const called = await inspector.fetchInPage(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
  expect(called).toMatchObject({ status: 200 });
  const original = await inspector.waitForStored((r) => r.request.body === body && r.state === 'complete', 'the page call');
  const rows = page.locator('[data-testid="conversation"]').filter({ hasText: 'echo_tool' });
  await expect(rows).toHaveCount(1);
  await page.locator('body').click({ position: { x: 5, y: 400 } });
  await page.keyboard.press('j');
  // r and e act on the selected round, known once its thread has loaded; pressed before,
  // they do nothing. That was this test's flake: a failed run's trace showed r pressed 19 ms
  // after j, the thread not yet drawn, and no re-send request on the network at all.
  await expect(page.locator('[data-testid="round"][data-round="0"]')).toBeVisible();
  await page.keyboard.press('r');
  await expect(page.getByTestId('resend-result')).toContainText('HTTP 200');
  // Each re-send is a branch of the call it re-sends: one row, one more branch; its rounds
  // stay the call's own (a re-send is an experiment, not a round of the call).
  await expect(rows.getByTestId('branches-tag')).toHaveText('2');
  await expect(rows).toHaveAttribute('data-rounds', '1');
  await expect(rows).toHaveCount(1);
  await page.keyboard.press('e');
  const draft = page.getByTestId('draft-body');
  await expect(draft).toHaveValue(/"echo_tool"/);
  await draft.fill((await draft.inputValue()).replace(/"id": \d+/, '"id": 777'));
  await page.getByTestId('draft-send').click();
  await expect(rows.getByTestId('branches-tag')).toHaveText('3');
  await expect(rows).toHaveAttribute('data-rounds', '1');
  await expect(rows).toHaveCount(1);

  const all = await waitForFinished(inspector, (r) => r.derivedFrom !== undefined, 2, 'both re-sends');
  const mine = all.filter((r) => r.request.url.startsWith(mcpServer.origin));
  expect(mine).toHaveLength(3);
  expect(mine.filter((r) => r.source === 'sw').map((r) => r.id)).toEqual([original.id]);
  const resent = mine.filter((r) => r.source === 'console');
  expect(resent).toHaveLength(2);
  expect(resent.every((r) => r.client !== undefined)).toBe(true);
  expect(resent.every((r) => r.session === original.session)).toBe(true);
  // Both act on the selected round: the original call.
  expect(resent.map((r) => r.derivedFrom)).toEqual([original.id, original.id]);
  expect(resent.some((r) => bodyHas(r, /"id":\s*777/))).toBe(true);
  // The server saw three calls and never our header (not even asked about it in a preflight).
  const posts = mcpServer.seen.filter((s) => s.method === 'POST');
  expect(posts).toHaveLength(3);
  for (const s of mcpServer.seen) {
    expect(s.headers[LINK_HEADER]).toBeUndefined();
    expect(String(s.headers['access-control-request-headers'] ?? '')).not.toContain('x-mrtr-inspector');
  }
  expect(mine.flatMap((r) => r.request.headers.map((h) => h.name.toLowerCase()))).not.toContain(LINK_HEADER);
});

recordingTest('a replay through the relay is stored once, in its own session, each send linked to the recording; the server never sees the header', async ({ inspector, page, recordingDemo }) => {
  await inspector.importFile(AUTO);
  const imported = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-tab-replay').click();
  await page.getByTestId('replay-target').fill(recordingDemo.url);
  await page.getByTestId('replay-relay').check();
  await page.getByTestId('replay-run').click();
  await expect(page.getByTestId('replay-summary')).toContainText('11 same, 0 different', { timeout: 60_000 });
  await page.getByTestId('replay-inspect').click();
  await expect(page.getByTestId('session-picker').locator('option:checked')).toContainText('Replay →');
  const replay = await page.getByTestId('session-picker').inputValue();

  const sends = recordingDemo.headers.length;
  const all = await waitForFinished(inspector, (r) => r.session === replay, sends, 'the replay');
  const recordedIds = new Set(all.filter((r) => r.session === imported).map((r) => r.id));
  const replayed = all.filter((r) => r.session === replay);
  expect(replayed).toHaveLength(sends);
  expect(replayed.every((r) => r.source === 'console' && r.derivedFrom !== undefined && recordedIds.has(r.derivedFrom))).toBe(true);
  expect(replayed.every((r) => r.client !== undefined)).toBe(true);
  expect(repeated(replayed)).toEqual([]);
  // No copy of a replay send anywhere else (the tap used to file one in the capture session).
  const bodies = new Set(replayed.map((r) => r.request.body));
  expect(all.filter((r) => r.session !== replay && bodies.has(r.request.body))).toEqual([]);
  expect(recordingDemo.headers.filter((h) => LINK_HEADER in h)).toEqual([]);
  await expect(inspector.conversationRow('setup_wizard')).toHaveCount(1);
});

test('with recording paused the tap takes nothing, and the Console keeps the one copy itself', async ({ inspector, page }) => {
  const capture = await page.getByTestId('session-picker').inputValue();
  await page.getByTestId('record').click();
  await expect(page.getByTestId('record')).toHaveAttribute('aria-pressed', 'false');
  await connect(page);
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
  const all = await waitForFinished(inspector, (r) => bodyHas(r, /setup_wizard/), 1, 'the first round');
  expect(all.filter((r) => bodyHas(r, /setup_wizard/))).toHaveLength(1);
  // The worker's copies: no client named (the tap names the page).
  expect(all.every((r) => r.source === 'console' && r.session === capture && r.client === undefined)).toBe(true);
  expect(repeated(all)).toEqual([]);
  expect(all.some((r) => bodyHas(r, /server\/discover/))).toBe(true);
  await page.getByTestId('record').click();
  await expect(page.getByTestId('record')).toHaveAttribute('aria-pressed', 'true');
});
