// The tap (web/sw/tap.ts) and a Console send's link header, with the network and storage
// stubbed: the server never sees the header, the exchange is filed under the Console's id,
// linked and in the session named, and the answer is marked; without a link nothing changes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LINK_HEADER, TAPPED_HEADER, formatLink } from '../../../worker/console/link.js';
import type { CaptureStore, NewExchange, StoredExchange } from '../../../worker/storage/index.js';
import type { CaptureNotice } from '../../../web/sw/messages.js';
import { Tap } from '../../../web/sw/tap.js';

/** A store that keeps records in memory (the tap adds, fills in a Console send, and updates). */
function memoryStore() {
  const records = new Map<string, StoredExchange>();
  const store = {
    async addExchange(rec: NewExchange) {
      if (records.has(rec.id)) throw new Error(`duplicate ${rec.id}`);
      const stored = { ...rec, v: 1, seq: records.size } as StoredExchange;
      records.set(rec.id, stored);
      return stored;
    },
    // Same contract as storage's fillExchange: a pending copy is replaced (its seq and
    // session kept), a final one stands (null, nothing written), none is added.
    async fillExchange(rec: NewExchange) {
      const old = records.get(rec.id);
      if (old && old.state !== 'pending' && old.state !== 'streaming') return null;
      const stored = { ...rec, v: 1, seq: old?.seq ?? records.size, session: old?.session ?? rec.session } as StoredExchange;
      records.set(rec.id, stored);
      return stored;
    },
    async updateExchange(id: string, change: (r: StoredExchange) => StoredExchange | void) {
      const r = records.get(id)!;
      change(r);
      return r;
    },
  };
  return { records, store: store as unknown as CaptureStore };
}

/** Stubs the global fetch with a server that notes every request it receives. */
function stubServer(answer: () => Response = () => new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } })) {
  const seen: Request[] = [];
  vi.stubGlobal('fetch', async (input: Request | string, init?: RequestInit) => {
    seen.push(input instanceof Request && init === undefined ? input : new Request(input, init));
    return answer();
  });
  return seen;
}

function tapOf() {
  const { records, store } = memoryStore();
  const notices: CaptureNotice[] = [];
  const tap = new Tap({ store, announce: (n) => notices.push(n), session: async () => 'capture' });
  return { tap, records, notices };
}

const post = (headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/demo/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the tap and the link header', () => {
  it('files a linked send under its id, derivedFrom and session, marks the answer, and strips the header upstream', async () => {
    const seen = stubServer();
    const { tap, records, notices } = tapOf();
    const res = await tap.run(post({ [LINK_HEADER]: formatLink({ id: 'c-1', derivedFrom: 'o-1', session: 'replay-1' }) }), 'client-1');
    expect(res.headers.get(TAPPED_HEADER)).toBe('c-1');
    expect(await res.text()).toContain('"result"');
    await tap.done;
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.has(LINK_HEADER)).toBe(false);
    expect(await seen[0].text()).toContain('tools/call');
    const rec = records.get('c-1')!;
    expect(rec).toMatchObject({ id: 'c-1', source: 'console', derivedFrom: 'o-1', session: 'replay-1', state: 'complete', client: 'client-1' });
    expect(rec.request.headers.some((h) => h.name === LINK_HEADER)).toBe(false);
    expect(records.size).toBe(1);
    expect(notices.map((n) => n.type)).toContain('exchange-end');
  });

  it('files a link without a session in the capture session', async () => {
    stubServer();
    const { tap, records } = tapOf();
    await (await tap.run(post({ [LINK_HEADER]: 'id=c-2' }), undefined)).text();
    await tap.done;
    expect(records.get('c-2')).toMatchObject({ session: 'capture', source: 'console' });
    expect(records.get('c-2')!.derivedFrom).toBeUndefined();
  });

  it('leaves ordinary traffic as it was: its own id, source sw, no mark', async () => {
    const seen = stubServer();
    const { tap, records } = tapOf();
    const res = await tap.run(post({ 'x-other': '1' }), undefined);
    expect(res.headers.has(TAPPED_HEADER)).toBe(false);
    await res.text();
    await tap.done;
    expect(seen[0].headers.get('x-other')).toBe('1');
    const [rec] = [...records.values()];
    expect(rec.source).toBe('sw');
    expect(rec.id).not.toMatch(/^c-/);
  });

  it('strips a header it cannot read and records nothing, so the Console keeps the only copy', async () => {
    const seen = stubServer();
    const { tap, records } = tapOf();
    const res = await tap.run(post({ [LINK_HEADER]: 'no id here' }), undefined);
    expect(res.headers.has(TAPPED_HEADER)).toBe(false);
    await res.text();
    await tap.done;
    expect(seen[0].headers.has(LINK_HEADER)).toBe(false);
    expect(records.size).toBe(0);
  });

  it('strips the header from a send it skips (not watched after all)', async () => {
    const seen = stubServer();
    const { tap } = tapOf();
    await (await tap.skip(post({ [LINK_HEADER]: 'id=c-3' }))).text();
    expect(seen[0].headers.has(LINK_HEADER)).toBe(false);
    expect(await seen[0].text()).toContain('tools/call');
  });

  it('files a linked send that failed upstream, so the page learns of it from the notice', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const { tap, records, notices } = tapOf();
    await expect(tap.run(post({ [LINK_HEADER]: 'id=c-4' }), undefined)).rejects.toThrow('Failed to fetch');
    await tap.done;
    expect(records.get('c-4')).toMatchObject({ state: 'failed', source: 'console' });
    expect(notices).toContainEqual(expect.objectContaining({ type: 'exchange-end', id: 'c-4' }));
  });

  it('marks an answer without a body', async () => {
    stubServer(() => new Response(null, { status: 202 }));
    const { tap, records } = tapOf();
    const res = await tap.run(post({ [LINK_HEADER]: 'id=c-5' }), undefined);
    expect(res.status).toBe(202);
    expect(res.headers.get(TAPPED_HEADER)).toBe('c-5');
    await tap.done;
    expect(records.get('c-5')?.state).toBe('complete');
  });

  it('fills in the pending record the Console saved, keeping its seq, and leaves a final one standing', async () => {
    stubServer();
    const { tap, records } = tapOf();
    records.set('c-6', { id: 'c-6', v: 1, seq: 7, session: 'capture', state: 'pending', source: 'console' } as unknown as StoredExchange);
    await (await tap.run(post({ [LINK_HEADER]: 'id=c-6' }), undefined)).text();
    await tap.done;
    expect(records.get('c-6')).toMatchObject({ seq: 7, state: 'complete', source: 'console' });
    expect(records.size).toBe(1);

    const finalCopy = { id: 'c-7', v: 1, seq: 8, session: 'capture', state: 'complete', source: 'console', mark: 'console-own' } as unknown as StoredExchange;
    records.set('c-7', finalCopy);
    await (await tap.run(post({ [LINK_HEADER]: 'id=c-7' }), undefined)).text();
    await tap.done;
    expect(records.get('c-7')).toBe(finalCopy);
  });
});
