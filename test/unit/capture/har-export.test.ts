import { describe, expect, it } from 'vitest';
import { exportHar, importCapture, REDACTED } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { fixture } from './load-fixture.js';
import { sampleRecords } from './sample-records.js';

function reimport(text: string, opts = {}): ExchangeRecord[] {
  const out = importCapture(text, opts);
  if (!out.ok) throw new Error(`${out.error.where}: ${out.error.message}`);
  expect(out.format).toBe('har');
  return out.exchanges;
}

/** Records with credentials planted in every place sanitising must reach. */
function planted(): ExchangeRecord[] {
  const [a, b, c] = sampleRecords();
  a.request.url = 'http://localhost:3000/mcp?access_token=tok-in-url&x=1';
  a.request.headers.push(
    { name: 'Cookie', value: 'sid=cookie-secret-1; theme=dark' },
    { name: 'X-API-Key', value: 'key-abc-999' },
    { name: 'X-Upstream-Token', value: 'upstream-777' },
  );
  a.request.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"login","arguments":{"password":"hunter2","note":"uses PLANTED-SECRET here"}}}';
  a.response!.headers.push({ name: 'Set-Cookie', value: 'sid=cookie-secret-2; Path=/; HttpOnly' });
  a.response!.body = '{"access_token": "at-555", "refresh_token":"rt-666", "token_type":"Bearer"}';
  b.request.body = 'grant_type=refresh_token&refresh_token=rt-form-1&client_secret=cs-form-2';
  b.response!.events![0].data = '{"note":"PLANTED-SECRET in an event"}';
  b.response!.tail = 'data: PLANTED-SECRET';
  c.error = 'failed with PLANTED-SECRET';
  return [a, b, c];
}

const SECRETS = ['Bearer sk-live-123', 'cookie-secret-1', 'cookie-secret-2', 'key-abc-999', 'upstream-777',
  'tok-in-url', 'hunter2', 'at-555', 'rt-666', 'rt-form-1', 'cs-form-2', 'PLANTED-SECRET'];

describe('HAR export', () => {
  it('re-imports our own export losslessly, event times, tails, ids and states included', () => {
    const records = sampleRecords();
    const text = exportHar(records, { sanitize: false });
    const har = JSON.parse(text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('mrtr-inspector');
    expect(har.log.entries[1].response.content.text).toContain('data: {"jsonrpc":"2.0","method":"notifications/progress"}');
    expect(reimport(text)).toStrictEqual(records);
  });

  it('re-ids records and their derivedFrom links when an idPrefix is given', () => {
    const got = reimport(exportHar(sampleRecords(), { sanitize: false }), { idPrefix: 'imp' });
    expect(got.map((r) => r.id)).toEqual(['imp-0', 'imp-1', 'imp-2']);
    expect(got[1].derivedFrom).toBe('imp-0');
  });

  it('re-exports a Chrome HAR so that its import is unchanged', () => {
    const first = reimport(fixture('chrome.har'));
    expect(reimport(exportHar(first, { sanitize: false }))).toStrictEqual(first);
  });

  it('sanitises by default: planted credentials and secrets are gone, everything else stays', () => {
    const records = planted();
    const text = exportHar(records, { secrets: ['PLANTED-SECRET'] });
    for (const s of SECRETS) expect(text, s).not.toContain(s);
    const got = reimport(text);
    const [a, b, c] = got;
    const header = (r: ExchangeRecord, n: string) => r.request.headers.find((h) => h.name === n)?.value;
    expect(header(a, 'Authorization')).toBe(REDACTED);
    expect(header(a, 'Cookie')).toBe(REDACTED);
    expect(header(a, 'X-API-Key')).toBe(REDACTED);
    expect(header(a, 'X-Upstream-Token')).toBe(REDACTED);
    expect(a.response!.headers.find((h) => h.name === 'Set-Cookie')?.value).toBe(REDACTED);
    // MCP headers and ordinary ones are kept as they were.
    for (const n of ['Content-Type', 'Mcp-Method', 'Mcp-Name', 'MCP-Protocol-Version']) expect(header(a, n)).toBe(header(records[0], n));
    expect(a.request.url).toBe(`http://localhost:3000/mcp?access_token=${REDACTED}&x=1`);
    expect(JSON.parse(a.request.body!).params.arguments).toEqual({ password: REDACTED, note: `uses ${REDACTED} here` });
    expect(JSON.parse(a.response!.body!)).toEqual({ access_token: REDACTED, refresh_token: REDACTED, token_type: 'Bearer' });
    expect(b.request.body).toBe(`grant_type=refresh_token&refresh_token=${REDACTED}&client_secret=${REDACTED}`);
    expect(b.response!.events![0].data).toBe(`{"note":"${REDACTED} in an event"}`);
    expect(b.response!.events![1]).toStrictEqual(records[1].response!.events![1]);
    expect(b.response!.tail).toBe(`data: ${REDACTED}`);
    expect(c.error).toBe(`failed with ${REDACTED}`);
    // Ids, times, states and the rest survive.
    expect(got.map((r) => [r.id, r.startedAt, r.endedAt, r.state, r.derivedFrom])).toEqual(
      records.map((r) => [r.id, r.startedAt, r.endedAt, r.state, r.derivedFrom]));
    // HAR cookie arrays carry no values either.
    const entry = JSON.parse(text).log.entries[0];
    expect(entry.request.cookies).toEqual([{ name: 'sid', value: REDACTED }, { name: 'theme', value: REDACTED }]);
    expect(entry.response.cookies).toEqual([{ name: 'sid', value: REDACTED }]);
  });

  it('keeps every credential with the explicit choice sanitize: false', () => {
    const records = planted();
    const text = exportHar(records, { sanitize: false, secrets: ['PLANTED-SECRET'] });
    for (const s of SECRETS) expect(text, s).toContain(s);
    expect(reimport(text)).toStrictEqual(records);
    const cookies = JSON.parse(text).log.entries[0].request.cookies;
    expect(cookies).toEqual([{ name: 'sid', value: 'cookie-secret-1' }, { name: 'theme', value: 'dark' }]);
  });

  it('does not leave stored records changed by sanitising', () => {
    const records = planted();
    const before = structuredClone(records);
    exportHar(records, { secrets: ['PLANTED-SECRET'] });
    expect(records).toStrictEqual(before);
  });
});
