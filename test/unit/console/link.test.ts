// The link header of Console sends (worker/console/link.ts) and the service worker's side of
// it (web/sw/console-link.ts): written and read back losslessly, refused when it is not ours,
// and stripped from the forwarded request with everything else kept.
import { describe, expect, it } from 'vitest';
import { formatLink, LINK_HEADER, parseLink, TAPPED_HEADER } from '../../../worker/console/link.js';
import { forwardRequest, markTapped, readLink, withoutLink } from '../../../web/sw/console-link.js';

describe('the link header', () => {
  it('reads back every field it wrote, in any order, ignoring unknown keys', () => {
    const link = { id: 'c-1', derivedFrom: 'x-3', session: 's-9' };
    expect(formatLink(link)).toBe('id=c-1; derived-from=x-3; session=s-9');
    expect(parseLink(formatLink(link))).toEqual(link);
    expect(parseLink('session=s; ID=c-2; future=1')).toEqual({ id: 'c-2', session: 's' });
    expect(parseLink('id=c-3')).toEqual({ id: 'c-3' });
  });

  it('carries ids with any character (an imported capture may hold them) as header-safe text', () => {
    const link = { id: 'c-é', derivedFrom: 'imp-a;b=c, "d" ünï\n' };
    const value = formatLink(link);
    expect(value).toMatch(/^[\x21-\x7e ]+$/);
    expect(parseLink(value)).toEqual(link);
  });

  it('refuses what it did not write: no id, a key twice, an empty value, bad escapes', () => {
    for (const bad of ['', 'derived-from=x', 'id=a; id=b', 'id=', 'id=%E0%A4%A', 'garbage', '=x; id=a']) {
      expect(parseLink(bad), bad).toBeNull();
    }
    expect(parseLink(null)).toBeNull();
  });
});

const URL_ = 'https://mcp.example/mcp';

function consoleSend(headers: Record<string, string>): Request {
  return new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-method': 'tools/call', ...headers }, body: '{"id":1}', credentials: 'include', mode: 'cors', redirect: 'manual', referrerPolicy: 'no-referrer' });
}

describe("the service worker's side", () => {
  it('strips the link header from the forwarded request and keeps method, body and options', async () => {
    const req = consoleSend({ [LINK_HEADER]: 'id=c-1; derived-from=o-1' });
    expect(readLink(req)).toEqual({ kind: 'link', link: { id: 'c-1', derivedFrom: 'o-1' } });
    const bytes = await req.arrayBuffer();
    const fwd = forwardRequest(req, bytes);
    expect(fwd.headers.has(LINK_HEADER)).toBe(false);
    expect(fwd.headers.get('mcp-method')).toBe('tools/call');
    expect(fwd.headers.get('content-type')).toBe('application/json');
    expect([fwd.method, fwd.url, fwd.credentials, fwd.mode, fwd.redirect, fwd.referrerPolicy]).toEqual(['POST', URL_, 'include', 'cors', 'manual', 'no-referrer']);
    expect(await fwd.text()).toBe('{"id":1}');
  });

  it('follows the page signal on the forwarded request', async () => {
    const abort = new AbortController();
    const req = new Request(URL_, { method: 'POST', body: 'x', headers: { [LINK_HEADER]: 'id=c-1' }, signal: abort.signal });
    const fwd = forwardRequest(req, await req.arrayBuffer());
    abort.abort();
    expect(fwd.signal.aborted).toBe(true);
  });

  it('leaves ordinary traffic alone and strips a header it cannot read', () => {
    const plain = consoleSend({});
    expect(readLink(plain)).toEqual({ kind: 'none' });
    const bad = consoleSend({ [LINK_HEADER]: 'nonsense' });
    expect(readLink(bad)).toEqual({ kind: 'unreadable' });
    expect(withoutLink(bad.headers).has(LINK_HEADER)).toBe(false);
    expect(bad.headers.has(LINK_HEADER)).toBe(true);
  });

  it('marks the answer with the record id and keeps status, headers and body', async () => {
    const upstream = new Response('{"ok":true}', { status: 201, statusText: 'Made', headers: { 'content-type': 'application/json', 'x-server': 'a' } });
    const marked = markTapped(upstream, upstream.body, 'c-7');
    expect(marked.headers.get(TAPPED_HEADER)).toBe('c-7');
    expect([marked.status, marked.statusText, marked.headers.get('x-server')]).toEqual([201, 'Made', 'a']);
    expect(await marked.text()).toBe('{"ok":true}');
    const empty = new Response(null, { status: 204 });
    expect(markTapped(empty, null, 'c-8').headers.get(TAPPED_HEADER)).toBe('c-8');
  });
});
