// Issue 4, items 2 and 3: the thread view (rounds as a timeline, input request cards, link,
// timing, round diff, legacy) and the detail tabs (headers checked, bodies, events,
// requestState decoded and verified with a key entered per server, findings, timing).
import { DEMO_STATE_KEY } from '../../worker/demo-key.ts';
import { expect, test } from './fixtures.ts';

test('a multi-round call reads as a timeline: input requests as cards, linked by state, with a round diff; the requestState tab decodes the token, and the server key entered there turns it verified', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await inspector.conversationRow('setup_wizard').click();
  const rounds = page.getByTestId('round');
  await expect(rounds).toHaveCount(4);
  await expect(rounds.nth(0)).toHaveAttribute('data-outcome', 'input_required');
  await expect(rounds.nth(3)).toHaveAttribute('data-outcome', 'complete');
  await expect(rounds.nth(1)).toHaveAttribute('data-link', 'state');
  await expect(rounds.nth(1).getByTestId('round-link')).toContainText('linked by echoed requestState to round #1');
  await expect(rounds.nth(1).getByTestId('round-link')).toContainText('after its answer');
  // The elicitation is previewed as the form the user would see, and marked answered.
  const card = rounds.nth(0).getByTestId('input-request').first();
  await expect(card).toHaveAttribute('data-method', 'elicitation/create');
  await expect(card.getByLabel('Preview of the elicitation form').locator('input, select').first()).toBeDisabled();
  await expect(card).toContainText('✔ answered');
  // Round 2 against round 1: the answers changed, and so did the token payload.
  const diff = rounds.nth(1).getByTestId('round-diff');
  await diff.locator('summary').click();
  await expect(diff.locator('[data-label="inputResponses"] [data-kind]').first()).toBeVisible();
  await expect(diff.locator('[data-label="token payload"] [data-kind]').first()).toBeVisible();
  await expect(diff.locator('[data-label="params"]')).toContainText('unchanged');

  await diff.locator('summary').click(); // closed again, as the page opens

  // The requestState tab of round 2: the token decoded, then verified by a key entered there.
  await page.getByTestId('round').nth(1).getByRole('button').first().click();
  await page.getByTestId('tab-state').click();
  const echoed = page.getByTestId('token').first();
  await expect(echoed.getByTestId('token-format')).toContainText('sdk-hmac-v1');
  await expect(echoed.getByTestId('token-payload')).toContainText('"tool": "setup_wizard"');
  await expect(echoed.getByTestId('token-expiry')).toContainText('expired');
  await expect(echoed.getByTestId('token-verification')).toContainText('not checked');
  await expect(page.getByTestId('round').nth(1).getByTestId('token-badge').first()).toHaveAttribute('data-verified', 'null');

  await page.getByTestId('key-input').fill('not-the-key-0123456789abcdef0123');
  await page.getByTestId('key-save').click();
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'false');
  await expect(page.getByTestId('token').first().getByTestId('token-verification')).toContainText('not verified');

  await page.getByTestId('key-input').fill(DEMO_STATE_KEY);
  await page.getByTestId('key-save').click();
  await expect(page.getByTestId('token').first()).toHaveAttribute('data-verified', 'true');
  await expect(page.getByTestId('token').first().getByTestId('token-verification')).toContainText('✔ verified');
  await expect(page.getByTestId('round').nth(1).getByTestId('token-badge').first()).toContainText('verified');
  // The key is never shown back, and not kept in storage unless "remember" was ticked.
  await expect(page.getByTestId('key-input')).toHaveValue('');
  await expect(page.locator('body')).not.toContainText(DEMO_STATE_KEY);
  const settings = await page.evaluate(() => new Promise<unknown>((resolve) => {
    const open = indexedDB.open('mrtr-inspector');
    open.onsuccess = () => {
      const get = open.result.transaction('settings').objectStore('settings').get('tokenKeys');
      get.onsuccess = () => { open.result.close(); resolve(get.result ?? null); };
    };
  }));
  expect(JSON.stringify(settings ?? [])).not.toContain(DEMO_STATE_KEY);
});

test('legacy server-initiated requests appear in the same timeline, marked legacy', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/legacy-2025.har');
  await inspector.conversationRow('legacy_confirm').click();
  const legacy = page.getByTestId('legacy').first();
  await expect(legacy).toContainText('legacy');
  await expect(legacy).toContainText('elicitation/create');
  await expect(legacy).toContainText('answered by the client');
  // The answer is a link that opens the client's answering exchange in the detail pane.
  const answer = legacy.getByTestId('legacy-answer-link');
  const answering = await answer.getAttribute('data-exchange-id');
  expect(answering).toBeTruthy();
  await expect(page.getByTestId('detail')).not.toHaveAttribute('data-exchange-id', answering!);
  await answer.click();
  await expect(page.getByTestId('detail')).toHaveAttribute('data-exchange-id', answering!);
  await expect(page.getByTestId('detail')).toHaveAttribute('data-focus', 'true');
});

test('headers are checked against the body, findings link to their rule, events carry times', async ({ inspector, page }) => {
  await inspector.importFile('test/fixtures/sdk/sdk-v2-manual.har');
  await page.locator('[data-testid="conversation"][data-status="error"]').click();
  await expect(page.getByTestId('round').nth(1)).toHaveAttribute('data-outcome', 'error');
  await expect(page.getByTestId('round').nth(1).getByTestId('round-error')).toContainText('-32602');
  const method = page.locator('[data-testid="header"][data-name="mcp-name"]');
  await expect(method.getByTestId('header-check')).toHaveAttribute('data-ok', 'true');
  await page.getByTestId('tab-findings').click();
  const finding = page.getByTestId('finding').first();
  await expect(finding).toHaveAttribute('data-rule', 'mrtr/state-modified');
  await expect(finding).toContainText('error');
  await finding.getByTestId('rule-link').click();
  // The rule sheet quotes the clause the rule enforces and links to its lines in the spec.
  const sheet = page.getByTestId('rule-sheet');
  await expect(sheet).toContainText('mrtr/state-modified');
  await expect(sheet).toContainText('clause');
  await expect(sheet.getByTestId('clause-excerpt').first()).toContainText('echo its exact value on the retry');
  const link = sheet.getByTestId('clause-link').first();
  await expect(link).toHaveText('mrtr.mdx line 254');
  await expect(link).toHaveAttribute('href', /\/docs\/specification\/2026-07-28\/basic\/patterns\/mrtr\.mdx#L254$/);
  await expect(link).toHaveAttribute('rel', /noopener/);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('rule-sheet')).toHaveCount(0);

  await inspector.importFile('test/fixtures/sdk/sdk-v2-auto.har');
  await inspector.conversationRow('slow_report').click();
  await page.getByTestId('tab-response').click();
  await expect(page.getByTestId('tab-response')).toContainText('Events');
  await expect(page.getByTestId('events').locator('li').first()).toContainText('+');
  await page.getByTestId('tab-timing').click();
  await expect(page.getByTestId('timing')).toContainText('Total');
});
