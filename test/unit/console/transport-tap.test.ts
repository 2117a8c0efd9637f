// The Console transport's tapped / untapped decision (worker/console/transport.ts): the link
// header goes out only when the page's tap will see it; the answer says the send was tapped
// and stored only when the tap marked it or its write was announced, so the worker knows
// whether to store its own copy. The tap's mark is not reported as the server's header.
import { describe, expect, it } from 'vitest';
import { LINK_HEADER, TAPPED_HEADER } from '../../../worker/console/link.js';
import { fetchTransport, type TapHooks } from '../../../worker/console/transport.js';
import type { ConsoleRequest } from '../../../worker/console/types.js';

const req: ConsoleRequest = {
  url: 'http://127.0.0.1/demo/mcp', method: 'POST', headers: [{ name: 'content-type', value: 'application/json' }],
  body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', link: { id: 'c-1', derivedFrom: 'o-1', session: 's-1' },
};

interface Page {
  /** Headers of every fetch, as sent. */
  sent: Headers[];
  /** Ids `watch` was called for, in order, and whether that was before the fetch. */
  watched: { id: string; beforeFetch: boolean }[];
  closed: string[];
}

/**
 * A page: `mark` makes the "service worker" mark the answer; `notice` is what its tap then
 * announces for the id ('end', 'error' or nothing) — announced during the fetch, before it
 * resolves, as a quick tap can.
 */
function page(opts: { controlled: boolean; mark: boolean | string; notice: 'end' | 'error' | null; fail?: boolean }) {
  const p: Page = { sent: [], watched: [], closed: [] };
  const waiting = new Map<string, (stored: boolean) => void>();
  let fetching = false;
  const tap: TapHooks = {
    taps: () => opts.controlled,
    watch(id) {
      p.watched.push({ id, beforeFetch: !fetching });
      let settle!: (v: boolean) => void;
      const result = new Promise<boolean>((r) => (settle = r));
      waiting.set(id, settle);
      return { stored: (ms) => Promise.race([result, new Promise<boolean>((r) => setTimeout(() => r(false), ms))]), close: () => p.closed.push(id) };
    },
  };
  const doFetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    fetching = true;
    const headers = new Headers(init?.headers);
    p.sent.push(headers);
    const link = headers.get(LINK_HEADER);
    if (link && opts.notice) waiting.get('c-1')?.(opts.notice === 'end');
    if (opts.fail) throw new TypeError('Failed to fetch');
    const h = new Headers({ 'content-type': 'application/json', 'x-server': 'yes' });
    if (link && opts.mark) h.set(TAPPED_HEADER, opts.mark === true ? 'c-1' : opts.mark);
    return new Response('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}', { headers: h });
  };
  return { p, send: fetchTransport({ fetch: doFetch as typeof fetch, tap, storedWaitMs: { marked: 200, unmarked: 50 } }) };
}

describe('the transport and the tap', () => {
  it('sends the link header and reports tapped + stored when the tap marked the answer and its write was announced', async () => {
    const { p, send } = page({ controlled: true, mark: true, notice: 'end' });
    const res = await send(req);
    expect(p.sent[0].get(LINK_HEADER)).toBe('id=c-1; derived-from=o-1; session=s-1');
    expect(res.tapped).toEqual({ id: 'c-1', stored: true });
    expect(res.headers.map((h) => h.name)).not.toContain(TAPPED_HEADER);
    expect(res.headers).toContainEqual({ name: 'x-server', value: 'yes' });
    expect(p.watched).toEqual([{ id: 'c-1', beforeFetch: true }]);
    expect(p.closed).toEqual(['c-1']);
  });

  it('reports tapped but not stored when the tap marked it and its write failed or never came', async () => {
    for (const notice of ['error', null] as const) {
      const { send } = page({ controlled: true, mark: true, notice });
      expect((await send(req)).tapped, String(notice)).toEqual({ id: 'c-1', stored: false });
    }
  });

  it('adds no header and reports untapped when no service worker will see the send', async () => {
    const { p, send } = page({ controlled: false, mark: true, notice: 'end' });
    const res = await send(req);
    expect(p.sent[0].has(LINK_HEADER)).toBe(false);
    expect(res.tapped).toBeUndefined();
    expect(p.watched).toEqual([]);
  });

  it('reports untapped when the answer is unmarked and no write is announced (the tap let it pass)', async () => {
    const { p, send } = page({ controlled: true, mark: false, notice: null });
    const res = await send(req);
    expect(p.sent[0].has(LINK_HEADER)).toBe(true);
    expect(res.tapped).toBeUndefined();
    expect(p.closed).toEqual(['c-1']);
  });

  it("ignores a mark for another record (the mark must name this send's id)", async () => {
    const { send } = page({ controlled: true, mark: 'c-other', notice: null });
    expect((await send(req)).tapped).toBeUndefined();
  });

  it('reports a failed send the tap recorded as tapped and stored, so the worker writes no second copy', async () => {
    const { send } = page({ controlled: true, mark: false, notice: 'end', fail: true });
    const res = await send(req);
    expect(res.status).toBe(0);
    expect(res.tapped).toEqual({ id: 'c-1', stored: true });
  });

  it('sends an unlinked request as before, and without hooks ignores the link (Node)', async () => {
    const { p, send } = page({ controlled: true, mark: true, notice: 'end' });
    const { link: _, ...plain } = req;
    expect((await send(plain)).tapped).toBeUndefined();
    expect(p.sent[0].has(LINK_HEADER)).toBe(false);
    let seen: Headers | undefined;
    const node = fetchTransport({ fetch: (async (_u: string, init?: RequestInit) => { seen = new Headers(init?.headers); return new Response('{}'); }) as typeof fetch });
    expect((await node(req)).tapped).toBeUndefined();
    expect(seen!.has(LINK_HEADER)).toBe(false);
  });

  it('sends no header when asking whether the tap will see it fails', async () => {
    let seen: Headers | undefined;
    const send = fetchTransport({
      fetch: (async (_u: string, init?: RequestInit) => { seen = new Headers(init?.headers); return new Response('{}'); }) as typeof fetch,
      tap: { taps: () => Promise.reject(new Error('IndexedDB is gone')), watch: () => { throw new Error('not called'); } },
    });
    expect((await send(req)).status).toBe(200);
    expect(seen!.has(LINK_HEADER)).toBe(false);
  });
});
