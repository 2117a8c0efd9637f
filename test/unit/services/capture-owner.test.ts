// The analysis worker as the owner of capture sessions (worker/services/capture-owner.ts): it
// hears the capture channel itself, lays what storage holds into the sessions it has loaded,
// and only then tells the page which sessions changed.
import { describe, expect, it } from 'vitest';
import type { CaptureNotice, NoticeChannel } from '../../../worker/capture/notices.js';
import type { CaptureStore, StoredExchange } from '../../../worker/storage/index.js';
import { CaptureOwner } from '../../../worker/services/capture-owner.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { sampleRecords } from '../capture/sample-records.js';

function stored(): StoredExchange[] {
  return sampleRecords().map((r) => ({ ...r, session: 's1' }));
}

function setup(loaded: boolean) {
  const db = new Map<string, StoredExchange>();
  let reads = 0;
  const store = { async getExchanges(ids: string[]) { reads += ids.length; return ids.map((id) => db.get(id)); } } as unknown as CaptureStore;
  const model = new SessionModel();
  const sessions = new Map<string, Promise<SessionModel>>(loaded ? [['s1', Promise.resolve(model)]] : []);
  const analysed: string[] = [];
  const owner = new CaptureOwner({ store, sessions, analyseSoon: (s) => analysed.push(s) });
  const told: string[][] = [];
  owner.listen((s) => void told.push(s));
  const channel: NoticeChannel & { posted: CaptureNotice[] } = {
    posted: [], onmessage: null, close() {},
    postMessage(n) { this.posted.push(n); },
  };
  owner.hear(channel);
  const hear = (n: CaptureNotice) => channel.onmessage!({ data: n } as MessageEvent<CaptureNotice>);
  return { db, model, owner, told, analysed, hear, channel, reads: () => reads };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('the capture owner', () => {
  it("lays an exchange the channel announced into its loaded session, then tells the page which session changed", async () => {
    const s = setup(true);
    const [a] = stored();
    s.db.set(a.id, a);
    s.hear({ type: 'exchange-end', id: a.id, seq: 0 });
    await s.owner.settled();
    await flush();
    expect(s.model.records.get(a.id)).toEqual(a);
    expect(s.analysed).toEqual(['s1']);
    expect(s.told).toEqual([['s1']]);
  });

  it('reads a burst of notices for one exchange in one or two passes, not once per notice', async () => {
    const s = setup(true);
    const [a] = stored();
    s.db.set(a.id, a);
    for (const type of ['exchange-start', 'exchange-head', 'exchange-events', 'exchange-events', 'exchange-end'] as const) s.hear({ type, id: a.id });
    await s.owner.settled();
    expect(s.reads()).toBeLessThanOrEqual(2);
    expect(s.model.records.get(a.id)?.state).toBe('complete');
  });

  it('lays in every exchange of a batched notice (one per committed transaction), read in one go', async () => {
    const s = setup(true);
    const all = stored();
    for (const r of all) s.db.set(r.id, r);
    s.hear({ type: 'exchanges-stored', ids: all.map((r) => r.id) });
    await s.owner.settled();
    await flush();
    for (const r of all) expect(s.model.records.get(r.id)).toEqual(r);
    expect(s.reads()).toBe(all.length);
    expect(s.told).toEqual([['s1']]);
  });

  it('only reports a session it has not loaded: its first read loads it from storage', async () => {
    const s = setup(false);
    const [a] = stored();
    s.db.set(a.id, a);
    s.hear({ type: 'exchange-start', id: a.id });
    await s.owner.settled();
    await flush();
    expect(s.analysed).toEqual([]);
    expect(s.told).toEqual([['s1']]);
  });

  it("keeps a Console send's finished copy over a stored copy that is behind it (the tap still writing)", async () => {
    const s = setup(true);
    const done = { ...stored()[0], source: 'console' as const };
    await s.owner.apply([done]);
    s.db.set(done.id, { ...done, state: 'streaming', response: { ...done.response!, body: undefined } });
    s.hear({ type: 'exchange-head', id: done.id });
    await s.owner.settled();
    expect(s.model.records.get(done.id)?.state).toBe('complete');
    // The tap's final copy, once written, is the one held.
    s.db.set(done.id, { ...done, client: 'page-2' });
    s.hear({ type: 'exchange-end', id: done.id });
    await s.owner.settled();
    expect(s.model.records.get(done.id)?.client).toBe('page-2');
  });

  it("leaves what the page keeps itself (held exchanges, storage errors) to the page, and posts its own notices to the others", async () => {
    const s = setup(true);
    const [a] = stored();
    s.hear({ type: 'exchange-unsaved', id: a.id, record: a, error: { kind: 'quota', message: 'full' } });
    s.hear({ type: 'storage-error', error: { kind: 'quota', message: 'full' } });
    await s.owner.settled();
    expect(s.reads()).toBe(0);
    expect(s.model.records.size).toBe(0);
    s.owner.announce({ type: 'exchange-end', id: a.id });
    expect(s.channel.posted).toEqual([{ type: 'exchange-end', id: a.id }]);
  });
  it('stamps when the page was told records changed, not when it was told checks went on; and reads nothing for a capture-session notice', async () => {
    const s = setup(true);
    expect(s.owner.lastChanged).toBe(0);
    s.owner.checked('s1');
    expect(s.owner.lastTold).toBeGreaterThan(0);
    expect(s.owner.lastChanged).toBe(0);
    s.hear({ type: 'capture-session' });
    await s.owner.settled();
    expect(s.reads()).toBe(0);
    await s.owner.apply(stored().slice(0, 1));
    expect(s.owner.lastChanged).toBe(s.owner.lastTold);
    expect(s.owner.lastChanged).toBeGreaterThan(0);
  });

  it("lists another tab's backlog copies not yet written at once, with no read of storage, below a copy it holds; the stored copies replace them as their notice comes", async () => {
    const s = setup(true);
    const [a, b] = stored();
    const mine = { ...b, state: 'complete' as const };
    s.model.put([mine]);
    s.hear({ type: 'backlog-laid', records: [a, { ...b, seq: 99 }] });
    await flush();
    expect(s.reads()).toBe(0);
    expect(s.model.unstored(a.id)).toBe(a);
    expect(s.model.records.get(b.id)).toBe(mine);
    expect(s.told).toEqual([['s1']]);
    const written = { ...a };
    s.db.set(a.id, written);
    s.hear({ type: 'exchanges-stored', ids: [a.id] });
    await s.owner.settled();
    expect(s.model.records.get(a.id)).toBe(written);
    expect(s.model.unstored(a.id)).toBeUndefined();
  });
});
