// Every fallible service answers one shape, Answer<T, E>: { ok: true, value } or
// { ok: false, error: { kind, message, ... } }, with the extra structure the page needs
// (an import refusal's where/skipped/readable, a key's applied/keys). Services are built
// from a context whose storage is a small in-memory stand-in.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StorageError, type CaptureStore, type StoredExchange } from '../../../worker/storage/index.js';
import { CaptureOwner } from '../../../worker/services/capture-owner.js';
import { createConsoleLink } from '../../../worker/services/console-link.js';
import { ConsoleStep } from '../../../worker/services/console-step.js';
import { createConsoleService } from '../../../worker/services/console.js';
import { createKeysService } from '../../../worker/services/keys.js';
import { Keyring } from '../../../worker/services/keyring.js';
import { createTamperService } from '../../../worker/services/tamper.js';
import { createTransferService } from '../../../worker/services/transfer.js';
import { SessionModel } from '../../../worker/view/session-model.js';

function memoryStore(opts: { settingsFail?: boolean } = {}) {
  const records = new Map<string, StoredExchange>();
  let n = 0;
  return {
    async getExchange(id: string) { return records.get(id); },
    async putExchanges(list: StoredExchange[]) { for (const r of list) records.set(r.id, r); },
    async createSession(name: string) { return { id: `s${++n}`, name, createdAt: 0, nextSeq: 0 }; },
    async setSetting() { if (opts.settingsFail) throw new StorageError('quota', 'Storage is full: free some space.'); },
  } as unknown as CaptureStore;
}

function services(store = memoryStore()) {
  const sessions = new Map<string, Promise<SessionModel>>();
  const link = createConsoleLink({ store, apply: async () => undefined });
  const ctx = {
    store, sessions, keyring: new Keyring(), link, step: new ConsoleStep(link.keep),
    guard: async <T>(fn: () => Promise<T>) => ({ ok: true as const, value: await fn() }),
    builtOf: async (s: string) => (await sessions.get(s)!).built(() => [], 0),
    checkedOf: async (s: string) => (await sessions.get(s)!).built(() => [], 0),
    modelOf: (s: string) => sessions.get(s)!,
    owner: new CaptureOwner({ store, sessions, analyseSoon: () => undefined }),
    analysed: async () => undefined,
    listed: async () => undefined,
    reading: () => () => undefined,
    checkMs: () => undefined,
  };
  return { keys: createKeysService(ctx), transfer: createTransferService(ctx), console: createConsoleService(ctx), tamper: createTamperService(ctx) };
}

describe('fallible services answer { ok, value } or { ok: false, error: { kind, message } }', () => {
  it('keys.set answers the keys now set, and an unreadable key as invalid, not applied, with the keys', async () => {
    const api = services();
    const set = await api.keys.set('https://a.example/mcp', 'hex:00112233445566778899aabbccddeeff', false);
    expect(set).toEqual({ ok: true, value: [{ server: 'https://a.example/mcp', remembered: false, builtIn: false }] });
    const bad = await api.keys.set('https://b.example/mcp', 'hex:zz', false);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error).toMatchObject({ kind: 'invalid', applied: false, keys: [{ server: 'https://a.example/mcp' }] });
    expect(bad.error.message).toMatch(/could not be read/);
  });

  it('keys.set says a key it could not remember is applied all the same, with storage\'s kind', async () => {
    const api = services(memoryStore({ settingsFail: true }));
    const r = await api.keys.set('https://a.example/mcp', 'hex:00112233445566778899aabbccddeeff', true);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ kind: 'quota', applied: true });
    expect(r.error.message).toMatch(/set for this visit but could not be remembered/);
  });

  it('transfer.importText answers the session, and a damaged file as refused with where, skipped and readable', async () => {
    const api = services();
    const ok = await api.transfer.importText(readFileSync('test/fixtures/sdk/sdk-v2-manual.har', 'utf8'), 'manual.har');
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.value).toMatchObject({ session: { name: 'manual.har', capturing: false }, skipped: [] });
    const har = JSON.parse(readFileSync('test/fixtures/producers/firefox.har', 'utf8'));
    delete har.log.entries[0].request.url;
    const refused = await api.transfer.importText(JSON.stringify(har), 'firefox.har');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({ kind: 'refused', where: 'log.entries[0].request.url', readable: har.log.entries.length - 1 });
  });

  it('console.resendDraft answers a record no longer stored as not-found', async () => {
    const got = await services().console.resendDraft('gone');
    expect(got).toEqual({ ok: false, error: { kind: 'not-found', message: 'that exchange is no longer stored' } });
  });

  it('tamper.fromStep before any call, and fromCapture of a record no longer stored, answer as errors', async () => {
    const api = services();
    expect(await api.tamper.fromStep(0)).toEqual({ ok: false, error: { kind: 'invalid', message: 'start a call first' } });
    expect(await api.tamper.fromCapture('gone', null)).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  });
});
