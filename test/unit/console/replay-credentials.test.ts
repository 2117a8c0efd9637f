// Replay and the capture's credentials: Authorization and API-key headers go only to the
// recording's own origin unless the caller opts in, and a report says what was held back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { planReplay, replayHeaders, runReplay } from '../../../worker/console/replay.js';
import { replayJson, replayJunit, replayText } from '../../../worker/console/replay-report.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { replaySession } from '../../../worker/services/console-runs.js';
import { API_KEY, AUTH, credentialedHar, serveRecordingDemo, type RecordingServer } from './servers.js';

const AUTO = 'test/fixtures/sdk/sdk-v2-auto.har';
const send = fetchTransport({ timeoutMs: 10_000 });

async function recordedAt(url: string) {
  const imported = importCapture(credentialedHar(url));
  if (!imported.ok) throw new Error(imported.error.message);
  return analyze(imported.exchanges);
}

let server: RecordingServer;
beforeAll(async () => {
  server = await serveRecordingDemo();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.headers.length = 0;
});

const NOTICE = `Captured credentials (authorization, x-api-key) were not sent to `;

describe('replay and captured credentials', () => {
  it('does not send captured credentials to a target of another origin than the recording, in any round, and says so', async () => {
    const run = await runReplay(planReplay(await recordedAt('http://recorded.example:8080/mcp')), { target: server.url, send });
    expect(run.outcomes.map((o) => o.status)).toEqual(Array(11).fill('same'));
    // Every round was sent (retries included), and none carried a credential.
    expect(server.headers.length).toBe(run.records.length);
    expect(server.headers.length).toBeGreaterThan(11);
    expect(server.headers.filter((h) => 'authorization' in h || 'x-api-key' in h)).toEqual([]);
    expect(server.headers.every((h) => h['mcp-method'] !== undefined)).toBe(true);
    expect(run.credentialsWithheld).toEqual(['authorization', 'x-api-key']);
    expect(run.outcomes.every((o) => o.credentialsWithheld?.join() === 'authorization,x-api-key')).toBe(true);
    const notice = `${NOTICE}${server.url} (a different origin from the recording); pass --send-credentials to send them.`;
    expect(replayText(run, [], { path: AUTO })).toContain(notice);
    expect(JSON.parse(replayJson(run, [], { path: AUTO, version: '0' }))).toMatchObject({ credentialsWithheld: ['authorization', 'x-api-key'], credentialsNotice: notice });
    expect(replayJunit(run, [], { path: AUTO })).toContain(`<system-out>${notice}</system-out>`);
    expect(JSON.stringify(run.records.map((r) => r.request.headers))).not.toContain(API_KEY);
  });

  it('sends them to another origin when opted in, with no notice', async () => {
    const run = await runReplay(planReplay(await recordedAt('http://recorded.example:8080/mcp')), { target: server.url, send, sendCredentials: true });
    expect(server.headers.length).toBe(run.records.length);
    expect(server.headers.every((h) => h.authorization === AUTH && h['x-api-key'] === API_KEY)).toBe(true);
    expect(run.credentialsWithheld).toEqual([]);
    expect(replayText(run, [], { path: AUTO })).not.toContain('Captured credentials');
  });

  it('sends them to the recording\'s own origin without being asked', async () => {
    const run = await runReplay(planReplay(await recordedAt(server.url)), { target: server.url, send });
    expect(server.headers.length).toBe(run.records.length);
    expect(server.headers.every((h) => h.authorization === AUTH && h['x-api-key'] === API_KEY)).toBe(true);
    expect(run.credentialsWithheld).toEqual([]);
  });

  it('counts an unreadable origin, on either side, as another origin', () => {
    const first = { body: { jsonrpc: '2.0' as const, id: 1, method: 'tools/list', params: {} }, headers: [{ name: 'Authorization', value: AUTH }, { name: 'Mcp-Method', value: 'tools/list' }] };
    expect(replayHeaders({ first, origin: null }, 'http://a.example/mcp')).toEqual({ headers: [{ name: 'Mcp-Method', value: 'tools/list' }], withheld: ['authorization'] });
    expect(replayHeaders({ first, origin: 'http://a.example' }, '/mcp').withheld).toEqual(['authorization']);
    expect(replayHeaders({ first, origin: 'http://a.example' }, 'http://a.example/other').withheld).toEqual([]);
  });

  it('passes the page\'s opt-in through, and words the page\'s notice for its checkbox', async () => {
    const analysis = await recordedAt('http://recorded.example:8080/mcp');
    const persist = async () => ({ id: 's', name: 'Replay' });
    const held = await replaySession(analysis, { target: server.url, ignore: [], send }, persist);
    expect(held.credentialsWithheld).toEqual(['authorization', 'x-api-key']);
    expect(held.credentialsNotice).toBe(`${NOTICE}${server.url} (a different origin from the recording); tick "Send captured credentials" to send them.`);
    expect(server.headers.some((h) => 'authorization' in h)).toBe(false);
    server.headers.length = 0;
    const sent = await replaySession(analysis, { target: server.url, ignore: [], send, sendCredentials: true }, persist);
    expect(sent.credentialsWithheld).toEqual([]);
    expect(sent.credentialsNotice).toBeUndefined();
    expect(server.headers.every((h) => h.authorization === AUTH)).toBe(true);
  });
});
