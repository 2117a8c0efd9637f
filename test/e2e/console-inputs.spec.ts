// Issue 5, item 2, the input editors other than forms, against the embedded demo: a URL-mode
// elicitation shows the URL to open and "Retry now", which answers and sends the retry; the
// sampling reply editor is pre-filled from the server's messages and the roots editor from a
// default root, and the server's next answer reflects what was edited in each.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

async function connect(page: Page, tool: string): Promise<void> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('console-target').selectOption(`t:${tool}`);
}

async function startPaused(page: Page): Promise<void> {
  await page.getByTestId('console-start').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
  await expect(page.getByTestId('step-round')).toHaveCount(1);
}

const question = (page: Page, key: string) => page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);

test('a URL elicitation shows the URL to open, and "Retry now" sends the retry and the call goes on', async ({ inspector: _, page }) => {
  await connect(page, 'open_dashboard');
  await startPaused(page);
  const q = question(page, 'dashboard');
  await expect(q).toHaveAttribute('data-kind', 'elicitation-url');
  await expect(q).toContainText('Open the demo dashboard to continue');
  await expect(q.getByTestId('elicit-url')).toHaveText('https://example.com/mrtr-demo/dashboard');
  await expect(q.getByTestId('open-url')).toBeEnabled();
  await expect(page.getByTestId('send-retry')).toBeDisabled();
  // From the keyboard: focus "Retry now" and press Enter.
  await q.getByTestId('retry-now').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  const retry = page.locator('[data-testid="step-round"][data-round="1"]');
  await expect(retry.locator('pre').first()).toContainText('"dashboard": {');
  await expect(retry.locator('pre').first()).toContainText('"action": "accept"');
  await expect(retry.locator('pre').first()).toContainText('"requestState": "v1.');
  await expect(retry.getByTestId('round-summary')).toHaveText('complete: The dashboard was opened.');
});

test('the sampling reply editor is pre-filled from the messages, and the server answers with the edited reply', async ({ inspector: _, page }) => {
  await connect(page, 'summarize');
  await page.locator('[data-field="text"] input').fill('MRTR lets a server ask for input by returning early.');
  await startPaused(page);
  const q = question(page, 'summary');
  await expect(q).toHaveAttribute('data-kind', 'sampling');
  const editor = q.getByTestId('answer-json');
  await expect(editor).toHaveValue(/"text": "A reply to: Summarize in one sentence:\\n\\nMRTR lets a server ask for input by returning early\."/);
  await expect(editor).toHaveValue(/"role": "assistant"/);
  // A reply that is not JSON is refused where it is typed.
  await editor.fill('{ "role": ');
  await q.getByTestId('answer-use').click();
  await expect(q.getByRole('alert')).toBeVisible();
  await expect(q).toHaveAttribute('data-answered', 'false');
  const reply = { role: 'assistant', content: { type: 'text', text: 'Servers ask, clients answer, state rides along.' }, model: 'hand-edited', stopReason: 'endTurn' };
  await editor.fill(JSON.stringify(reply, null, 2));
  await q.getByTestId('answer-use').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
  await expect(page.getByTestId('preview-text')).toHaveValue(/"model": "hand-edited"/);
  await page.getByTestId('preview-text').focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last()).toContainText('Summary: Servers ask, clients answer, state rides along.');
});

test('the roots editor starts from a default root, and the server lists the edited roots', async ({ inspector: _, page }) => {
  await connect(page, 'list_workspace');
  await startPaused(page);
  const q = question(page, 'roots');
  await expect(q).toHaveAttribute('data-kind', 'roots');
  const editor = q.getByTestId('answer-json');
  await expect(editor).toHaveValue(/"uri": "file:\/\/\/workspace"/);
  await editor.fill(JSON.stringify({ roots: [{ uri: 'file:///home/me/project', name: 'project' }, { uri: 'file:///home/me/notes', name: 'notes' }] }));
  await q.getByTestId('answer-use').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  const last = page.getByTestId('step-round').last();
  await expect(last).toContainText('Workspace roots:');
  await expect(last).toContainText('- project (file:///home/me/project)');
  await expect(last).toContainText('- notes (file:///home/me/notes)');
  await expect(last).not.toContainText('file:///workspace');
});
