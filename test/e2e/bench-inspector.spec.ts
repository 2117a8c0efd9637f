// The browser benches' inspector (test/bench/inspector-serve.ts): what it starts must let the
// measured browser drain the relay backlog. Without the sign-in the page API refuses every
// call, so live-relay waited for a backlog that was never drained ("stalled at 1k").
// A browser-test file, not a unit test: it serves the built page (dist/web), which `npm test`
// builds after the unit tests and before these. No browser is opened.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, request, test } from '@playwright/test';
import { jsonlLine } from '../../worker/capture/jsonl.js';
import { signIn, startInspector, stopInspector, type ServedInspector } from '../bench/inspector-serve.js';
import { sampleRecords } from '../unit/capture/sample-records.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

test.describe('the benches’ inspector', () => {
  let dir: string;
  let served: ServedInspector | undefined;
  test.afterAll(async () => {
    if (served) await stopInspector(served.child);
    await rm(dir, { recursive: true, force: true });
  });

  test('drains the backlog for a signed-in browser, and for no other', async () => {
    test.setTimeout(60_000);
    dir = await mkdtemp(join(tmpdir(), 'mrtr-bench-serve-'));
    const jsonl = join(dir, 'relay.jsonl');
    const records = sampleRecords();
    const header = JSON.stringify({ kind: 'mrtr-inspector-capture', version: 1, createdAt: new Date(0).toISOString() });
    await writeFile(jsonl, [header, ...records.map((r) => jsonlLine(r))].join('\n') + '\n', { mode: 0o600 });
    served = await startInspector(ROOT, 0, jsonl);
    const { origin } = served;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const api = await request.newContext();
    try {
      const locked = await api.post(`${origin}/relay/api/backlog`, { headers: { origin } });
      expect(locked.status()).toBe(403);
      await signIn(api, origin);
      const drained = await api.post(`${origin}/relay/api/backlog`, { headers: { origin } });
      expect(drained.status()).toBe(200);
      const text = await drained.text();
      for (const r of records) expect(text).toContain(`"id":"${r.id}"`);
    } finally {
      await api.dispose();
    }
  });
});
