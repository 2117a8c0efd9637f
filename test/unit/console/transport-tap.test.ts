// The Console transport's tapped / untapped decision (worker/console/transport.ts): the link
// header goes out only when the page's tap will see it; the answer says the send was taken
// when the tap marked it, at once, with no wait for the tap's writes. The tap's mark is not
// reported as the server's header.
import { describe, expect, it } from 'vitest';
import { LINK_HEADER, TAPPED_HEADER } from '../../../worker/console/link.js';
import { fetchTransport, type TapHooks } from '../../../worker/console/transport.js';
import type { ConsoleRequest } from '../../../worker/console/types.js';

const req: ConsoleRequest = {
  url: 'http://127.0.0.1/demo/mcp', method: 'POST', headers: [{ name: 'content-type', value: 'application/json' }],
  body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', link: { id: 'c-1', derivedFrom: 'o-1', session: 's-1' },
};

/** A page: `mark` makes the "service worker" mark the answer (with this send's id, or another). */
function page(opts: { controlled: boolean; mark: boolean | string; fail?: boolean }) {
  const sent: Headers[] = [];
  const tap: TapHooks = { taps: () => opts.controlled };
  const doFetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    sent.push(headers);
    const link = headers.get(LINK_HEADER);
    if (opts.fail) throw new TypeError('Failed to fetch');
    const h = new Headers({ 'content-type': 'application/json', 'x-server': 'yes' });
    if (link && opts.mark) h.set(TAPPED_HEADER, opts.mark === true ? 'c-1' : opts.mark);
    return new Response('{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}', { headers: h });
  };
  return { sent, send: fetchTransport({ fetch: doFetch as typeof fetch, tap }) };
}

describe('the transport and the tap', () => {
  it('sends the link header and reports the send taken, as soon as the answer is in, when the tap marked it', async () => {
    const { sent, send } = page({ controlled: true, mark: true });
    const res = await send(req);
    expect(sent[0].get(LINK_HEADER)).toBe('id=c-1; derived-from=o-1; session=s-1');
    expect(res.tapped).toEqual({ id: 'c-1' });
    expect(res.headers.map((h) => h.name)).not.toContain(TAPPED_HEADER);
    expect(res.headers).toContainEqual({ name: 'x-server', value: 'yes' });
  });

  it('adds no header and reports untapped when no service worker will see the send', async () => {
    const { sent, send } = page({ controlled: false, mark: true });
    const res = await send(req);
    expect(sent[0].has(LINK_HEADER)).toBe(false);
    expect(res.tapped).toBeUndefined();
  });

  it('reports untapped when the answer is unmarked (the tap let it pass)', async () => {
    const { sent, send } = page({ controlled: true, mark: false });
    const res = await send(req);
    expect(sent[0].has(LINK_HEADER)).toBe(true);
    expect(res.tapped).toBeUndefined();
  });

  it("ignores a mark for another record (the mark must name this send's id)", async () => {
    const { send } = page({ controlled: true, mark: 'c-other' });
    expect((await send(req)).tapped).toBeUndefined();
  });

  it('reports a failed send as data, untapped (the worker then keeps its own copy)', async () => {
    const { send } = page({ controlled: true, mark: false, fail: true });
    const res = await send(req);
    expect(res.status).toBe(0);
    expect(res.tapped).toBeUndefined();
  });

  it('sends an unlinked request as before, and without hooks ignores the link (Node)', async () => {
    const { sent, send } = page({ controlled: true, mark: true });
    const { link: _, ...plain } = req;
    expect((await send(plain)).tapped).toBeUndefined();
    expect(sent[0].has(LINK_HEADER)).toBe(false);
    let seen: Headers | undefined;
    const node = fetchTransport({ fetch: (async (_u: string, init?: RequestInit) => { seen = new Headers(init?.headers); return new Response('{}'); }) as typeof fetch });
    expect((await node(req)).tapped).toBeUndefined();
    expect(seen!.has(LINK_HEADER)).toBe(false);
  });

  it('sends no header when asking whether the tap will see it fails', async () => {
    let seen: Headers | undefined;
    const send = fetchTransport({
      fetch: (async (_u: string, init?: RequestInit) => { seen = new Headers(init?.headers); return new Response('{}'); }) as typeof fetch,
      tap: { taps: () => Promise.reject(new Error('IndexedDB is gone')) },
    });
    expect((await send(req)).status).toBe(200);
    expect(seen!.has(LINK_HEADER)).toBe(false);
  });
});
