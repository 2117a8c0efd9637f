// Capture by the service worker: what reaches IndexedDB, when, and what does not.
import { expect, test } from './fixtures.ts';

const TOOLS_CALL = (id: number, name = 'report') =>
  JSON.stringify({
    jsonrpc: '2.0', id, method: 'tools/call',
    params: {
      name, arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });

test('a call from the page is captured by the service worker, threaded by the analysis worker, and still there after a reload', async ({ inspector, mcpServer, page }) => {
  const endpoint = mcpServer.url('/mcp');
  await inspector.watch(endpoint);
  await inspector.callTarget(endpoint);

  const rec = await inspector.waitForStored((r) => r.request.url === endpoint && r.state === 'complete', 'the completed tools/call');
  expect(rec.source).toBe('sw');
  expect(rec.request.method).toBe('POST');
  expect(JSON.parse(rec.request.body ?? '{}')).toMatchObject({ method: 'tools/call', params: { name: 'busy' } });
  expect(rec.request.headers).toContainEqual({ name: 'mcp-method', value: 'tools/call' });
  expect(rec.response?.status).toBe(200);
  expect(JSON.parse(rec.response?.body ?? '{}')).toMatchObject({ result: { resultType: 'complete' } });

  const row = page.locator('[data-testid="conversation"]').filter({ hasText: 'tools/call' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('busy');
  await expect(row).toHaveAttribute('data-rounds', '1');
  await expect(row).toHaveAttribute('data-status', 'complete');

  await page.reload();
  await inspector.waitUntilCapturing();
  await expect(page.locator('[data-testid="conversation"]').filter({ hasText: 'tools/call' })).toHaveAttribute('data-status', 'complete');
  await expect(page.locator(`[data-testid="exchange"][data-id="${rec.id}"]`)).toHaveAttribute('data-state', 'complete');
  expect((await inspector.storedExchanges()).map((r) => r.id)).toContain(rec.id);
});

test('the Console demo call to /demo/mcp is captured and threaded', async ({ inspector, page }) => {
  await page.getByTestId('call-demo').click();
  const rec = await inspector.waitForStored((r) => new URL(r.request.url).pathname === '/demo/mcp' && r.state === 'complete', 'the demo call');
  expect(rec.request.headers).toContainEqual({ name: 'mcp-name', value: 'slow_report' });
  expect(rec.response?.status).toBeGreaterThan(0);
  await expect(page.locator('[data-testid="conversation"]').filter({ hasText: 'slow_report' })).toHaveCount(1);
});

test('an event stream reaches the page event by event: the first event is in the page and in IndexedDB before the second is sent', async ({ inspector, mcpServer, page }) => {
  const endpoint = mcpServer.url('/stream');
  await inspector.watch(endpoint);
  await inspector.startStream('s', endpoint, TOOLS_CALL(7));

  // The server holds the second event until release(); nothing below can race it.
  await expect.poll(async () => (await inspector.readStream('s')).events.length).toBe(1);
  const stored = await inspector.waitForStored(
    (r) => r.request.url === endpoint && (r.response?.events?.length ?? 0) >= 1,
    'the first event of the stream',
  );
  expect(stored.state).toBe('streaming');
  expect(stored.response?.events?.[0]).toMatchObject({ event: 'message', id: '1' });
  expect(JSON.parse(stored.response!.events![0].data)).toMatchObject({ method: 'notifications/progress' });
  await expect(page.locator(`[data-testid="exchange"][data-id="${stored.id}"]`)).toHaveAttribute('data-events', '1');
  expect(mcpServer.secondEventsSent).toBe(0);

  mcpServer.release();
  await expect.poll(async () => (await inspector.readStream('s')).done).toBe(true);
  expect((await inspector.readStream('s')).events).toHaveLength(2);
  const done = await inspector.waitForStored((r) => r.id === stored.id && r.state === 'complete', 'the completed stream');
  expect(done.response?.events?.map((e) => e.id)).toEqual(['1', '2']);
  expect(done.response?.events?.[1].t).toBeGreaterThanOrEqual(done.response!.events![0].t);
});

test('aborting the fetch in the page closes the upstream connection', async ({ inspector, mcpServer }) => {
  const endpoint = mcpServer.url('/stream');
  await inspector.watch(endpoint);
  const closed = mcpServer.closedEarly('/stream');
  await inspector.startStream('a', endpoint, TOOLS_CALL(8));
  await expect.poll(async () => (await inspector.readStream('a')).events.length).toBe(1);

  await inspector.abortStream('a');
  await closed; // the test server saw its response's connection close before it finished
  expect(mcpServer.secondEventsSent).toBe(0);
  const rec = await inspector.waitForStored((r) => r.request.url === endpoint && r.state === 'aborted', 'the aborted exchange');
  expect(rec.response?.events).toHaveLength(1);
});

test('a service worker stopped mid-session loses no completed exchange, and the next request is tapped again', async ({ inspector, mcpServer }) => {
  const endpoint = mcpServer.url('/mcp');
  await inspector.watch(endpoint);
  for (const id of [1, 2]) {
    const r = await inspector.fetchInPage(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: TOOLS_CALL(id) });
    expect(r).toMatchObject({ status: 200 });
  }
  await expect.poll(async () => (await inspector.storedExchanges()).filter((r) => r.request.url === endpoint && r.state === 'complete').length).toBe(2);

  await inspector.stopServiceWorker();
  expect((await inspector.storedExchanges()).filter((r) => r.request.url === endpoint && r.state === 'complete')).toHaveLength(2);

  // The worker wakes for this request with an empty cache and must re-read the watch list.
  const r = await inspector.fetchInPage(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: TOOLS_CALL(3) });
  expect(r).toMatchObject({ status: 200 });
  await expect.poll(async () => (await inspector.storedExchanges()).filter((x) => x.request.url === endpoint && x.state === 'complete').length).toBe(3);
  const seqs = (await inspector.storedExchanges()).filter((x) => x.request.url === endpoint).map((x) => x.seq).sort((a, b) => a - b);
  expect(new Set(seqs).size).toBe(3);
});

test('a request to an unwatched URL is not tapped', async ({ inspector, mcpServer }) => {
  const watched = mcpServer.url('/watched/mcp');
  const unwatched = mcpServer.url('/other/mcp');
  await inspector.watch(watched);

  const u = await inspector.fetchInPage(unwatched, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: TOOLS_CALL(1) });
  expect(u).toMatchObject({ status: 200 });
  const w = await inspector.fetchInPage(watched, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: TOOLS_CALL(2) });
  expect(w).toMatchObject({ status: 200 });

  // The watched call went out after the unwatched one; once it is stored, a tap of the
  // unwatched call would have been stored too (writes are ordered per worker).
  await inspector.waitForStored((r) => r.request.url === watched && r.state === 'complete', 'the watched call');
  expect((await inspector.storedExchanges()).filter((r) => r.request.url === unwatched)).toEqual([]);
  expect(mcpServer.seen.filter((s) => s.path === '/other/mcp' && s.method === 'POST')).toHaveLength(1);
});
