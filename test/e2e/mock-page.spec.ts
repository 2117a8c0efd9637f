// Issue 32 items 3 and 4: a live demo session (the Console's discovery of the demo and the
// SDK v2 client's three-round wizard through the relay) served from the session menu as
// mocks behind the relay: one with round 2's answer edited into a JSON-RPC error (after a
// bad edit is refused with what and where), one as recorded. External clients reach them at
// their relay URLs with the relay token (the SDK client, and Node fetch), the Console lists
// and calls them, their traffic is captured, and the sheet shows each mock's summary and
// mismatches with the closest recorded request and the diff. The edited mock is served with
// timing "fast", the other as recorded (the default): a streamed answer (slow_report, its
// progress events spaced by the demo) comes spaced as recorded from one, at once from the
// other.
import type { Page } from '@playwright/test';
import { downloadText, expect, test, toolsCall, type InspectorPage, type RelayUnderTest } from './fixtures.ts';
import { timedStream } from '../support/stream-timing.ts';

const WIZARD_DONE = 'Created workspace "Relay Labs" on the team plan.';
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };

/** slow_report with ten progress steps, as an external client sends it (a progressToken). */
const slowReport = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 10 }, _meta: { progressToken: `p${id}`, 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'e2e-mock', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} } } });

/** Calls slow_report at `url` as an external client: its events, each with when it arrived
 *  (ms after the request was sent). */
const callSlowReport = (url: string, id: number) => timedStream(url, slowReport(id), { ...mcpHeaders, 'mcp-method': 'tools/call', 'mcp-name': 'slow_report' });

async function sessionOnScreen(page: Page): Promise<string> {
  return page.getByTestId('session-picker').inputValue();
}

/** The demo session: the Console's discovery of the demo, then the SDK client's wizard through the relay. */
async function recordDemoSession(page: Page, inspector: InspectorPage, relay: RelayUnderTest): Promise<string> {
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-url').fill('/demo/mcp');
  await page.getByTestId('console-connect').click();
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  const run = await relay.runClient('demo');
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, text: WIZARD_DONE });
  const session = await sessionOnScreen(page);
  await expect.poll(async () => (await inspector.sessionExchanges(session)).filter((r) => r.source === 'relay' && r.state === 'complete' && r.request.body?.includes('setup_wizard')).length, { timeout: 30_000 }).toBe(4);
  // A streamed answer: slow_report's progress events, spaced by the demo, through the relay.
  expect((await callSlowReport(relay.url('demo'), 90)).messages).toHaveLength(12);
  await expect.poll(async () => (await inspector.sessionExchanges(session)).filter((r) => r.source === 'relay' && r.state === 'complete' && r.request.body?.includes('slow_report')).length, { timeout: 30_000 }).toBe(1);
  await page.getByTestId('toggle-console').click();
  return session;
}

test('a demo session served as mocks (one with round 2 edited into an error) answers external clients and the Console, captured, with its summary', async ({ page, inspector, relay }) => {
  const session = await recordDemoSession(page, inspector, relay);
  const round2 = (await inspector.sessionExchanges(session)).find((r) => r.request.body?.includes('"inputResponses":{"name"'))!;
  expect(round2).toBeDefined();

  await page.getByTestId('session-menu').click();
  await page.getByTestId('serve-as-mock').click();
  const sheet = page.getByTestId('mock-sheet');
  await expect(sheet).toBeVisible();

  // Edit round 2's answer: a bad edit says what and where, and is not kept.
  await page.getByTestId('mock-edit-exchange').selectOption(round2.id);
  const box = page.getByTestId('mock-edit-text');
  await expect(box).toHaveValue(/"resultType": "input_required"/);
  const recorded = JSON.parse(await box.inputValue()) as { id: unknown };
  await box.fill('{\n  "jsonrpc": "2.0",\n  "id": ' + JSON.stringify(recorded.id) + ',\n  "error": {"code": "x", "message": "Plans are unavailable"}\n}');
  await page.getByTestId('mock-edit-apply').click();
  await expect(page.getByTestId('mock-edit-error')).toContainText('At "error.code": must be an integer');
  await expect(page.getByTestId('mock-edit-count')).toHaveText('0 edited');
  await box.fill('{\n  "jsonrpc": "2.0",\n  "id": ' + JSON.stringify(recorded.id) + ',\n  "error": {"code": -32603,, "message": "Plans are unavailable"}\n}');
  await page.getByTestId('mock-edit-apply').click();
  await expect(page.getByTestId('mock-edit-error')).toContainText('Not JSON (line 4, column');
  await box.fill(JSON.stringify({ jsonrpc: '2.0', id: recorded.id, error: { code: -32603, message: 'Plans are unavailable right now' } }, null, 2));
  await page.getByTestId('mock-edit-apply').click();
  await expect(page.getByTestId('mock-edit-error')).toHaveCount(0);
  await expect(page.getByTestId('mock-edit-count')).toHaveText('1 edited');

  // Saved as a capture, the variant carries the edit.
  const saved = await downloadText(page, () => page.getByTestId('mock-save-jsonl').click());
  expect(saved.name).toMatch(/-edited\.jsonl$/);
  expect(saved.text).toContain('Plans are unavailable right now');

  // Served with the edit as mock-wizard-err answering at once, then as recorded (edit
  // undone, the timing back to its default) as mock-wizard.
  await expect(page.getByTestId('mock-timing')).toHaveValue('recorded');
  await page.getByTestId('mock-name').fill('wizard-err');
  await page.getByTestId('mock-timing').selectOption('fast');
  await expect(page.getByTestId('mock-strict')).not.toBeChecked();
  await page.getByTestId('mock-strict').check();
  await page.getByTestId('mock-serve').click();
  const servedErr = sheet.locator('[data-testid="served-mock"][data-name="wizard-err"]');
  await expect(servedErr).toBeVisible();
  await expect(servedErr.getByTestId('mock-timing-shown')).toHaveAttribute('data-timing', 'fast');
  await expect(servedErr.getByTestId('mock-timing-shown')).toHaveText('answers at once, strict');
  await page.getByTestId('mock-strict').uncheck();
  await page.getByTestId('mock-edit-undo').click();
  await expect(page.getByTestId('mock-edit-count')).toHaveText('0 edited');
  await page.getByTestId('mock-name').fill('wizard');
  await page.getByTestId('mock-timing').selectOption('recorded');
  await page.getByTestId('mock-serve').click();
  const served = sheet.locator('[data-testid="served-mock"][data-name="wizard"]');
  await expect(served).toBeVisible();
  await expect(served.getByTestId('mock-timing-shown')).toHaveAttribute('data-timing', 'recorded');
  await expect(served.getByTestId('mock-timing-shown')).toHaveText('answers as recorded');

  // The streamed answer: from mock-wizard each event no earlier after the request than 80%
  // of its recorded time (the last one's is the stream's), from mock-wizard-err first to
  // last event in less than the recorded span between them.
  const stream = (await inspector.sessionExchanges(session)).find((r) => r.request.body?.includes('slow_report'))!;
  const recordedAt = stream.response!.events!.map((e) => e.t - stream.startedAt);
  const recordedSpan = recordedAt.at(-1)! - recordedAt[0];
  expect(recordedSpan).toBeGreaterThanOrEqual(300);
  const asRecorded = await callSlowReport(relay.url('mock-wizard') + '/mcp', 91);
  const atOnce = await callSlowReport(relay.url('mock-wizard-err') + '/mcp', 92);
  const fastSpan = atOnce.times.at(-1)! - atOnce.times[0];
  console.log(`slow_report: recorded last event at ${recordedAt.at(-1)} ms (span ${recordedSpan} ms); mock as recorded: ${asRecorded.times.at(-1)!.toFixed(0)} ms; mock fast: span ${fastSpan.toFixed(0)} ms`);
  expect([asRecorded.messages.length, atOnce.messages.length]).toEqual([12, 12]);
  asRecorded.times.forEach((t, i) => expect(t, `event ${i}`).toBeGreaterThanOrEqual(0.8 * recordedAt[i]));
  expect(fastSpan).toBeLessThan(recordedSpan);
  // A second mock of the same name is refused with a clear message.
  await page.getByTestId('mock-serve').click();
  await expect(page.getByTestId('mock-error')).toHaveText('✖ A mock named "wizard" is already served (target mock-wizard). Stop serving it first, or pick another name.');
  await expect(served.getByTestId('mock-relay-url')).toHaveText(relay.url('mock-wizard') + '/mcp');

  // External clients, through the relay URL with the token: the SDK client completes the
  // wizard from the recording, and the edited variant gives it the edited error.
  const plain = await relay.runClient('mock-wizard');
  expect(plain.stderr).toBe('');
  expect(JSON.parse(plain.stdout)).toEqual({ ok: true, text: WIZARD_DONE, asked: ['name', 'plan', 'confirm'] });
  const edited = await relay.runClient('mock-wizard-err');
  expect(edited.code).toBe(1);
  expect(edited.stderr).toContain('Plans are unavailable right now');
  // Node fetch with a call the recording lacks: the answer names the closest recorded request.
  const res = await fetch(relay.url('mock-wizard') + '/mcp', { method: 'POST', headers: mcpHeaders, body: toolsCall(77, 'setup_wizrd') });
  const miss = (await res.json()) as { id: number; error: { message: string } };
  expect(miss.id).toBe(77);
  expect(miss.error.message).toContain('Closest recorded request: tools/call setup_wizard');

  // The Console lists the mock and calls it (its discovery is answered from the recording).
  await page.getByTestId('mock-close').click();
  await page.getByTestId('toggle-console').click();
  await page.getByTestId('console-mock').selectOption({ label: 'mock-wizard (mock · via relay)' });
  await expect(page.getByTestId('server-info')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('console-url')).toHaveValue(/\/relay\/api\/forward\/mock-wizard$/);
  await page.getByTestId('toggle-console').click();

  // Captured like any relay target's traffic: the external clients' calls are in the session.
  await expect.poll(async () => (await inspector.sessionExchanges(session)).filter((r) => r.source === 'relay' && r.request.url.includes('/relay/mock/wizard/mcp') && r.state === 'complete').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(5);

  // The summary: answers served, recorded calls used, and the mismatch with its closest request and diff.
  await page.getByTestId('session-menu').click();
  await page.getByTestId('serve-as-mock').click();
  const summary = served.getByTestId('mock-summary');
  await expect(summary).toHaveAttribute('data-mismatches', '1');
  expect(Number(await summary.getAttribute('data-answered'))).toBeGreaterThanOrEqual(6);
  expect(Number(await summary.getAttribute('data-used'))).toBeGreaterThanOrEqual(2);
  await expect(served.getByTestId('mock-mismatch-closest')).toContainText('tools/call setup_wizard');
  await expect(served.getByTestId('mock-mismatch-diff')).toContainText('/name: recorded "setup_wizard", sent "setup_wizrd"');

  // Stop serving: the target is gone for clients and from the Console's list.
  await served.getByTestId('mock-stop').click();
  await expect(served).toHaveCount(0);
  const gone = await fetch(relay.url('mock-wizard') + '/mcp', { method: 'POST', headers: mcpHeaders, body: toolsCall(78, 'setup_wizard') });
  expect(gone.status).toBe(404);
  expect(((await gone.json()) as { error: string }).error).toContain('Unknown target "mock-wizard"');
  await sheet.locator('[data-testid="served-mock"][data-name="wizard-err"]').getByTestId('mock-stop').click();
  await expect(page.getByTestId('mock-none')).toBeVisible();
});
