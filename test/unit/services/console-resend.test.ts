// Edit & re-send as the page drives it (worker/services/console-runs.ts): every send of one
// panel is a new request with a fresh JSON-RPC id (the answer hands the draft with the next
// one), the captured id goes only when asked for, and a draft sent to another URL is an edit.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { resend, resendDraft } from '../../../worker/services/console-runs.js';
import { serveDemo, type Running } from '../console/servers.js';

let demo: Running;
beforeAll(async () => { demo = await serveDemo(); });
afterAll(async () => { await demo.close(); });

function capturedCall(): ExchangeRecord {
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  return imported.exchanges[2]; // tools/call confirm_action, first round
}

const idOf = (r: ExchangeRecord) => (JSON.parse(r.request.body ?? '{}') as { id?: unknown }).id;

describe('Edit & re-send, send after send', () => {
  it('sends each time with a new id, never the captured one unless kept', async () => {
    const sent: ExchangeRecord[] = [];
    const persist = async (records: ExchangeRecord[]) => { sent.push(...records); return 's1'; };
    const d = resendDraft(capturedCall());
    if ('error' in d) throw new Error(d.error);
    let text = d.text;
    let fresh = d.ids.fresh;
    for (let i = 0; i < 3; i++) {
      const r = await resend({ ...d, url: demo.url, fresh }, text, fetchTransport(), persist);
      if ('error' in r) throw new Error(r.error.message);
      expect(r.next, `send ${i + 1}`).toBeDefined();
      text = r.next!.text;
      fresh = r.next!.id;
    }
    const ids = sent.map(idOf);
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(d.ids.captured);
    expect(sent.map((r) => r.origin?.kind)).toEqual(['resend', 'resend', 'resend']);

    // Kept on purpose: the captured id goes, and no next id is offered.
    const kept = d.original;
    const r = await resend({ ...d, url: demo.url }, kept, fetchTransport(), persist);
    if ('error' in r) throw new Error(r.error.message);
    expect(r.next).toBeUndefined();
    expect(idOf(sent.at(-1)!)).toEqual(d.ids.captured);
  });

  it('calls a draft sent to another URL than the captured one an edit', async () => {
    const sent: ExchangeRecord[] = [];
    const d = resendDraft(capturedCall());
    if ('error' in d) throw new Error(d.error);
    const r = await resend({ ...d, url: demo.url, moved: true }, d.text, fetchTransport(), async (x) => { sent.push(...x); return 's1'; });
    if ('error' in r) throw new Error(r.error.message);
    expect(sent[0].origin?.kind).toBe('edit');
  });
});
