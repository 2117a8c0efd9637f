// Every Console-made exchange says which action sent it (ExchangeRecord.origin), on the
// record and on the link the tap files it by; one action's sends share a run id.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { importCapture } from '../../../worker/capture/index.js';
import { elicitResult } from '../../../worker/console/form.js';
import { formatLink, parseLink } from '../../../worker/console/link.js';
import { planReplay, runReplay } from '../../../worker/console/replay.js';
import { resend, resendDraft } from '../../../worker/console/resend.js';
import { createStepper } from '../../../worker/console/stepper.js';
import { runAllTamperTests } from '../../../worker/console/tamper-report.js';
import { tamperSubjectFromStep } from '../../../worker/console/tamper-subject.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import type { SendLink, Transport } from '../../../worker/console/types.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import type { CaptureStore, StoredExchange } from '../../../worker/storage/index.js';
import { createConsoleLink } from '../../../worker/services/console-link.js';
import { createConsoleService } from '../../../worker/services/console.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import { serveDemo, toolCall, type Running } from './servers.js';

const accept = (content: Record<string, unknown>) => elicitResult('accept', content);
const node = fetchTransport({ timeoutMs: 10_000 });

/** Node's fetch, noting the link each send carried (what the tap would file it by). */
function recording(): { send: Transport; links: SendLink[] } {
  const links: SendLink[] = [];
  return { links, send: (req) => { if (req.link) links.push(req.link); return node(req); } };
}

const origins = (records: readonly ExchangeRecord[]) => records.map((r) => r.origin?.kind);

let demo: Running;
beforeAll(async () => {
  demo = await serveDemo();
});
afterAll(async () => {
  await demo.close();
});

describe('Console origins', () => {
  it('carries origin and run in the link header, and skips an origin it does not know', () => {
    const link: SendLink = { id: 'c-1', derivedFrom: 'x 7', origin: 'tamper', run: 'r-ab' };
    expect(formatLink(link)).toBe('id=c-1; derived-from=x%207; origin=tamper; run=r-ab');
    expect(parseLink(formatLink(link))).toEqual(link);
    expect(parseLink('id=c-1; origin=teleport')).toEqual({ id: 'c-1' });
  });

  it('stamps a step-through: call, step, edit, fork, on the records and on their links', async () => {
    const { send, links } = recording();
    const stepper = createStepper({ send });
    let s = await stepper.start({ url: demo.url, request: toolCall('setup_wizard') });
    stepper.answer('name', accept({ name: 'Acme' }));
    s = await stepper.send();
    stepper.answer('plan', accept({ plan: 'team' }));
    stepper.editPreview(s.preview!.text.replace('"team"', '"pro"'));
    s = await stepper.send();
    s = await stepper.fork(1, { name: accept({ name: 'Other' }) });
    expect(origins(stepper.records())).toEqual(['call', 'step', 'edit', 'fork']);
    expect(links.map((l) => l.origin)).toEqual(['call', 'step', 'edit', 'fork']);
    expect(links.map((l) => l.id)).toEqual(stepper.records().map((r) => r.id));
    expect(links[3].derivedFrom).toBe(stepper.records()[1].id);
  });

  it('stamps a re-send resend when only the fresh id changed, edit when the text was changed by hand', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const draft = resendDraft(imported.exchanges[2]);
    if ('error' in draft) throw new Error(draft.error);
    const at = { ...draft, url: demo.url };
    const same = await resend(at, draft.original.replace(/"id": \d+/, '"id": 9001'), node, { seq: 0 });
    const edited = await resend(at, draft.original.replace('"deploy to staging"', '"deploy to production"'), node, { seq: 0 });
    if (!same.ok || !edited.ok) throw new Error('the re-sends did not parse');
    expect([same.record.origin, edited.record.origin]).toEqual([{ kind: 'resend' }, { kind: 'edit' }]);
  });

  it('stamps every request of "Run all tamper tests" tamper, under one run id', async () => {
    const stepper = createStepper({ send: node });
    await stepper.start({ url: demo.url, request: toolCall('setup_wizard') });
    stepper.answer('name', accept({ name: 'Acme Labs' }));
    await stepper.send();
    const subject = tamperSubjectFromStep(stepper.state, 1, demo.url);
    if ('error' in subject) throw new Error(subject.error);
    const { send, links } = recording();
    const { records } = await runAllTamperTests(subject, send);
    expect(records.length).toBeGreaterThan(3);
    expect(new Set(origins(records))).toEqual(new Set(['tamper']));
    expect(new Set(records.map((r) => r.origin?.run)).size).toBe(1);
    expect(links.every((l) => l.origin === 'tamper' && l.run === records[0].origin?.run)).toBe(true);
  });

  it('stamps a session replay replay, under one run id, linked to the rounds it re-enacts', async () => {
    const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const { send, links } = recording();
    const run = await runReplay(planReplay(await analyze(imported.exchanges), { conversations: ['c10'] }), { target: demo.url, send });
    expect(run.records.length).toBeGreaterThan(1);
    expect(new Set(origins(run.records))).toEqual(new Set(['replay']));
    expect(new Set(run.records.map((r) => r.origin?.run)).size).toBe(1);
    expect(links.map((l) => [l.id, l.derivedFrom])).toEqual(run.records.map((r) => [r.id, r.derivedFrom]));
  });

  it('stamps the catalog calls of a connect discovery, one run, on the stored records and their links', async () => {
    const stored = new Map<string, StoredExchange>();
    const store = {
      async currentSession() { return { id: 's1', name: 'Session 1', createdAt: 0, nextSeq: 0 }; },
      async mergeExchanges(session: string, recs: readonly ExchangeRecord[]) {
        return recs.map((r) => {
          const s = { ...r, session, seq: stored.get(r.id)?.seq ?? stored.size } as StoredExchange;
          stored.set(r.id, s);
          return s;
        });
      },
      async getExchange(id: string) { return stored.get(id); },
    } as unknown as CaptureStore;
    const link = createConsoleLink({ store, apply: async () => {} });
    const api = createConsoleService({ store, link, step: new ConsoleStep(link.keep) });
    const { send, links } = recording();
    api.transport(send);
    await api.catalog(demo.url, { toggles: { elicitationForm: true }, clientInfo: { name: 'origin-test', version: '1' } });
    const records = [...stored.values()];
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(new Set(origins(records))).toEqual(new Set(['discovery']));
    expect(new Set(records.map((r) => r.origin?.run)).size).toBe(1);
    expect(links.every((l) => l.origin === 'discovery')).toBe(true);
  });
});
