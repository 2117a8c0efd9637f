import { describe, expect, it } from 'vitest';
import { importCapture } from '../../../worker/capture/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { bodies, fixture } from './load-fixture.js';

function load(name: string): { exchanges: ExchangeRecord[]; notes: string[] } {
  const out = importCapture(fixture(name));
  if (!out.ok) throw new Error(`${name}: ${out.error.where}: ${out.error.message}`);
  expect(out.format).toBe('har');
  expect(out.skipped).toEqual([]);
  return out;
}

/** The MRTR pair: the call answered input_required as JSON, the retry answered over SSE. */
function expectPair(first: ExchangeRecord, retry: ExchangeRecord) {
  expect(first.request.method).toBe('POST');
  expect(first.request.body).toBe(bodies.call1);
  expect(first.response?.body).toBe(bodies.res1);
  expect(first.response?.events).toBeUndefined();
  expect(JSON.parse(first.response!.body!).result.resultType).toBe('input_required');
  expect(retry.request.body).toBe(bodies.call2);
  expect(retry.response?.body).toBeUndefined();
  expect(retry.response?.events?.map((e) => e.data)).toEqual([bodies.ev1, bodies.ev2]);
  expect(retry.response?.events?.map((e) => e.event)).toEqual(['message', 'message']);
  expect(retry.response?.tail).toBeUndefined();
  for (const e of retry.response!.events!) expect(e.t).toBe(retry.response!.receivedAt);
  for (const r of [first, retry]) {
    expect(r.state).toBe('complete');
    expect(r.source).toBe('import');
    expect(r.response?.status).toBe(200);
  }
}

describe('importing HAR from each producer', () => {
  it('reads a Chrome DevTools HAR with HTTP/2 pseudo-headers, a preflight and a base64 image', () => {
    const { exchanges } = load('chrome.har');
    expect(exchanges.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    expect(exchanges.map((r) => r.id)).toEqual(['x-0', 'x-1', 'x-2', 'x-3']);
    expect(exchanges.map((r) => r.request.method)).toEqual(['OPTIONS', 'POST', 'GET', 'POST']);
    const [preflight, first, image, retry] = exchanges;
    expectPair(first, retry);
    expect(first.request.headers.slice(0, 2)).toEqual([
      { name: ':authority', value: 'mcp.example.test' },
      { name: ':method', value: 'POST' },
    ]);
    expect(first.client).toBe('418093');
    expect(preflight.client).toBe('418090');
    expect(preflight.response?.status).toBe(204);
    expect(preflight.response?.statusText).toBe('');
    // 2026-08-01T09:30:01.135Z; blocked 2.5 + send 0.25 + wait 44 (dns/connect/ssl -1); time 48.25.
    // Kept in whole milliseconds, like the start (har-import.ts, harTimes).
    expect(first.startedAt).toBe(Date.UTC(2026, 7, 1, 9, 30, 1, 135));
    expect(first.response?.receivedAt).toBe(first.startedAt + 46);
    expect(first.endedAt).toBe(first.startedAt + 48);
    expect(retry.endedAt).toBe(retry.startedAt + 1260);
    // The image body was base64; decoded as UTF-8 it keeps the PNG signature's ASCII "PNG".
    expect(image.response?.body?.slice(1, 4)).toBe('PNG');
    expect(image.response?.body).toContain('\uFFFD');
  });

  it('reads a Firefox HAR whose dates carry a local offset and whose connection is the port', () => {
    const { exchanges } = load('firefox.har');
    expect(exchanges.map((r) => r.seq)).toEqual([0, 1]);
    const [first, retry] = exchanges;
    expectPair(first, retry);
    expect(first.startedAt).toBe(Date.UTC(2026, 7, 1, 9, 30, 1, 250));
    expect(first.response?.receivedAt).toBe(first.startedAt + 17);
    expect(first.endedAt).toBe(first.startedAt + 18);
    expect(retry.response?.receivedAt).toBe(retry.startedAt + 41);
    expect(retry.endedAt).toBe(retry.startedAt + 1001);
    expect(first.client).toBe('3000');
    expect(first.response?.statusText).toBe('OK');
    expect(first.request.headers.find((h) => h.name === 'Cookie')?.value).toBe('sid=ff-session-42');
  });

  it('reads a Playwright recordHar, noting a body kept in a separate file and a failed request', () => {
    const { exchanges, notes } = load('playwright.har');
    expect(exchanges.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    const [page, first, retry, failed] = exchanges;
    expectPair(first, retry);
    expect(page.response?.status).toBe(200);
    expect(page.response?.body).toBeUndefined();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/separate files/);
    expect(notes[0]).toContain('log.entries[0].response.content');
    expect(failed.response).toBeUndefined();
    expect(failed.state).toBe('aborted');
    expect(failed.error).toBe('net::ERR_ABORTED');
    expect(failed.endedAt).toBeUndefined();
    // dns/connect/ssl are -1 and there is no `blocked`: receivedAt = start + send 0 + wait 21.5,
    // and time 22.75, both down to the whole millisecond.
    expect(first.response?.receivedAt).toBe(first.startedAt + 21);
    expect(first.endedAt).toBe(first.startedAt + 22);
    expect(first.client).toBeUndefined();
  });

  it('reads a mitmproxy HAR with microsecond +00:00 dates, CRLF event streams and ping comments', () => {
    const { exchanges } = load('mitmproxy.har');
    expect(exchanges.map((r) => r.seq)).toEqual([0, 1]);
    const [first, retry] = exchanges;
    expectPair(first, retry);
    expect(first.startedAt).toBe(Date.UTC(2026, 7, 1, 9, 30, 1, 123));
    // connect 2 + send 1 + wait 30 (blocked, dns, ssl are -1); time is their sum plus receive.
    expect(first.response?.receivedAt).toBe(first.startedAt + 33);
    expect(first.endedAt).toBe(first.startedAt + 34);
    expect(retry.response?.receivedAt).toBe(retry.startedAt + 26);
  });

  it('gives every entry a record, so seq always equals the entry position', () => {
    for (const name of ['chrome.har', 'firefox.har', 'playwright.har', 'mitmproxy.har']) {
      const har = JSON.parse(fixture(name));
      const { exchanges } = load(name);
      expect(exchanges.length).toBe(har.log.entries.length);
      exchanges.forEach((r, i) => expect(r.seq).toBe(i));
    }
  });
});

describe('importing HAR written by other recorders with a partial _mrtr', () => {
  it('keeps the JSON body beside an empty _mrtr.events and takes recorded event times for streams', () => {
    const har = JSON.parse(fixture('firefox.har'));
    const [first, retry] = har.log.entries;
    first._mrtr = { source: 'import', client: '127.0.0.1:50123', events: [] };
    const t0 = Date.parse(retry.startedDateTime);
    retry._mrtr = { source: 'import', client: '127.0.0.1:50123', events: [
      { t: t0 + 50, event: 'message', data: bodies.ev1 }, { t: t0 + 990, event: 'message', data: bodies.ev2 }] };
    const out = importCapture(JSON.stringify(har));
    if (!out.ok) throw new Error(out.error.message);
    const [a, b] = out.exchanges;
    expect(a.response?.body).toBe(bodies.res1);
    expect(a.response?.events).toBeUndefined();
    expect(a.client).toBe('127.0.0.1:50123');
    expect(a.state).toBe('complete');
    expect(b.response?.events?.map((e) => e.t)).toEqual([t0 + 50, t0 + 990]);
    expect(b.id).toBe('x-1');
  });
});

describe('base64 response content', () => {
  const entry = (text: string, mimeType: string) => JSON.stringify({ log: { entries: [{
    startedDateTime: '2026-08-01T00:00:00Z', time: 5, request: { method: 'POST', url: 'http://h/mcp', headers: [] },
    response: { status: 200, headers: [], content: { mimeType, text, encoding: 'base64' } } }] } });
  const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

  it('decodes base64 event-stream content as UTF-8 and parses it into events', () => {
    const out = importCapture(entry(b64(bodies.sse), 'text/event-stream'));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges[0].response?.events?.map((e) => e.data)).toEqual([bodies.ev1, bodies.ev2]);
    expect(out.exchanges[0].response?.events?.[1].data).toContain('22°C');
  });

  it('turns invalid UTF-8 into U+FFFD and accepts base64url', () => {
    const out = importCapture(entry('_-9hYg', 'application/octet-stream'));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges[0].response?.body).toBe('\uFFFD\uFFFDab');
  });

  it('imports undecodable base64 as an absent body and says so in a note', () => {
    const out = importCapture(entry('not base64 at all!', 'application/json'));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges[0].response?.body).toBeUndefined();
    expect(out.notes[0]).toMatch(/base64.*log\.entries\[0\]\.response\.content/);
  });
});
