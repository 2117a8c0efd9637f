// A session model given a body store keeps lean records (view/session-model.ts), and the
// reads that need bodies (view/body-reads.ts) give what they gave when the worker held
// every record whole: the detail pane, copy as cURL/fetch, export and free-text search.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportHar, exportJsonl, importCapture } from '../../../worker/capture/index.js';
import { toCurl, toFetch } from '../../../worker/export/index.js';
import { PROTOCOL_VERSION, type ExchangeRecord } from '../../../worker/protocol.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { exchangeViewOf, exportRecords, searchedList, wholeRecord } from '../../../worker/view/body-reads.js';
import { SessionModel, type BodyStore } from '../../../worker/view/session-model.js';
import { listOf, recordsOf } from '../../../worker/view/session-list.js';
import { exchangeView } from '../../../worker/view/exchange-view.js';

const FIXTURES = ['sdk/sdk-v2-auto.har', 'sdk/sdk-v2-manual.har', 'sdk/legacy-2025.har', 'tasks/ext-tasks.har', 'producers/chrome.har'];

function stored(name: string): StoredExchange[] {
  const got = importCapture(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));
  if (!got.ok) throw new Error(got.error.message);
  return got.exchanges.map((r, seq) => ({ ...r, seq, session: 's1' }));
}

/** A store holding `records`, counting the exchanges read from it. */
function storeOf(records: readonly StoredExchange[]): BodyStore & { reads: number } {
  const db = new Map(records.map((r) => [r.id, structuredClone(r)]));
  return {
    reads: 0,
    async getExchanges(ids: readonly string[]) {
      this.reads += ids.length;
      return ids.map((id) => structuredClone(db.get(id)));
    },
  };
}

function hasBody(r: ExchangeRecord): boolean {
  const q = r.response;
  return r.request.body !== undefined || q?.body !== undefined || q?.events !== undefined || q?.tail !== undefined;
}

const keys = () => [];

/** The same records in a model holding them whole and in a lean one over a store. */
async function pair(records: readonly StoredExchange[], final = true) {
  const whole = new SessionModel(structuredClone(records) as StoredExchange[], { final });
  const store = storeOf(records);
  const lean = new SessionModel(structuredClone(records) as StoredExchange[], { final, bodies: store });
  return { whole: await whole.built(keys, 0), lean: await lean.built(keys, 0), model: lean, store };
}

/** Words to search for: pieces of bodies, methods, and some that match nothing. */
function wordsOf(records: readonly ExchangeRecord[]): string[] {
  const words = new Set(['tools/call', 'inputrequests', 'nothing-here-at-all', '"', 'REQUESTSTATE', 'x']);
  for (const r of records.slice(0, 12)) {
    const text = r.request.body ?? r.response?.body ?? r.response?.events?.[0]?.data ?? '';
    if (text.length > 20) words.add(text.slice(text.length >> 1, (text.length >> 1) + 6));
  }
  return [...words];
}

describe('a lean session model', () => {
  it('holds no body text of a stored record once analysed, in its records or its analysis', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    expect(records.some(hasBody)).toBe(true);
    const { lean, model } = await pair(records);
    expect([...model.records.values()].filter(hasBody)).toEqual([]);
    expect(lean.analysis.records.filter(hasBody)).toEqual([]);
    expect(lean.analysis.records).toHaveLength(records.length);
  });

  it('keeps the bodies of held copies: they exist nowhere else', async () => {
    const records = stored('sdk/sdk-v2-manual.har');
    const [first, ...rest] = records;
    const model = new SessionModel(structuredClone(rest) as StoredExchange[], { bodies: storeOf(rest) });
    const { seq: _seq, v: _v, ...held } = structuredClone(first);
    model.hold([held]);
    await model.built(keys, 0);
    expect(model.held(first.id)?.request.body).toBe(first.request.body);
  });

  it.each(FIXTURES)('answers every detail pane and copy of %s as the whole model does', async (name) => {
    const records = stored(name);
    const { whole, lean, model } = await pair(records);
    for (const [i, r] of whole.analysis.records.entries()) {
      const d = whole.analysis.decoded[i];
      expect(await exchangeViewOf(lean, r.id)).toEqual(exchangeView(r, d));
      expect(await exchangeViewOf(lean, r.id, true)).toEqual(exchangeView(r, d, true));
      const w = await wholeRecord(model, r.id);
      expect(w && toCurl(w)).toBe(toCurl(r));
      expect(w && toFetch(w, { sanitize: false })).toBe(toFetch(r, { sanitize: false }));
    }
    expect(await exchangeViewOf(lean, 'no-such-id')).toBeNull();
  });

  it.each(FIXTURES)('lists and exports %s through free-text filters as the whole model does', async (name) => {
    const records = stored(name);
    const { whole, lean } = await pair(records);
    for (const w of [...wordsOf(records), '']) {
      for (const filter of [w, `-${w}`, `${w} method:tools/*`]) {
        if (filter.trim() === '' || filter === '-') continue;
        const text = /\s|"/.test(w) ? `"${w.replace(/["\\]/g, '\\$&')}"` : w;
        const f = filter.replace(w, text);
        expect(await searchedList(lean, f), f).toEqual(listOf(whole, f));
        const want = recordsOf(whole, f);
        const got = await exportRecords(lean, f);
        expect(exportJsonl(got.records, { createdAt: 'x' })).toBe(exportJsonl(want.records, { createdAt: 'x' }));
        expect(got.findings).toEqual(want.findings);
      }
    }
    const all = await exportRecords(lean, '');
    expect(exportHar(all.records)).toBe(exportHar(whole.analysis.records));
  });

  it('exports held copies with their bodies, beside stored records read back', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    const last = records[records.length - 1];
    const kept = records.slice(0, -1);
    const model = new SessionModel(structuredClone(kept) as StoredExchange[], { bodies: storeOf(kept) });
    const { seq: _seq, v: _v, ...held } = structuredClone(last);
    model.hold([held]);
    const b = await model.built(keys, 0);
    const out = await exportRecords(b, '');
    expect(out.records).toHaveLength(records.length);
    const back = out.records.find((r) => r.id === last.id)!;
    expect(back.request.body).toBe(last.request.body);
    expect(back.response?.body ?? back.response?.events).toEqual(last.response?.body ?? last.response?.events);
    expect(out.records.filter((r) => r.id !== last.id).every((r) => hasBody(r) === hasBody(records.find((x) => x.id === r.id)!))).toBe(true);
  });

  it('reads only the hits of a word when the word typed next extends it', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    const { lean, store } = await pair(records);
    await searchedList(lean, 'tools/c');
    expect(store.reads).toBe(records.length);
    const hits = (await searchedList(lean, 'tools/c')).stats.exchanges;
    expect(store.reads).toBe(records.length); // the same word again: nothing read
    await searchedList(lean, 'tools/call');
    expect(store.reads - records.length).toBeLessThanOrEqual(hits);
    expect(store.reads - records.length).toBeGreaterThan(0);
  });

  it('reads the bodies of only the conversations the filter\'s other terms let through', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    const { whole, lean, store } = await pair(records);
    const shown = listOf(whole, 'method:prompts/get');
    expect(shown.stats.exchanges).toBeGreaterThan(0);
    expect(shown.stats.exchanges).toBeLessThan(records.length);
    expect(await searchedList(lean, 'method:prompts/get jsonrpc')).toEqual(listOf(whole, 'method:prompts/get jsonrpc'));
    expect(store.reads).toBe(shown.stats.exchanges);
  });

  it('searches a record again once a newer version of it arrives', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    const store = storeOf(records);
    const model = new SessionModel(structuredClone(records) as StoredExchange[], { bodies: store });
    expect((await searchedList(await model.built(keys, 0), 'fresh-marker-word')).items).toEqual([]);
    const changed = structuredClone(records.find((r) => r.request.body?.includes('"tools/call"'))!);
    changed.request.body = changed.request.body!.replace(/^\{/, '{"note":"fresh-marker-word",');
    changed.endedAt = (changed.endedAt ?? 0) + 1;
    (store as unknown as { getExchanges: BodyStore['getExchanges'] }).getExchanges = async (ids) => ids.map((id) => structuredClone(id === changed.id ? changed : records.find((r) => r.id === id)));
    model.put([structuredClone(changed)]);
    const b = await model.built(keys, 0);
    expect([...model.records.values()].filter(hasBody)).toEqual([]);
    expect((await searchedList(b, 'fresh-marker-word')).stats.exchanges).toBeGreaterThan(0);
  });

  it('re-decodes a streaming record from each new version, never from its lean copy', async () => {
    const records = stored('sdk/sdk-v2-auto.har');
    const sse = records.find((r) => (r.response?.events?.length ?? 0) > 1);
    expect(sse).toBeDefined();
    const s = sse!;
    const partial: StoredExchange = { ...structuredClone(s), state: 'streaming', endedAt: undefined, response: { ...structuredClone(s.response!), events: s.response!.events!.slice(0, 1) } };
    const whole = new SessionModel(structuredClone(records) as StoredExchange[]);
    const model = new SessionModel(records.map((r) => (r.id === s.id ? structuredClone(partial) : structuredClone(r))), { bodies: storeOf(records) });
    await model.built(keys, 0);
    model.put([structuredClone(s)]);
    const lean = await model.built(keys, 0);
    // The same lean copies put again (as a held overlay does) are not new versions.
    model.hold([]);
    const again = await model.built(keys, 0);
    const full = await whole.built(keys, 0);
    expect(lean.analysis.conversations).toEqual(full.analysis.conversations);
    expect(lean.analysis.findings).toEqual(full.analysis.findings);
    expect(again.analysis.decoded).toEqual(full.analysis.decoded);
    expect(model.records.get(s.id)).toMatchObject({ v: PROTOCOL_VERSION, bodySizes: { events: s.response!.events!.length } });
  });
});
