import { afterEach, describe, expect, it, vi } from 'vitest';
import { exportJsonl, importCapture, jsonlLine } from '../../../worker/capture/index.js';
import { fixture } from './load-fixture.js';
import { sampleRecords } from './sample-records.js';

afterEach(() => vi.restoreAllMocks());

describe('importing damaged and hostile captures', () => {
  it('refuses an empty file, saying what to choose instead', () => {
    const out = importCapture('  \n');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.message).toMatch(/empty.*HAR/);
  });

  it('refuses text that is not JSON, naming line and column', () => {
    const out = importCapture('{\n  "log": {\n    "entries": [}\n}');
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error.where).toBe('line 3, column 17');
    expect(out.error.message).toContain('line 3, column 17');
  });

  it('refuses JSON that has no log.entries', () => {
    for (const text of ['{"log":{"version":"1.2"}}', '[1,2]', '{"hello":"world"}', '"str"']) {
      const out = importCapture(text);
      expect(out.ok, text).toBe(false);
      if (!out.ok) expect(out.error.where).toBe('log.entries');
    }
  });

  it('refuses a HAR with an unreadable entry unless allowPartial, naming the entry and field', () => {
    const har = JSON.parse(fixture('firefox.har'));
    delete har.log.entries[0].request.url;
    har.log.entries.push({ request: { url: 'http://x/', method: 'GET', headers: 'nope' }, startedDateTime: '2026-01-01T00:00:00Z' });
    const text = JSON.stringify(har);
    const refused = importCapture(text);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.where).toBe('log.entries[0].request.url');
    expect(refused.error.message).toMatch(/^2 of 3 entries could not be read; the first: log\.entries\[0\]\.request\.url: .*The other 1 can be imported without them\.$/);
    expect(refused.skipped.map((s) => s.where)).toEqual(['log.entries[0].request.url', 'log.entries[2].request.headers']);
    const partial = importCapture(text, { allowPartial: true });
    expect(partial.ok).toBe(true);
    if (!partial.ok) return;
    expect(partial.exchanges.map((r) => [r.seq, r.id])).toEqual([[1, 'x-1']]);
    expect(partial.skipped.map((s) => s.index)).toEqual([0, 2]);
  });

  it('salvages the complete entries of a HAR cut off mid-entry only with allowPartial', () => {
    const text = fixture('chrome.har');
    const cut = text.slice(0, text.indexOf('"_resourceType": "image"') + 10);
    const refused = importCapture(cut);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.where).toBe('log.entries[2]');
    expect(refused.error.message).toMatch(/^1 of 3 entries could not be read; the first: log\.entries\[2\]: the file is cut off .*line \d+, column \d+.*The other 2 can be imported without it\./);
    const partial = importCapture(cut, { allowPartial: true });
    if (!partial.ok) throw new Error(partial.error.message);
    expect(partial.exchanges.map((r) => [r.seq, r.request.method])).toEqual([[0, 'OPTIONS'], [1, 'POST']]);
    expect(partial.skipped).toHaveLength(1);
  });

  it('salvages a minified HAR cut off between entries', () => {
    const min = JSON.stringify(JSON.parse(fixture('firefox.har')));
    const cut = min.slice(0, min.indexOf('},{"pageref"') + 2);
    const partial = importCapture(cut, { allowPartial: true });
    if (!partial.ok) throw new Error(partial.error.message);
    expect(partial.exchanges).toHaveLength(1);
    expect(partial.skipped[0].where).toBe('log.entries[1]');
  });

  it('refuses a JSONL file whose last line is cut unless allowPartial, naming the line', () => {
    const full = exportJsonl(sampleRecords());
    const cut = full.slice(0, full.length - 25);
    const refused = importCapture(cut);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.format).toBe('jsonl');
    expect(refused.error.where).toBe('line 4');
    expect(refused.error.message).toMatch(/^1 of 3 lines could not be read; the first: line 4: the last line is cut off/);
    const partial = importCapture(cut, { allowPartial: true });
    if (!partial.ok) throw new Error(partial.error.message);
    expect(partial.exchanges.map((r) => r.id)).toEqual(['sw-7f3a', 'sw-7f3b']);
    expect(partial.skipped).toEqual([expect.objectContaining({ index: 3, where: 'line 4' })]);
  });

  it('names the field of a JSONL record with a wrong type', () => {
    const [a, b] = sampleRecords();
    const bad = JSON.parse(jsonlLine(b));
    bad.response.events[1].t = 'soon';
    const out = importCapture(jsonlLine(a) + JSON.stringify(bad) + '\n');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.where).toBe('line 2: response.events[1].t');
  });

  it('reports JSON nested deeper than the engine can parse as an error with where', () => {
    const deep = '{"log":{"entries":[' + '['.repeat(5000) + ']'.repeat(5000) + ']}}';
    const parse = JSON.parse;
    vi.spyOn(JSON, 'parse').mockImplementation((t: string, r?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (t.length > 9000) throw new RangeError('Maximum call stack size exceeded');
      return parse(t, r);
    });
    const out = importCapture(deep);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.message).toMatch(/nests JSON 5003 levels deep/);
      expect(out.error.where).toBe('line 1, column 5019');
    }
  });

  it('imports deeply nested entries (which JSON.parse accepts) by skipping them as malformed', () => {
    const deep = '{"log":{"entries":[' + '['.repeat(200000) + ']'.repeat(200000) + ']}}';
    const out = importCapture(deep, { allowPartial: true });
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.skipped[0].where).toBe('log.entries[0]');
  });

  it('copies only known fields, so __proto__ and constructor keys change nothing', () => {
    const har = JSON.parse(fixture('mitmproxy.har'));
    const text = JSON.stringify(har).replace('"request":{', '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"request":{"__proto__":{"url":"http://evil/"},');
    const out = importCapture(text);
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges[0].request.url).toBe('http://127.0.0.1:8000/mcp');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out.exchanges[0])).not.toContain('__proto__');
    const noUrl = importCapture('{"log":{"entries":[{"request":{"__proto__":{"url":"u","method":"GET"}},"startedDateTime":"2026-01-01T00:00:00Z"}]}}');
    expect(noUrl.ok).toBe(false);
  });

  // No timed assertion (timings on a shared 2-core machine are noise): a quadratic reader
  // would take minutes here and hit the test's timeout; the bench prints the ratios.
  it('imports a 50 MB event-stream body and a 50 MB base64 body whole', () => {
    const event = `data: ${'x'.repeat(1000)}\n\n`;
    const sse = event.repeat(50_000);
    const b64 = btoa('y'.repeat(3 * 1024 * 1024)).repeat(16);
    const har = { log: { entries: [
      { startedDateTime: '2026-08-01T00:00:00Z', time: 1, request: { method: 'POST', url: 'http://h/mcp', headers: [] },
        response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { mimeType: 'text/event-stream', text: sse } } },
      { startedDateTime: '2026-08-01T00:00:00Z', time: 1, request: { method: 'GET', url: 'http://h/big', headers: [] },
        response: { status: 200, headers: [], content: { mimeType: 'application/octet-stream', text: b64, encoding: 'base64' } } },
    ] } };
    const out = importCapture(JSON.stringify(har));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.exchanges[0].response?.events).toHaveLength(50_000);
    expect(out.exchanges[1].response?.body?.length).toBe(48 * 1024 * 1024);
  }, 120_000);
});
