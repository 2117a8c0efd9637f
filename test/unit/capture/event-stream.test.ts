import { describe, expect, it } from 'vitest';
import { parseEventStreamText, serializeEventStream } from '../../../worker/capture/index.js';
import type { SseEventRecord } from '../../../worker/protocol.js';

describe('event-stream text', () => {
  it('parses events, joins multi-line data, ignores comments and stamps every event with t', () => {
    const text = ': keep-alive\n\nevent: message\ndata: {"a":1}\n\ndata: line one\ndata: line two\nid: 7\n\n';
    expect(parseEventStreamText(text, 42)).toEqual({
      events: [
        { t: 42, event: 'message', data: '{"a":1}' },
        { t: 42, data: 'line one\nline two', id: '7' },
      ],
    });
  });

  it('keeps the text of an event cut mid-way in tail, verbatim', () => {
    const text = 'event: message\ndata: {"jsonrpc":"2.0"}\n\nevent: message\ndata: {"jsonrpc":"2.';
    const got = parseEventStreamText(text, 1);
    expect(got.events).toEqual([{ t: 1, event: 'message', data: '{"jsonrpc":"2.0"}' }]);
    expect(got.tail).toBe('event: message\ndata: {"jsonrpc":"2.');
  });

  it('treats a last event whose blank line never came as tail, with CRLF and CR line ends too', () => {
    expect(parseEventStreamText('data: a\r\n\r\ndata: b\r\n', 0)).toEqual({ events: [{ t: 0, data: 'a' }], tail: 'data: b\r\n' });
    expect(parseEventStreamText('data: a\r\rdata: b\r\r', 0)).toEqual({ events: [{ t: 0, data: 'a' }, { t: 0, data: 'b' }] });
    expect(parseEventStreamText('data: a\n\r', 0)).toEqual({ events: [{ t: 0, data: 'a' }] });
  });

  it('returns no events and no tail for an empty body', () => {
    expect(parseEventStreamText('', 0)).toEqual({ events: [] });
  });

  it('attaches a retry field to its event', () => {
    expect(parseEventStreamText('retry: 3000\nid: p\ndata: \n\n', 5).events).toEqual([{ t: 5, id: 'p', retry: 3000, data: '' }]);
  });

  it('serializes events and tail to text that parses back to the same events and tail', () => {
    const events: SseEventRecord[] = [
      { t: 9, event: 'message', data: '{"x":"multi\nline"}' },
      { t: 9, data: '', id: '' },
      { t: 9, data: '  leading spaces', retry: 10 },
    ];
    const text = serializeEventStream(events, 'data: {"cut');
    expect(parseEventStreamText(text, 9)).toEqual({ events, tail: 'data: {"cut' });
  });
});
