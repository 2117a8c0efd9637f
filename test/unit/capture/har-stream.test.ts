// The chunked HAR reader finds exactly the entries (and envelope) splitHarEntries finds in
// the whole text, however the bytes are cut, and declines whenever it declines; importing
// a file chunk by chunk gives importCapture's outcome on its text.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitHarEntries } from '../../../worker/capture/har-entries.js';
import { HarEntryStream } from '../../../worker/capture/har-stream.js';
import { importCapture, importHarChunks } from '../../../worker/capture/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** The bytes cut at the given offsets (sorted, clamped, repeats allowed: empty chunks). */
function cut(b: Uint8Array, at: readonly number[]): Uint8Array[] {
  const points = [...at.map((x) => x % (b.length + 1))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(b.subarray(from, p));
    from = p;
  }
  out.push(b.subarray(from));
  return out;
}

/** The chunks decoded as one stream, as the CLI decodes a file it reads in pieces. */
function decoded(chunks: Uint8Array[]): string[] {
  const d = new TextDecoder('utf-8', { ignoreBOM: true });
  return [...chunks.map((c) => d.decode(c, { stream: true })), d.decode()];
}

/** What the stream makes of the chunks: the entries and the envelope, or null. */
function streamed(chunks: Uint8Array[]): { entries: unknown[]; envelope: unknown } | null {
  const entries: unknown[] = [];
  const s = new HarEntryStream((value, i) => {
    expect(i).toBe(entries.length);
    entries.push(value);
    return true;
  });
  for (const c of decoded(chunks)) if (!s.push(c)) return null;
  const end = s.end();
  if (end === null) return null;
  expect(end.entries).toBe(entries.length);
  return { entries, envelope: end.envelope };
}

/** What importCapture's fast path makes of the whole text (splitHarEntries, then each
 *  entry parsed), in the same form; null where it declines. */
function whole(text: string): { entries: unknown[]; envelope: unknown } | null {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.charCodeAt(0) !== 123) return null;
  const split = splitHarEntries(body);
  if (!split) return null;
  try {
    return { entries: split.spans.map(([s, e]) => JSON.parse(body.slice(s, e))), envelope: split.envelope };
  } catch {
    return null;
  }
}

const documents = [
  JSON.stringify({ log: { version: '1.2', creator: { name: 'n' }, entries: [{ a: 'x"y\\', b: [1, { c: '}]' }] }, 'scalar', 3, null, { s: '\\\\"' }], pages: [] } }, null, 1),
  '{"log":{"entries":[]}}',
  '{ "log" : { "entries" : [ {"x":1} , {"y":2} ] , "version":"1.2"}, "z": {"log": {"entries": [9]}} }',
  '\ufeff{"log":{"entries":[{"k":"é€𝄞"}]}}',
  '\ufeff\ufeff{"log":{"entries":[]}}',
  '{"log":{"entries":[1]},"log":{"entries":[2]}}',
  '{"log":{"entries":[1],"entries":[2]}}',
  '{"log":{"entries":{}}}',
  '{"log":{"entries":[{"a":1},]}}',
  '{"log":{"entries":[{"a":"unterminated}]}}',
  '{"log":{"entries":[{"a":1}]}',
  '{"log":{"entries":[1]}} trailing',
  ' {"log":{"entries":[1]}}',
  '[1]',
  '',
];

describe('HarEntryStream', () => {
  it('agrees with splitHarEntries on every document, cut at every byte', () => {
    for (const doc of documents) {
      const b = bytes(doc);
      const want = whole(doc);
      expect(streamed([b]), doc).toEqual(want);
      for (let i = 0; i <= b.length; i++) expect(streamed(cut(b, [i])), `${doc} cut at ${i}`).toEqual(want);
    }
  });

  it('agrees with splitHarEntries on arbitrary entry lists and cuts, multi-byte characters included (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }),
      (entries, pretty, at) => {
        const doc = { log: { version: '1.2', comment: 'ü"\\', entries, pages: [{ t: '𝄞' }] } };
        const text = pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
        const got = streamed(cut(bytes(text), at));
        expect(got).toEqual(whole(text));
        expect(got!.entries).toEqual(JSON.parse(text).log.entries);
      },
    ), { numRuns: 300 });
  });

  it('reads a big entry cut in many small chunks', () => {
    const body = 'x'.repeat(3_000_000) + '\\"' + 'y'.repeat(1000);
    const doc = JSON.stringify({ log: { entries: [{ request: { postData: { text: body } } }, { b: 1 }] } });
    const b = bytes(doc);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < b.length; i += 4096) chunks.push(b.subarray(i, i + 4096));
    const got = streamed(chunks)!;
    expect(got.entries).toEqual(JSON.parse(doc).log.entries);
  });

  it('parses runs of entries in batches, and gets the same entries when a batch guess is wrong or an entry is broken (property)', () => {
    const entry = fc.record({ startedDateTime: fc.string(), request: fc.jsonValue({ maxDepth: 3 }), n: fc.integer() });
    // A trap: an inner object that starts like an entry, so the seam also matches inside it.
    const trap = fc.constant({ startedDateTime: 't', inner: [{ startedDateTime: 'x' }, { startedDateTime: 'y' }] });
    fc.assert(fc.property(
      fc.array(fc.oneof({ arbitrary: entry, weight: 8 }, trap), { minLength: 3, maxLength: 30 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(),
      (entries, pretty, at, broken) => {
        let text = JSON.stringify({ log: { version: '1.2', entries } }, null, pretty ? 2 : undefined);
        if (broken) text = text.replace(/"n": ?(-?\d+)/, '"n": 0$1'); // a leading zero: not JSON
        const chunks = cut(bytes(text), at);
        expect(streamed(chunks)).toEqual(whole(text));
      },
    ), { numRuns: 300 });
    const many = JSON.stringify({ log: { entries: Array.from({ length: 50 }, (_, n) => ({ startedDateTime: `t${n}`, request: { headers: [{ name: 'a', value: 'b' }] } })) } });
    const s = new HarEntryStream(() => true);
    s.push(many);
    expect(s.end()?.entries).toBe(50);
    expect(s.batched).toBeGreaterThan(40);
  });

  it('declines when an entry is refused, and stays declined', () => {
    const s = new HarEntryStream(() => false);
    expect(s.push('{"log":{"entries":[{"a":1},')).toBe(false);
    expect(s.push('{"b":2}]}}')).toBe(false);
    expect(s.end()).toBeNull();
  });
});

describe('importHarChunks', () => {
  it.each(['producers/chrome.har', 'producers/firefox.har', 'producers/playwright.har', 'producers/mitmproxy.har', 'sdk/sdk-v2-auto.har', 'sdk/legacy-2025.har'])('gives importCapture\'s outcome for %s, read in 1 KB chunks', (name) => {
    const text = readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');
    const b = bytes(text);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < b.length; i += 1024) chunks.push(b.subarray(i, i + 1024));
    expect(importHarChunks(decoded(chunks))).toEqual(importCapture(text));
  });

  it('declines what is not a plain HAR, for importCapture to read: JSONL, damaged HARs', () => {
    expect(importHarChunks(['{"kind":"mrtr-inspector-capture","version":1}\n{"id":"a"}\n'])).toBeNull();
    expect(importHarChunks(['{"log":{"entries":[{"request":'])).toBeNull();
    expect(importHarChunks(['{"log":{"entries":[{"a":1}]}} x'])).toBeNull();
  });
});
