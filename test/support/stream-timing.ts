// Timing a mock's streamed answer from the client's side, for the tests of `mock --timing`
// (the CLI's endpoint, the relay's mocks, the page): a capture of one streamed answer with
// its events recorded a set gap apart, and a reader that notes when each event arrived.
import { exportJsonl } from '../../worker/capture/jsonl.js';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { capture } from './capture-builder.js';

/** The one call of `streamedRecords`, as a client sends it (its own progress token). */
export const STREAMED_CALL = { name: 'slow_report', arguments: {} };

/** One tools/call answered over SSE with two progress notifications and the result, the
 *  three events recorded `gap` ms apart. */
export function streamedRecords(gap: number): ExchangeRecord[] {
  const b = capture();
  b.call('tools/call', { ...STREAMED_CALL, _meta: { progressToken: 'p1' } })
    .sse([1, 2].map((progress) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress, total: 2 } })))
    .complete();
  const [record] = b.build();
  const res = record.response!;
  res.events = res.events!.map((e, i) => ({ ...e, t: res.receivedAt + i * gap }));
  record.endedAt = res.receivedAt + 2 * gap + 1;
  return [record];
}

/** `streamedRecords` as the JSONL text the page hands the relay. */
export const streamedCapture = (gap: number): string => exportJsonl(streamedRecords(gap));

/** What a streamed answer gave: each event's arrival and message. Arrivals are ms after the
 *  request was sent: an event can be read late (a loaded machine) but never early, so only
 *  "no earlier than recorded" holds whatever the load, never a gap between two reads. */
export interface TimedStream {
  contentType: string | null;
  times: number[];
  messages: { id?: unknown; method?: string; params?: { progressToken?: unknown }; result?: unknown }[];
}

/** POSTs `body` to `url` and reads the answer's events as they arrive. */
export async function timedStream(url: string, body: string, headers: Record<string, string> = {}): Promise<TimedStream> {
  const sent = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const arrived: number[] = [];
  const messages: TimedStream['messages'] = [];
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now();
    text += decoder.decode(value, { stream: true });
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const data = text.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      text = text.slice(end + 2);
      arrived.push(now);
      messages.push(data ? (JSON.parse(data) as TimedStream['messages'][number]) : {});
    }
  }
  return { contentType: res.headers.get('content-type'), times: arrived.map((t) => t - sent), messages };
}
