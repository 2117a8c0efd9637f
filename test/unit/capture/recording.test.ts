import { describe, expect, it } from 'vitest';
import { EventStreamReader, ResponseRecording } from '../../../worker/capture/index.js';
import type { SseEventRecord } from '../../../worker/protocol.js';

// An independent reading of the SSE line grammar, for the expectations only: where each
// event is dispatched (the byte offset of the blank line's terminator) and the cut tail.
function reference(text: string): { events: Omit<SseEventRecord, 't'>[]; at: number[]; tail: string } {
  const enc = new TextEncoder();
  const events: Omit<SseEventRecord, 't'>[] = [];
  const at: number[] = [];
  let data: string[] | null = null;
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  let cut = 0;
  const line = /([^\r\n]*)(\r\n|\r|\n)/g;
  for (let m = line.exec(text); m; m = line.exec(text)) {
    const body = m[1];
    const termAt = m.index + body.length;
    if (body === '') {
      cut = termAt + m[2].length;
      if (data) {
        const e: Omit<SseEventRecord, 't'> = { data: data.join('\n') };
        if (event) e.event = event;
        if (id !== undefined) e.id = id;
        if (retry !== undefined) e.retry = retry;
        retry = undefined;
        events.push(e);
        at.push(enc.encode(text.slice(0, termAt)).length);
      }
      data = null;
      event = undefined;
      continue;
    }
    if (body.startsWith(':')) continue;
    const colon = body.indexOf(':');
    const field = colon < 0 ? body : body.slice(0, colon);
    let value = colon < 0 ? '' : body.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') (data ??= []).push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  }
  return { events, at, tail: text.slice(cut) };
}

const STREAMS: Record<string, string> = {
  'LF': 'event: message\ndata: {"a":1}\n\ndata: two\ndata: lines\nid: 7\n\n',
  'CRLF': 'event: message\r\ndata: {"a":1}\r\n\r\ndata: x\r\n\r\n',
  'CR': 'data: a\r\rdata: b\rid: 2\r\r',
  'mixed terminators': 'data: a\r\n\ndata: b\n\r\ndata: c\r\r\n',
  'multi-byte UTF-8': 'data: héllo wörld\n\ndata: 😀 and 漢字\r\n\r\n',
  'retry and comments': ': keep-alive\n\nretry: 3000\n\n: note\ndata: after retry\n\nretry: 10\nid: r\ndata: own\n\n',
  'cut mid-event': 'data: done\n\nevent: message\ndata: {"cut":"é',
  'cut after a CR': 'data: one\r\rdata: two\r',
};

// Feeds `bytes` cut at `cuts`; the clock reads the index of the chunk being fed.
function record(bytes: Uint8Array, cuts: number[], state: 'complete' | 'aborted' = 'complete') {
  let clock = -1;
  const seen: SseEventRecord[] = [];
  const rec = new ResponseRecording({ status: 200, statusText: 'OK', headers: new Headers({ 'content-type': 'text/event-stream; charset=utf-8' }) }, {
    now: () => clock,
    onEvent: (e) => seen.push(e),
  });
  const bounds = [0, ...cuts, bytes.length];
  for (let i = 0; i + 1 < bounds.length; i++) {
    clock = i;
    rec.chunk(bytes.subarray(bounds[i], bounds[i + 1]));
  }
  clock = 99;
  return { rec, seen, end: rec.end(state, state === 'aborted' ? 'cut by the test' : undefined) };
}

// The chunk that holds byte `at`, for cuts `cuts`: the time its event must carry.
function chunkOf(at: number, cuts: number[]): number {
  return cuts.filter((c) => c <= at).length;
}

describe('recording an event stream', () => {
  for (const [name, text] of Object.entries(STREAMS)) {
    it(`records the same events, times and tail for every split of a stream (${name})`, () => {
      const bytes = new TextEncoder().encode(text);
      const want = reference(text);
      const splits: number[][] = [[]];
      for (let k = 1; k < bytes.length; k++) splits.push([k]);
      // Three pieces too, around each terminator pair (where the parser's hazards are).
      for (let k = 1; k < bytes.length; k++) for (let j = k + 1; j < Math.min(bytes.length, k + 4); j++) splits.push([k, j]);
      for (const cuts of splits) {
        const { rec, seen, end } = record(bytes, cuts);
        const got = rec.events.map(({ t: _t, ...e }) => e);
        expect(got, `cuts ${cuts}`).toEqual(want.events);
        expect(rec.events.map((e) => e.t), `times, cuts ${cuts}`).toEqual(want.at.map((a) => chunkOf(a, cuts)));
        expect(seen).toEqual(rec.events);
        expect(end.tail ?? '', `tail, cuts ${cuts}`).toBe(want.tail);
      }
    });
  }

  it('dispatches an event that ends a chunk with CR CR although the next chunk has no line break', () => {
    // eventsource-parser 3.1.1 alone loses this event when the stream ends after "data: b".
    const { rec, end } = record(new TextEncoder().encode('data: a\r\rdata: b'), [9]);
    expect(rec.events).toEqual([{ t: 0, data: 'a' }]);
    expect(end.tail).toBe('data: b');
  });

  it('keeps retry on the next event, not on a block that dispatches nothing', () => {
    const { rec } = record(new TextEncoder().encode('retry: 500\n\ndata: x\n\ndata: y\n\n'), [3]);
    expect(rec.events.map(({ t: _t, ...e }) => e)).toEqual([{ data: 'x', retry: 500 }, { data: 'y' }]);
  });

  it('records an aborted stream with the events so far and the cut text as its tail', () => {
    const bytes = new TextEncoder().encode('data: 1\n\ndata: {"x":"漢');
    // Cut inside the last 3-byte character: the decoder's flush leaves a replacement char.
    const { rec, end } = record(bytes.subarray(0, bytes.length - 1), [4], 'aborted');
    expect(rec.events).toEqual([{ t: 1, data: '1' }]);
    expect(end).toEqual({ state: 'aborted', endedAt: 99, error: 'cut by the test', tail: 'data: {"x":"\uFFFD' });
  });

  it('ends once: a second end returns the first and later chunks are ignored', () => {
    const { rec, end } = record(new TextEncoder().encode('data: 1\n\n'), []);
    rec.chunk(new TextEncoder().encode('data: 2\n\n'));
    expect(rec.end('aborted', 'late')).toBe(end);
    expect(rec.events).toHaveLength(1);
  });
});

describe('recording a plain body', () => {
  it('decodes the whole body the same for every split, multi-byte characters included', () => {
    const text = '{"jsonrpc":"2.0","result":{"text":"héllo 😀 漢字"}}';
    const bytes = new TextEncoder().encode(text);
    for (let k = 0; k <= bytes.length; k++) {
      let clock = 5;
      const rec = new ResponseRecording({ status: 200, statusText: '', headers: new Headers({ 'content-type': 'application/json' }) }, { now: () => clock });
      rec.chunk(bytes.subarray(0, k));
      rec.chunk(bytes.subarray(k));
      clock = 8;
      expect(rec.end('complete')).toEqual({ state: 'complete', endedAt: 8, body: text });
      expect(rec.head).toEqual({ status: 200, headers: [{ name: 'content-type', value: 'application/json' }], receivedAt: 5 });
      expect(rec.eventStream).toBe(false);
    }
  });
});

describe('EventStreamReader', () => {
  it('tracks the tail linearly over a long event fed one character at a time', () => {
    const r = new EventStreamReader(() => undefined);
    const data = 'data: ' + 'x'.repeat(200_000);
    const t0 = performance.now();
    for (const ch of data) r.feed(ch, 0);
    expect(r.tail).toBe(data);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});
