// Copy as cURL and as fetch: what is copied, what is left out, and what is redacted.
import { describe, expect, it } from 'vitest';
import { headersToCopy, toCurl, toFetch } from '../../../worker/export/index.js';
import { mcpCall, PLANTED } from './records.js';

const secrets = [PLANTED.configured];

describe('toCurl', () => {
  it('writes the URL, the headers as sent minus hop-by-hop ones, the body with --data-raw, and -N for a stream', () => {
    const curl = toCurl(mcpCall(), { secrets });
    const lines = curl.split(' \\\n  ');
    expect(lines[0]).toBe(`curl 'http://127.0.0.1:3000/mcp?key=[redacted]'`);
    expect(lines.filter((l) => l.startsWith('-H ')).map((l) => l.slice(3))).toEqual([
      `'content-type: application/json'`,
      `'accept: application/json, text/event-stream'`,
      `'mcp-protocol-version: 2026-07-28'`,
      `'Mcp-Method: tools/call'`,
      `'Mcp-Name: deploy'`,
      `'Authorization: [redacted]'`,
      `'Cookie: [redacted]'`,
      `'X-API-Key: [redacted]'`,
    ]);
    expect(lines).toContain('--compressed');
    expect(lines.at(-2)).toMatch(/^--data-raw '\{"jsonrpc":"2.0"/);
    expect(lines.at(-1)).toBe('-N');
    expect(curl).not.toMatch(/-X POST|content-length|:authority|host:|keep-alive|X-Hop/i);
  });

  it('leaves out -N when the answer was plain JSON', () => {
    expect(toCurl(mcpCall({ sse: false })).split(' \\\n  ')).not.toContain('-N');
  });

  it('adds -N for a GET that asks for an event stream and has no answer yet', () => {
    const r = mcpCall({ method: 'GET', headers: [{ name: 'accept', value: 'text/event-stream' }] });
    delete r.request.body;
    delete r.response;
    expect(toCurl(r)).toBe(`curl 'http://127.0.0.1:3000/mcp?key=PLANTED-configured-0004' \\\n  -H 'accept: text/event-stream' \\\n  -N`);
  });

  it('says -X only when the method is not the one curl infers', () => {
    const del = mcpCall({ method: 'DELETE', headers: [] });
    delete del.request.body;
    expect(toCurl(del)).toContain('-X DELETE');
    expect(toCurl(mcpCall({ method: 'PUT', headers: [] }))).toContain('-X PUT');
    const get = mcpCall({ method: 'GET', headers: [], sse: false });
    delete get.request.body;
    expect(toCurl(get)).not.toContain('-X');
    expect(toCurl(mcpCall({ method: 'GET', headers: [], sse: false }))).toContain('-X GET');
    const head = mcpCall({ method: 'HEAD', headers: [], sse: false });
    delete head.request.body;
    expect(toCurl(head)).toContain('--head');
  });

  it('sends an empty header with curl\'s "Name;" form, since "Name:" would remove it', () => {
    expect(toCurl(mcpCall({ headers: [{ name: 'X-Empty', value: '' }] }))).toContain(`-H 'X-Empty;'`);
  });

  it('adds --globoff when the URL has brackets or braces', () => {
    expect(toCurl(mcpCall({ url: 'http://[::1]:3000/mcp', headers: [] }))).toContain('--globoff');
    expect(toCurl(mcpCall({ url: 'http://localhost/mcp', headers: [] }))).not.toContain('--globoff');
  });

  it('pipes a body with NUL through printf and --data-binary @-', () => {
    const curl = toCurl(mcpCall({ body: 'a\0b', headers: [] }));
    expect(curl.startsWith(`printf '%b' 'a\\0000b' | curl `)).toBe(true);
    expect(curl).toContain('--data-binary @-');
  });
});

describe('toFetch', () => {
  it('writes fetch(url, {method, headers, body}) with every string JSON-encoded', () => {
    const snippet = toFetch(mcpCall({ sse: false }), { secrets });
    expect(snippet).toBe([
      'fetch("http://127.0.0.1:3000/mcp?key=[redacted]", {',
      '  method: "POST",',
      '  headers: {',
      '    "content-type": "application/json",',
      '    "accept": "application/json, text/event-stream",',
      '    "mcp-protocol-version": "2026-07-28",',
      '    "Mcp-Method": "tools/call",',
      '    "Mcp-Name": "deploy",',
      '    "Authorization": "[redacted]",',
      '    "Cookie": "[redacted]",',
      '    "X-API-Key": "[redacted]",',
      '  },',
      `  body: ${JSON.stringify(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy', arguments: { note: 'uses [redacted]' }, access_token: '[redacted]' } }))},`,
      '});',
    ].join('\n'));
  });

  it('notes that an event-stream answer must be read as it arrives', () => {
    expect(toFetch(mcpCall())).toMatch(/^\/\/ The answer is an event stream/);
  });

  it('lists headers as pairs when a name repeats, so none is lost', () => {
    const snippet = toFetch(mcpCall({ headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }], sse: false }));
    expect(snippet).toContain('  headers: [\n    ["X-A", "1"],\n    ["x-a", "2"],\n  ],');
  });

  it('leaves out headers and body when there are none', () => {
    const r = mcpCall({ method: 'GET', headers: [], sse: false });
    delete r.request.body;
    expect(toFetch(r, { secrets })).toBe('fetch("http://127.0.0.1:3000/mcp?key=[redacted]", {\n  method: "GET",\n});');
  });
});

describe('sanitising copies', () => {
  it('redacts Authorization, cookies, API-key headers, OAuth fields and configured secrets by default', () => {
    for (const out of [toCurl(mcpCall(), { secrets }), toFetch(mcpCall(), { secrets })]) {
      for (const planted of Object.values(PLANTED)) expect(out).not.toContain(planted);
      expect(out).toContain('[redacted]');
    }
  });

  it('keeps every credential when sanitize is false', () => {
    for (const out of [toCurl(mcpCall(), { sanitize: false, secrets }), toFetch(mcpCall(), { sanitize: false, secrets })]) {
      for (const planted of Object.values(PLANTED)) expect(out).toContain(planted);
      expect(out).not.toContain('[redacted]');
    }
  });

  it('never changes the record it copies', () => {
    const r = mcpCall();
    const before = structuredClone(r);
    toCurl(r, { secrets });
    toFetch(r, { secrets });
    expect(r).toEqual(before);
  });
});

describe('headersToCopy', () => {
  it('drops pseudo, hop-by-hop, length and encoding headers and those Connection names, keeping order', () => {
    expect(headersToCopy([
      { name: ':method', value: 'POST' }, { name: 'B', value: '1' }, { name: 'Connection', value: 'close, x-private' },
      { name: 'X-Private', value: 'p' }, { name: 'Transfer-Encoding', value: 'chunked' }, { name: 'TE', value: 'trailers' },
      { name: 'Upgrade', value: 'h2c' }, { name: 'A', value: '2' },
    ])).toEqual([{ name: 'B', value: '1' }, { name: 'A', value: '2' }]);
  });
});
