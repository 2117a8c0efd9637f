// The per-entry fast path of HAR import finds exactly the entries a whole-document parse
// finds, and declines (so the careful path runs) whenever the document is unusual.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitHarEntries } from '../../../worker/capture/har-entries.js';

const spansOf = (text: string) => splitHarEntries(text)?.spans.map(([s, e]) => JSON.parse(text.slice(s, e)));

describe('splitHarEntries', () => {
  it('finds every entry, whatever the strings inside them hold', () => {
    const entries = [{ a: 'x"y\\', b: [1, { c: '}]' }] }, 'scalar', 3, null, { request: { postData: { text: '{"jsonrpc":"2.0","id":1}' } } }];
    const text = JSON.stringify({ log: { version: '1.2', creator: { name: 'n' }, entries, pages: [] } }, null, 1);
    expect(spansOf(text)).toEqual(entries);
    expect(splitHarEntries(text)!.envelope).toEqual({ log: { version: '1.2', creator: { name: 'n' }, entries: [], pages: [] } });
  });

  it('handles an empty entries array and entries before other keys', () => {
    expect(spansOf('{"log":{"entries":[]}}')).toEqual([]);
    expect(spansOf('{ "log" : { "entries" : [ {"x":1} , {"y":2} ] , "version":"1.2"}, "z": {"log": {"entries": [9]}} }')).toEqual([{ x: 1 }, { y: 2 }]);
  });

  it('declines duplicate keys, a missing array and broken JSON, leaving them to the careful path', () => {
    expect(splitHarEntries('{"log":{"entries":[1]},"log":{"entries":[2]}}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":[1],"entries":[2]}}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":{}}}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":[{"a":1},]}}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":[{"a":"unterminated}]}}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":[{"a":1}]}')).toBeNull();
    expect(splitHarEntries('{"log":{"entries":[1]}} trailing')).toBeNull();
  });

  it('agrees with JSON.parse on arbitrary entry lists (property)', () => {
    fc.assert(fc.property(fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 8 }), fc.boolean(), (entries, pretty) => {
      const doc = { log: { version: '1.2', entries } };
      const text = pretty ? JSON.stringify(doc, null, 2) : JSON.stringify(doc);
      expect(spansOf(text)).toEqual(JSON.parse(text).log.entries);
    }), { numRuns: 300 });
  });
});
