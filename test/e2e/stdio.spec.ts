// Stdio servers in the browser: a real SDK v2 stdio client and server talking through
// `mrtr-inspector wrap` while the page is open (threaded live, marked stdio), and the
// Console driving the stdio demo server in serve mode (`wrap --serve`).
import { dirname } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { buildCliIfStale } from '../support/wrap-process.ts';
import { expect, InspectorPage, test, watchRelayFeed } from './fixtures.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STDIO_CLIENT = 'test/peers/stdio/stdio-client.ts';

test.beforeAll(() => buildCliIfStale());

// Runs a node process from the repository root; the test stops whatever is left.
function node(args: string[], env: Record<string, string>, children: ChildProcess[]): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err }))) };
}

const children: ChildProcess[] = [];
test.afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    c.kill('SIGTERM');
    await new Promise((r) => c.once('close', r));
  }
});

test('an SDK v2 stdio client and server talking through wrap are threaded live in the open page as stdio:// exchanges', async ({ page, relay, baseURL }) => {
  const feed = watchRelayFeed(page);
  await feed.ready;
  const inspector = new InspectorPage(page);
  await inspector.open();
  await feed.connected;

  const run = await node(['--import', 'tsx', STDIO_CLIENT], { MRTR_INSPECTOR_URL: baseURL!, MRTR_RELAY_DIR: dirname(relay.jsonl), MRTR_RELAY_JSONL: relay.jsonl }, children).done;
  expect(run.err).toBe('');
  expect(JSON.parse(run.out)).toEqual({ ok: true, text: 'Created workspace "Stdio Labs" on the team plan.' });

  const row = page.locator('[data-testid="conversation"]').filter({ hasText: 'setup_wizard' });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toHaveAttribute('data-rounds', '4', { timeout: 30_000 });
  await expect(row).toHaveAttribute('data-status', 'complete', { timeout: 30_000 });
  const stored = (await inspector.storedExchanges()).filter((r) => r.stdio);
  expect(stored.length).toBeGreaterThanOrEqual(5);
  for (const r of stored) expect(r).toMatchObject({ source: 'relay', request: { url: 'stdio://demo', headers: [] }, stdio: { name: 'demo' } });
  // They came live over the event stream, not through the capture file.
  for (const body of await feed.drained()) for (const r of stored) expect(body).not.toContain(r.id);
});

async function answerForm(page: Page, key: string, fill: (q: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  const q = page.locator(`[data-testid="questions"] [data-testid="question"][data-key="${key}"]`);
  await expect(q).toBeVisible();
  await fill(q);
  await q.getByTestId('answer-accept').click();
  await expect(q).toHaveAttribute('data-answered', 'true');
}

test('the Console drives the stdio demo server in serve mode through every round of the wizard', async ({ inspector, page, relay, baseURL }) => {
  const wrap = node(['cli/bin.js', 'wrap', '--serve', '--name', 'demo', '--inspector', baseURL!, '--', process.execPath, '--import', 'tsx', 'test/peers/stdio/demo-stdio-server.ts'], { MRTR_RELAY_DIR: dirname(relay.jsonl) }, children);
  await expect.poll(async () => {
    const res = await page.request.get('/relay/api/targets', { headers: { origin: baseURL! } });
    return ((await res.json()) as { stdio?: { id: string }[] }).stdio?.map((t) => t.id) ?? [];
  }, { timeout: 30_000 }).toContain('stdio-demo');

  await page.getByTestId('toggle-console').click();
  // Listed by the page while attached, and picked in the Console without typing a URL.
  await page.getByTestId('console-tab-traffic').click();
  const listed = page.locator('[data-testid="stdio-target"][data-name="demo"]');
  await expect(listed).toContainText('stdio · via relay', { timeout: 15_000 });
  await page.getByTestId('console-tab-call').click();
  await expect(page.getByTestId('console-url')).not.toHaveValue(/relay\/stdio/);
  await page.getByTestId('console-stdio').selectOption({ label: 'demo (stdio · via relay)' });
  await expect(page.getByTestId('console-url')).toHaveValue(/\/relay\/stdio\/demo$/);
  await expect(page.getByTestId('server-info')).toContainText('mrtr-inspector-demo', { timeout: 30_000 });
  await page.getByTestId('console-target').selectOption('t:setup_wizard');
  await page.getByTestId('console-start').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'paused');
  await answerForm(page, 'name', (q) => q.getByLabel('Workspace name').fill('Pipe Works'));
  await expect(page.getByTestId('preview-text')).toHaveValue(/"requestState": "v1\./);
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(2);
  await answerForm(page, 'plan', async (q) => { await q.getByLabel('Plan').selectOption('pro'); });
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step-round')).toHaveCount(3);
  await answerForm(page, 'confirm', (q) => q.getByLabel('Create the workspace').check());
  await page.getByTestId('send-retry').click();
  await expect(page.getByTestId('step')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('step-round').last()).toContainText('Created workspace "Pipe Works" on the pro plan.');

  // The Console's calls went to the stdio server (its same-origin endpoint), not the HTTP demo.
  await expect.poll(async () => (await inspector.storedExchanges()).filter((r) => r.request.url.endsWith('/relay/stdio/demo') && r.request.body?.includes('setup_wizard')).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);

  // The wrap process ends: the stdio server leaves the picker and the target list.
  wrap.child.kill('SIGTERM');
  await wrap.done;
  await expect(page.getByTestId('console-stdio')).toHaveCount(0, { timeout: 15_000 });
  await page.getByTestId('console-tab-traffic').click();
  await expect(page.getByTestId('stdio-target')).toHaveCount(0);
});
