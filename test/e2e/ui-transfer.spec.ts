// Issue 4, item 6: import by picker and drag-and-drop, a damaged file imported only when
// the user agrees, export sanitised by default (and re-imported with nothing lost but the
// secrets), JSONL, SARIF, copy as cURL / fetch.
import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { expect, test } from './fixtures.ts';

const MANUAL = 'test/fixtures/sdk/sdk-v2-manual.har';
const SECRETS = { authorization: 'Bearer sk-live-0123456789', cookie: 'session=s3cr3t-cookie', 'x-api-key': 'key-abcdef-987' };

// The recorded server's URL (the fixture is re-recorded on a free port, so it is read, not assumed).
const MANUAL_URL = (JSON.parse(readFileSync(MANUAL, 'utf8')) as { log: { entries: { request: { url: string } }[] } }).log.entries[0].request.url;

function plantedHar(): string {
  const har = JSON.parse(readFileSync(MANUAL, 'utf8')) as { log: { entries: { request: { headers: { name: string; value: string }[] } }[] } };
  for (const e of har.log.entries) {
    e.request.headers.push({ name: 'Authorization', value: SECRETS.authorization }, { name: 'Cookie', value: SECRETS.cookie }, { name: 'X-API-Key', value: SECRETS['x-api-key'] });
  }
  return JSON.stringify(har);
}

async function download(page: Page, click: () => Promise<void>): Promise<{ d: Download; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await d.path();
  return { d, text: readFileSync(path!, 'utf8') };
}

/** What must survive a sanitised round trip: everything but ids, sessions and secret values. */
function comparable(r: ExchangeRecord, redact: boolean) {
  const headers = r.request.headers.map((h) => ({ name: h.name.toLowerCase(), value: redact && h.name.toLowerCase() in SECRETS ? '[redacted]' : h.value }));
  return { seq: r.seq, method: r.request.method, url: r.request.url, headers, body: r.request.body,
    status: r.response?.status, resHeaders: r.response?.headers.map((h) => h.name.toLowerCase()), resBody: r.response?.body,
    events: r.response?.events?.map((e) => e.data), startedAt: r.startedAt, state: r.state };
}

test('a sanitised HAR export re-imports with nothing lost but the secrets', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'planted.har', text: plantedHar() });
  const planted = await page.getByTestId('session-picker').inputValue();
  const original = await inspector.sessionExchanges(planted);
  expect(original).toHaveLength(11);
  expect(original[0].request.headers).toContainEqual({ name: 'Authorization', value: SECRETS.authorization });

  await page.getByTestId('export').click();
  const { text } = await download(page, () => page.getByTestId('export-har').click());
  for (const s of Object.values(SECRETS)) expect(text).not.toContain(s);
  expect(text).toContain('[redacted]');

  await inspector.importFile({ name: 'exported.har', text });
  const again = await inspector.sessionExchanges(await page.getByTestId('session-picker').inputValue());
  expect(again.map((r) => comparable(r, false))).toEqual(original.map((r) => comparable(r, true)));
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(5);

  // The explicit choice keeps them (exported from the planted session, picked again).
  await page.getByTestId('session-picker').selectOption(planted);
  await expect(page.getByTestId('count-exchanges')).toHaveText('11 exchanges');
  await page.getByTestId('export').click();
  await page.getByTestId('keep-secrets').check();
  const kept = await download(page, () => page.getByTestId('export-har').click());
  expect(kept.text).toContain(SECRETS['x-api-key']);
});

test('the filtered view exports as JSONL, findings as SARIF, and an exchange copies as cURL and fetch', async ({ inspector, page }) => {
  await inspector.importFile({ name: 'planted.har', text: plantedHar() });
  await page.getByTestId('filter').fill('rule:mrtr/*');
  await expect(page.locator('[data-testid="conversation"]')).toHaveCount(1);
  await page.getByTestId('export').click();
  await page.getByTestId('export-filtered').check();
  const jsonl = await download(page, () => page.getByTestId('export-jsonl').click());
  expect(jsonl.d.suggestedFilename()).toMatch(/\.jsonl$/);
  const lines = jsonl.text.trim().split('\n');
  expect(lines.length).toBe(3); // header + the two exchanges of the tampered call
  expect(jsonl.text).not.toContain(SECRETS.authorization);

  await page.getByTestId('export').click();
  const sarif = await download(page, () => page.getByTestId('export-sarif').click());
  const log = JSON.parse(sarif.text) as { version: string; runs: { results: { ruleId: string }[] }[] };
  expect(log.version).toBe('2.1.0');
  expect(log.runs[0].results.map((r) => r.ruleId)).toEqual(['mrtr/state-modified']);

  await page.locator('[data-testid="conversation"]').first().click();
  await page.getByTestId('copy-curl').click();
  await expect(page.getByTestId('copied-text')).toContainText(`curl '${MANUAL_URL}'`);
  await expect(page.getByTestId('copied-text')).not.toContainText(SECRETS.cookie);
  await page.getByTestId('copy-fetch').click();
  await expect(page.getByTestId('copied-text')).toContainText(`fetch("${MANUAL_URL}"`);
});

test('a damaged file asks before importing the readable part, and says what was skipped', async ({ inspector, page }) => {
  const har = JSON.parse(readFileSync(MANUAL, 'utf8')) as { log: { entries: unknown[] } };
  har.log.entries[3] = { request: 'garbage' };
  await page.getByTestId('import-file').setInputFiles({ name: 'damaged.har', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(har)) });
  const ask = page.getByTestId('partial-import');
  await expect(ask).toContainText('damaged.har is damaged');
  await expect(ask).toContainText('10 entries are readable');
  await expect(ask).toContainText('log.entries[3]');
  await page.getByTestId('partial-yes').click();
  await expect(page.getByTestId('notice').last()).toContainText('Imported 10 exchanges from damaged.har; skipped 1');
  await expect(page.getByTestId('count-exchanges')).toHaveText('10 exchanges');
});

test('a file dropped on the window is imported as a new session', async ({ inspector, page }) => {
  const text = readFileSync('test/fixtures/sdk/legacy-2025.har', 'utf8');
  const before = await page.getByTestId('session-picker').inputValue();
  const data = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'legacy.har', { type: 'application/json' }));
    return dt;
  }, text);
  await page.getByTestId('app').dispatchEvent('dragover', { dataTransfer: data });
  await page.getByTestId('app').dispatchEvent('drop', { dataTransfer: data });
  await expect(page.getByTestId('session-picker')).not.toHaveValue(before);
  await expect(page.locator('[data-testid="session-picker"] option:checked')).toHaveText('legacy.har');
  await expect(inspector.conversationRow('legacy_confirm')).toHaveCount(1);
});
