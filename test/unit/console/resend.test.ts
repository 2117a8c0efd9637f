// Edit and re-send a captured request: the draft, the diff, and the new linked exchange.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { diffDraft } from '../../../worker/console/draft.js';
import { resend, resendDraft } from '../../../worker/console/resend.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { serveDemo, type Running } from './servers.js';

let demo: Running;
beforeAll(async () => {
  demo = await serveDemo();
});
afterAll(async () => {
  await demo.close();
});

describe('edit and re-send', () => {
  it('re-sends an edited captured request to the server and records it linked to the original', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const first = imported.exchanges[2]; // tools/call confirm_action, first round
    const draft = resendDraft(first);
    if ('error' in draft) throw new Error(draft.error);
    expect(draft.original).toContain('mcp-name: confirm_action');
    const edited = draft.original.replace('"deploy to staging"', '"deploy to production"');
    expect(diffDraft(draft.original, edited).filter((c) => c.kind !== 'same')).toHaveLength(2);
    const r = await resend({ ...draft, url: demo.url }, edited, fetchTransport(), { seq: 0, session: 's1' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.record).toMatchObject({ source: 'console', derivedFrom: first.id, session: 's1' });
    expect(r.reading.kind).toBe('input_required');
    expect(JSON.stringify(r.reading)).toContain('deploy to production');
  });

  it('refuses a draft that does not parse, saying where', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const draft = resendDraft(imported.exchanges[2]);
    if ('error' in draft) throw new Error(draft.error);
    const r = await resend(draft, draft.original.replace('"method"', 'method'), fetchTransport(), { seq: 0 });
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringContaining('not JSON') } });
  });
});
