// Records laid into a lean session model before storage has them (relay records and imports
// shown first, written behind: capture/write-behind.ts, services/import-api.ts) stay whole
// until `stored` says they are written: the detail pane and export read their bodies from
// the model, not from a store that does not have them yet; once stored they go lean.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { isLean } from '../../../worker/decode/lean-record.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { exchangeViewOf, wholeRecord } from '../../../worker/view/body-reads.js';
import { SessionModel, type BodyStore } from '../../../worker/view/session-model.js';

function records(): StoredExchange[] {
  const got = importCapture(readFileSync(new URL('../../fixtures/sdk/sdk-v2-auto.har', import.meta.url), 'utf8'));
  if (!got.ok) throw new Error(got.error.message);
  return got.exchanges.map((r, seq) => ({ ...r, seq, session: 's1' }));
}

/** A store that has what `written` holds, and counts reads. */
function storeOf(written: Map<string, StoredExchange>): BodyStore & { reads: number } {
  return {
    reads: 0,
    async getExchanges(ids: readonly string[]) {
      this.reads += ids.length;
      return ids.map((id) => (written.has(id) ? structuredClone(written.get(id)) : undefined));
    },
  };
}

const keys = () => [];

describe('records laid in before they are stored', () => {
  it('stay whole through builds and are read from the model, then go lean once stored', async () => {
    const all = records();
    const written = new Map<string, StoredExchange>();
    const store = storeOf(written);
    const model = new SessionModel([], { final: true, bodies: store });
    model.put(all, { unstored: true });
    const built = await model.built(keys, 0);
    for (const r of all) expect(isLean(model.records.get(r.id)!)).toBe(false);
    // Bodies come from the model: the store is not asked (it would have nothing).
    const withBody = all.find((r) => (r.response?.body ?? '').length > 0)!;
    expect((await wholeRecord(model, withBody.id))!.response!.body).toBe(withBody.response!.body);
    const view = await exchangeViewOf(built, withBody.id);
    // As a model holding every record whole shows it.
    const whole = await new SessionModel(structuredClone(all), { final: true }).built(keys, 0);
    expect(view).toEqual(await exchangeViewOf(whole, withBody.id));
    expect(store.reads).toBe(0);

    // Written: the records go lean, and bodies come from storage.
    for (const r of all) written.set(r.id, r);
    model.stored(all);
    for (const r of all) expect(isLean(model.records.get(r.id)!)).toBe(true);
    expect((await wholeRecord(model, withBody.id))!.response!.body).toBe(withBody.response!.body);
    expect(store.reads).toBeGreaterThan(0);
  });

  it('a copy replaced before its write committed stays whole until its own write', async () => {
    const [first] = records();
    const model = new SessionModel([], { final: true, bodies: storeOf(new Map()) });
    model.put([first], { unstored: true });
    const newer = { ...first, response: first.response ? { ...first.response } : undefined };
    model.put([newer], { unstored: true });
    await model.built(keys, 0);
    model.stored([first]); // the older copy's write: not the one held
    expect(isLean(model.records.get(first.id)!)).toBe(false);
    model.stored([newer]);
    expect(isLean(model.records.get(first.id)!)).toBe(true);
  });

  it('a newer copy written before the next build keeps its own state, never the older one the engine decoded', async () => {
    // The relay pushes an exchange pending, then complete; a pushed copy is written at once,
    // so the complete copy's write can commit before any build has decoded it.
    const complete = records().find((r) => r.state === 'complete' && (r.response?.body ?? '').length > 0)!;
    const pending: StoredExchange = { ...complete, state: 'pending', response: undefined };
    const written = new Map<string, StoredExchange>();
    const model = new SessionModel([], { bodies: storeOf(written) });
    model.put([pending], { unstored: true });
    await model.built(keys, 0);
    written.set(pending.id, pending);
    model.stored([pending]);
    expect(isLean(model.records.get(pending.id)!)).toBe(true);

    model.put([complete], { unstored: true });
    written.set(complete.id, complete);
    model.stored([complete]); // the engine still holds the pending version
    expect(model.records.get(complete.id)!.state).toBe('complete');
    const built = await model.built(keys, 0);
    expect((await exchangeViewOf(built, complete.id))!.state).toBe('complete');
    // Decoded now: the next build swapped it for the engine's lean copy of this version.
    expect(model.records.get(complete.id)).toMatchObject({ state: 'complete' });
    expect(isLean(model.records.get(complete.id)!)).toBe(true);
  });
});
