// The tamper panel names the captured round it tests the way the thread does: by its number
// in the call and the call's tool, never by the store's exchange number.
import { describe, expect, it } from 'vitest';
import { createConsoleLink } from '../../../worker/services/console-link.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import { createTamperService } from '../../../worker/services/tamper.js';
import type { CaptureStore, StoredExchange } from '../../../worker/storage/index.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

/** The tamper service over a store holding `records`, whose session's analysis holds `analysed`. */
function tamperOn(records: StoredExchange[], analysed = records) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const store = { async getExchange(id: string) { return byId.get(id); }, async putExchanges() {} } as unknown as CaptureStore;
  const model = new SessionModel([], { final: true });
  model.put(analysed);
  const link = createConsoleLink({ store, apply: async () => undefined });
  return createTamperService({ store, link, step: new ConsoleStep(link.keep), builtOf: () => model.built(() => [], 0) });
}

describe('the name of a captured round under tamper tests', () => {
  it('is its number in the call and the call\'s tool, whatever exchange number the store gave it', async () => {
    const cap = capture();
    cap.call('tools/list').complete({ tools: [] });
    cap.call('tools/call', { name: 'other', arguments: {} }).complete();
    const first = cap.call('tools/call', { name: 'setup_wizard', arguments: {} }).inputRequired({ a: ask.form('Name?', { n: { type: 'string' } }) }, 'T1');
    const second = cap.retry(first, { a: reply.accept({ n: 'x' }) }).inputRequired({ b: ask.form('Sure?', { ok: { type: 'boolean' } }) }, 'T2');
    cap.retry(second, { b: reply.accept({ ok: true }) }).complete();
    const records = cap.build().map((r, i) => ({ ...r, id: `x${i}`, session: 's1' }));
    const got = await tamperOn(records).fromCapture('x3', 'x4');
    expect(got.ok && got.value.subject).toBe('round #2 of the setup_wizard call');
  });

  it('says only that it is a captured round when no call of its session holds it', async () => {
    const cap = capture();
    cap.call('tools/call', { name: 'setup_wizard', arguments: {} }).inputRequired({ a: ask.form('Name?', { n: { type: 'string' } }) }, 'T1');
    const [round] = cap.build().map((r) => ({ ...r, id: 'x0', session: 's1' }));
    const got = await tamperOn([round], []).fromCapture('x0', null);
    expect(got.ok && got.value.subject).toBe('a captured round');
  });
});
