// Every Console send is stored exactly once (worker/services/console-link.ts), with no waiting.
// The page and its service worker are stood in for: a transport that sends to the embedded
// demo over Node's fetch and, when "tapping", fills in the send's pending record as the tap
// would (storage fillExchange). Tapped: the worker saves the pending record, the tap fills
// it in; not tapped: the worker writes its own copy over its pending one; tapped late (the
// tap's writes land only after the Console moved on): nobody waited for them, the session
// showed the answer at once, and the tap's copy still ends up the one record; taken but
// unmarked: the worker's copy is final first and the tap's later fill leaves it standing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import { consoleRecord, DEFAULT_IGNORE, elicitResult, fetchTransport, type Transport } from '../../../worker/console/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { isFinal, supersedes, type CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';
import { CaptureOwner } from '../../../worker/services/capture-owner.js';
import { createConsoleLink } from '../../../worker/services/console-link.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import { createConsoleService } from '../../../worker/services/console.js';
import { createReplayService } from '../../../worker/services/replay.js';
import { createTamperService } from '../../../worker/services/tamper.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { serveDemo, type Running } from './servers.js';

type Mode = 'tapped' | 'untapped' | 'late' | 'unmarked';
const accept = (content: Record<string, unknown>) => elicitResult('accept', content);
const setup = { toggles: { elicitationForm: true }, clientInfo: { name: 'single-copy-test', version: '1' } };

/** The capture database, in memory, with what wrote each record. */
function memoryStore() {
  const records = new Map<string, StoredExchange>();
  const sessions = new Map([['capture', { id: 'capture', name: 'Session 1', createdAt: 0, nextSeq: 0 }]]);
  const writers = new Map<string, string[]>();
  /** Every id the worker asked to write, written or not. */
  const offered: string[] = [];
  const wrote = (id: string, who: string) => writers.set(id, [...(writers.get(id) ?? []), who]);
  const add = (rec: ExchangeRecord, session: string) => {
    const s = sessions.get(session)!;
    records.set(rec.id, { ...rec, session, seq: s.nextSeq++ });
  };
  const store = {
    async currentSession() { return sessions.get('capture')!; },
    async createSession(name: string) {
      const s = { id: `s-${sessions.size}`, name, createdAt: Date.now(), nextSeq: 0 };
      sessions.set(s.id, s);
      return s;
    },
    async mergeExchanges(session: string, recs: readonly ExchangeRecord[]) {
      const written: StoredExchange[] = [];
      for (const r of recs) {
        if (r.state !== 'pending') offered.push(r.id);
        const old = records.get(r.id);
        if (old && !supersedes(r, old)) continue;
        wrote(r.id, r.state === 'pending' ? 'pending' : 'worker');
        if (old) records.set(r.id, { ...r, seq: old.seq, session: old.session });
        else add(r, session);
        written.push(records.get(r.id)!);
      }
      return written;
    },
    async getExchange(id: string) { return records.get(id); },
  };
  /** What the tap does with a linked send: fills in its pending record, never a final one. */
  const tapWrite = (rec: ExchangeRecord, session: string) => {
    const old = records.get(rec.id);
    if (old && isFinal(old)) return;
    wrote(rec.id, 'tap');
    if (old) records.set(rec.id, { ...rec, client: 'tap', seq: old.seq, session: old.session });
    else add({ ...rec, client: 'tap' }, session);
  };
  return { records, sessions, writers, offered, tapWrite, store: store as unknown as CaptureStore };
}

let demo: Running;
beforeAll(async () => {
  demo = await serveDemo();
});
afterAll(async () => {
  await demo.close();
});

function harness(mode: Mode) {
  const db = memoryStore();
  const node = fetchTransport({ timeoutMs: 10_000 });
  let sends = 0;
  /** The tap's writes not yet landed (mode `late` and `unmarked`): run by `landTap`. */
  const slow: (() => void)[] = [];
  const page: Transport = async ({ link, ...req }) => {
    sends++;
    const res = await node(req);
    if (!link || mode === 'untapped') return res;
    // Every record the tap fills in was saved as pending before the send left.
    expect(db.records.get(link.id)?.state).toBe('pending');
    const rec = consoleRecord(req, res, { id: link.id, seq: 0, ...(link.derivedFrom !== undefined ? { derivedFrom: link.derivedFrom } : {}) });
    const write = () => db.tapWrite(rec, link.session ?? 'capture');
    if (mode === 'tapped') write();
    else slow.push(write);
    return mode === 'unmarked' ? res : { ...res, tapped: { id: link.id } };
  };
  const imported = importCapture(readFileSync('test/fixtures/sdk/sdk-v2-auto.har', 'utf8'));
  if (!imported.ok) throw new Error(imported.error.message);
  const recorded = new SessionModel(imported.exchanges.map((r) => ({ ...r, session: 'imported' })));
  const models = new Map<string, Promise<SessionModel>>([['capture', Promise.resolve(new SessionModel())], ['imported', Promise.resolve(recorded)]]);
  const owner = new CaptureOwner({ store: db.store, sessions: models, analyseSoon: () => undefined });
  const link = createConsoleLink({ store: db.store, apply: (records) => owner.apply(records) });
  const ctx = {
    store: db.store, link, step: new ConsoleStep(link.keep),
    builtOf: async (s: string) => (await models.get(s)!).built(() => [], 0),
    checkedOf: async (s: string) => (await models.get(s)!).built(() => [], 0),
    guard: async <T>(fn: () => Promise<T>) => ({ ok: true as const, value: await fn() }),
  };
  const api = { console: createConsoleService(ctx), tamper: createTamperService(ctx), replay: createReplayService(ctx) };
  api.console.transport(page);
  const landTap = () => {
    for (const w of slow.splice(0)) w();
  };
  return { api, db, models, landTap, sends: () => sends, recordedIds: new Set(imported.exchanges.map((r) => r.id)) };
}

/** Connects, steps through the wizard, forks the plan round, re-sends a round and runs every tamper test. */
async function everySend(h: ReturnType<typeof harness>) {
  const { api } = h;
  await api.console.catalog(demo.url, setup);
  let v = await api.console.start({ url: demo.url, method: 'tools/call', params: { name: 'setup_wizard', arguments: {} }, setup });
  const script: Record<string, Record<string, unknown>> = { name: accept({ name: 'Acme' }), plan: accept({ plan: 'pro' }), confirm: accept({ confirm: true }) };
  const finish = async () => {
    while (v.status === 'paused') {
      await api.console.answer(v.pending[0], script[v.pending[0]]);
      v = await api.console.send();
    }
  };
  await finish();
  expect(v.status).toBe('complete');
  v = await api.console.fork(2, { plan: accept({ plan: 'team' }) });
  await finish();
  expect(v.rounds).toHaveLength(6);
  const drafted = await api.console.resendDraft(v.rounds[0].recordId);
  if (!drafted.ok) throw new Error(drafted.error.message);
  const draft = drafted.value;
  const sent = await api.console.resend({ url: draft.url, from: draft.from, original: draft.text }, draft.text);
  if (!sent.ok) throw new Error(sent.error.message);
  const resent = sent.value;
  const tamper = await api.tamper.fromStep(1);
  if (!tamper.ok) throw new Error(tamper.error.message);
  const t = await api.tamper.runAll();
  expect(t.report?.summary.rejected).toBeGreaterThan(0);
  return { v, resent };
}

describe('every Console send is stored exactly once', () => {
  for (const mode of ['tapped', 'untapped', 'late', 'unmarked'] as const) {
    it(`${mode}: one record per send, under the id the views name, linked, in the capture session`, async () => {
      const h = harness(mode);
      const { v, resent } = await everySend(h);
      // Shown as soon as each answer was in: the session here holds every send, finished,
      // whether or not the tap's writes have landed.
      const held = (await h.models.get('capture')!).records;
      expect(held.size).toBe(h.sends());
      expect([...held.values()].every((r) => r.state !== 'pending')).toBe(true);
      h.landTap();
      const { records, writers } = h.db;
      expect(records.size).toBe(h.sends());
      const by = [...writers.values()].map((w) => w.join('+'));
      const expected = { tapped: 'pending+tap', late: 'pending+tap', untapped: 'pending+worker', unmarked: 'pending+worker' }[mode];
      expect(new Set(by)).toEqual(new Set([expected]));
      // The worker offers its finished copy only for sends the tap did not mark as taken.
      expect(h.db.offered.length).toBe(mode === 'tapped' || mode === 'late' ? 0 : h.sends());
      expect([...records.values()].every((r) => r.session === 'capture' && r.source === 'console')).toBe(true);
      expect([...records.values()].every((r) => r.state !== 'pending')).toBe(true);
      // The views name the stored records, with the right links.
      const round = (i: number) => records.get(v.rounds[i].recordId)!;
      expect(v.rounds.every((r) => records.has(r.recordId))).toBe(true);
      expect(v.rounds[4].forkOf).toBe(2);
      expect(round(4).derivedFrom).toBe(v.rounds[2].recordId);
      expect([0, 1, 2, 3, 5].map((i) => round(i).derivedFrom)).toEqual(Array(5).fill(undefined));
      expect(records.get(resent.recordId)).toMatchObject({ derivedFrom: v.rounds[0].recordId });
      const tamperSends = [...records.values()].filter((r) => r.derivedFrom === v.rounds[1].recordId);
      expect(tamperSends.length).toBeGreaterThan(4);
    });
  }

  it("replays into a session of its own, made at the first send, each send linked to the exchange it re-enacts", async () => {
    for (const mode of ['tapped', 'untapped'] as const) {
      const h = harness(mode);
      const got = await h.api.replay.run('imported', { target: demo.url, ignore: [...DEFAULT_IGNORE] });
      if (!got.ok) throw new Error('replay failed');
      expect(got.value.summary.same).toBe(11);
      const session = got.value.session!;
      expect(session.name).toBe(`Replay → ${demo.url}`);
      const stored = [...h.db.records.values()];
      expect(stored).toHaveLength(h.sends());
      expect(stored.every((r) => r.session === session.id && r.derivedFrom !== undefined && h.recordedIds.has(r.derivedFrom))).toBe(true);
      expect([...h.db.writers.values()].every((w) => w.join('+') === (mode === 'tapped' ? 'pending+tap' : 'pending+worker'))).toBe(true);
    }
  });

  it('a replay that sends nothing leaves no session behind', async () => {
    const h = harness('tapped');
    const got = await h.api.replay.run('imported', { target: demo.url, ignore: [], filter: 'name:no-such-tool' });
    if (!got.ok) throw new Error('replay failed');
    expect(got.value.session).toBeNull();
    expect([...h.db.sessions.keys()]).toEqual(['capture']);
  });
});
