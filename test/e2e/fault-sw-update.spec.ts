// Fault: a new service worker version installs while the page is capturing (issue 6).
// sw.ts uses skipWaiting + clients.claim, but the browser activates the new version only
// once the old one has nothing in flight: an open event stream is finished by the old
// worker (Chromium waits up to 5 minutes), then the new one takes the page over. Required:
// no exchange lost or doubled, the open one finished by the old worker (or recorded aborted
// when the browser removes the old worker first), later requests tapped by the new one,
// the page telling the user, and capture going on without a reload.
//
// How a new version is served: each test runs the production server on a copy of the build
// of its own (`deploymentTest`), and redeploys the copy's sw.js with the build id
// `<build>~<name>`; registering `/sw.js?build=<name>` from the page (a new script URL, whose
// query the static server ignores) installs it over the running worker, as another tab
// loading a redeployed app would.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { ExchangeRecord } from '../../worker/protocol.ts';
import { deploymentTest as test, expect, toolsCall, withBuildId, workerBuildId, type Deployment, type InspectorPage } from './fixtures.ts';

const rpcId = (r: ExchangeRecord): number | undefined => {
  try {
    return (JSON.parse(r.request.body ?? '{}') as { id?: number }).id;
  } catch {
    return undefined;
  }
};

// The script URL of the worker controlling the page ('' when none does).
const controllerScript = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');

// The script URL of the installed worker waiting to take over ('' when none is).
const waitingScript = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.scriptURL ?? '');

// Deploys a new worker version, the running one's build id `<build>` made `<build>~<name>`
// (once per test), and starts installing it.
async function installNewVersion(page: Page, deployment: Deployment, name: string): Promise<void> {
  const build = await workerBuildId(page);
  const file = join(deployment.webRoot, 'sw.js');
  await writeFile(file, withBuildId(await readFile(file, 'utf8'), build, `${build}~${name}`));
  await page.evaluate((url) => navigator.serviceWorker.register(url, { scope: '/', updateViaCache: 'none' }).then(() => undefined), `/sw.js?build=${name}`);
}

// Waits until the new version controls the page.
async function newVersionInControl(page: Page, name: string): Promise<void> {
  await expect.poll(() => controllerScript(page), { message: 'the new worker never took control of the page' }).toContain(`build=${name}`);
}

async function call(inspector: InspectorPage, url: string, id: number): Promise<void> {
  const r = await inspector.fetchInPage(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: toolsCall(id) });
  expect(r).toMatchObject({ status: 200 });
}

const notice = (page: Page, text: string) => page.getByTestId('notice').filter({ hasText: text });

test('a new worker version installed mid-stream: the old worker finishes the open stream, the new one then taps new calls, and each is stored once', async ({ inspector, mcpServer, page, deployment }) => {
  const stream = mcpServer.url('/stream');
  const json = mcpServer.url('/mcp');
  await inspector.watch(stream);
  await inspector.watch(json);
  await call(inspector, json, 301);
  await inspector.startStream('s', stream, toolsCall(302));
  await expect.poll(async () => (await inspector.readStream('s')).events.length).toBe(1);
  const open = await inspector.waitForStored((r) => rpcId(r) === 302 && (r.response?.events?.length ?? 0) === 1, 'the first event of the open stream');
  expect(await controllerScript(page)).not.toContain('build=');

  await installNewVersion(page, deployment, 'e2e-next');
  // Installed, but held back by the open stream; capture goes on through the old worker.
  await expect.poll(() => waitingScript(page), { message: 'the new version never got installed' }).toContain('build=e2e-next');
  expect(await controllerScript(page)).not.toContain('build=');
  await call(inspector, json, 303);
  await inspector.waitForStored((r) => rpcId(r) === 303 && r.state === 'complete', 'a call made while the new version waits');

  // The stream goes on through the old worker to its end; then the new version takes over.
  expect(mcpServer.secondEventsSent).toBe(0);
  mcpServer.release();
  await expect.poll(async () => (await inspector.readStream('s')).done, { message: 'the open stream reached the page to its end' }).toBe(true);
  expect((await inspector.readStream('s')).events).toHaveLength(2);
  const done = await inspector.waitForStored((r) => r.id === open.id && r.state !== 'streaming', 'the end of the open stream');
  expect(done.state).toBe('complete');
  expect(done.response?.events?.map((e) => e.id)).toEqual(['1', '2']);
  await newVersionInControl(page, 'e2e-next');

  // Calls now go to the new worker, which taps them: capture goes on without a reload.
  await call(inspector, json, 304);
  await inspector.waitForStored((r) => rpcId(r) === 304 && r.state === 'complete', 'a call tapped by the new worker');

  // Each exchange exactly once, none missing, in the page's list too.
  const ours = (await inspector.storedExchanges()).filter((r) => [301, 302, 303, 304].includes(rpcId(r) ?? -1));
  expect(ours.map(rpcId).sort()).toEqual([301, 302, 303, 304]);
  expect(new Set(ours.map((r) => r.seq)).size).toBe(4);
  for (const r of ours) await expect(page.locator(`[data-testid="exchange"][data-id="${r.id}"]`)).toHaveAttribute('data-state', 'complete');
});

test('the page tells the user that a new worker version waits for the open stream, then that it took over, and capture goes on', async ({ inspector, mcpServer, page, deployment }) => {
  const stream = mcpServer.url('/stream');
  await inspector.watch(stream);
  await inspector.startStream('s', stream, toolsCall(351));
  await expect.poll(async () => (await inspector.readStream('s')).events.length).toBe(1);
  await installNewVersion(page, deployment, 'e2e-told');
  await expect(notice(page, 'is installed and takes over once the exchanges in flight')).toContainText(/build [^ ]+~e2e-told\)/);
  mcpServer.release();
  await expect(notice(page, 'was updated while this page was open')).toContainText(/→ [^ ]+~e2e-told\)/);
  await expect(notice(page, 'was updated while this page was open')).toContainText('Capture continues');
  expect(await controllerScript(page)).toContain('build=e2e-told');
  await inspector.startStream('t', stream, toolsCall(352));
  await inspector.waitForStored((r) => rpcId(r) === 352 && r.state === 'complete', 'a call after the update, without a reload');
});

test('the old worker removed with a stream still open (as Chromium does after 5 minutes): the new one records that exchange aborted, with its event', async ({ inspector, mcpServer, page, deployment }) => {
  const stream = mcpServer.url('/stream');
  await inspector.watch(stream);
  await inspector.startStream('s', stream, toolsCall(401));
  await expect.poll(async () => (await inspector.readStream('s')).events.length).toBe(1);
  const open = await inspector.waitForStored((r) => rpcId(r) === 401 && (r.response?.events?.length ?? 0) === 1, 'the first event of the open stream');
  await installNewVersion(page, deployment, 'e2e-removal');
  await expect.poll(() => waitingScript(page), { message: 'the new version never got installed' }).toContain('build=e2e-removal');

  // Chromium removes an outgoing worker still busy after kMaxLameDuckTime (5 minutes);
  // stopping it through DevTools does the same now. Its stream is cut mid-way.
  await inspector.stopServiceWorker();
  await expect.poll(async () => (await inspector.readStream('s')).error, { message: "the page's read of the stream was cut" }).not.toBeNull();
  await newVersionInControl(page, 'e2e-removal');

  const rec = await inspector.waitForStored((r) => r.id === open.id && r.state !== 'streaming', 'the cut exchange ended by the new worker');
  expect(rec.state).toBe('aborted');
  expect(rec.error).toMatch(/went away before it ended/);
  expect(rec.response?.events?.map((e) => e.id)).toEqual(['1']);
  expect((await inspector.storedExchanges()).filter((r) => rpcId(r) === 401)).toHaveLength(1);
  await expect(page.locator(`[data-testid="exchange"][data-id="${rec.id}"]`)).toHaveAttribute('data-state', 'aborted');
});

test("after a reload with the worker asleep, the page's relay event stream bypasses the worker, so it cannot hold a new version back", async ({ inspector, page, deployment }) => {
  await inspector.stopServiceWorker();
  const events = page.waitForResponse((r) => new URL(r.url()).pathname === '/relay/api/events');
  await page.reload();
  await inspector.waitUntilCapturing();
  // Open as long as the page is: through the worker, it would keep the worker busy for good.
  expect((await events).fromServiceWorker()).toBe(false);
  await installNewVersion(page, deployment, 'e2e-reload');
  await newVersionInControl(page, 'e2e-reload');
});
