// An acknowledgement rewrites the relay's capture file (server/relay/capture-file.ts): the
// lines of ids not acknowledged are copied as they are, read for their id only (`lineId`),
// not parsed; a line that does not start as the relay writes it is parsed, as before.
// The rewrite itself, on the relay's own lines: backlog-ack.test.ts.
import { describe, expect, it } from 'vitest';
import { jsonlHeader, lineId } from '../../../server/relay/capture-file.ts';

describe('the id of a capture file line, without a parse', () => {
  it('reads the id of a line as the relay writes it', () => {
    expect(lineId('{"v":1,"id":"a1b2","seq":0,"state":"complete"}')).toBe('a1b2');
    expect(lineId('{"v":12,"id":"","state":"pending"}')).toBe('');
  });

  it('gives null (parse it) for the header, a line cut short, another key order, and an id with escapes', () => {
    expect(lineId(jsonlHeader())).toBeNull();
    expect(lineId('{"v":1,"id":"a1b2","seq":0,"state":"compl')).toBeNull();
    expect(lineId('{"id":"a1b2","v":1,"state":"complete"}')).toBeNull();
    expect(lineId('{"v":1,"id":"a\\"b","state":"complete"}')).toBeNull();
    expect(lineId('{"v":1,"id":"a\\\\","state":"complete"}')).toBeNull();
    expect(lineId('{ "v": 1, "id": "a1b2", "state": "complete" }')).toBeNull();
  });
});
