// Decoding one raw exchange into JSON-RPC messages, tagged with direction, stream and time.
import type { BodyProblem, DecodedExchange, ExchangeRecord, MessageStream, RpcMessage, SseEventRecord } from '../protocol.js';
import { parseEventStreamText } from '../capture/event-stream.js';
import { eraOf } from './era.js';
import { header, mediaType } from './headers.js';
import { parseMessages } from './jsonrpc.js';

/** The events of a response: recorded ones, or parsed from an event-stream body text. */
export function responseEvents(record: Pick<ExchangeRecord, 'response'>): SseEventRecord[] | undefined {
  const res = record.response;
  return res ? eventsOf(res, mediaType(header(res.headers, 'content-type'))) : undefined;
}

function eventsOf(res: NonNullable<ExchangeRecord['response']>, type: string): SseEventRecord[] | undefined {
  const isStream = type === 'text/event-stream';
  // Some producers record an empty event list beside a JSON body: the body wins then.
  if (res.events && (res.events.length > 0 || isStream || !res.body)) return res.events;
  if (isStream && res.body) return parseEventStreamText(res.body, res.receivedAt).events;
  return undefined;
}

/** Decodes both sides of an exchange. Never throws: unreadable bodies become problems.
 *  Hazard (memory): decoded exchanges of a whole capture stay alive, and an array grown by
 *  push keeps room for 17 items; so `sent` and `received` are parseMessages' own exact-size
 *  arrays where one body gives them, and copied to size where several events do. */
export function decodeExchange(record: ExchangeRecord): DecodedExchange {
  const seq = record.seq;
  const problems: BodyProblem[] = [];
  let sent: RpcMessage[] = [];
  let received: RpcMessage[] = [];

  const reqBody = record.request.body;
  if (reqBody !== undefined && reqBody.trim() !== '') {
    const place = { exchange: seq, direction: 'client-to-server' as const, stream: 'post-body' as const, t: record.startedAt };
    const { messages, problem } = parseMessages(reqBody, place, 0);
    sent = messages;
    if (problem) problems.push({ exchange: seq, part: 'request', message: problem });
  }

  const res = record.response;
  if (res) {
    const type = mediaType(header(res.headers, 'content-type'));
    const events = eventsOf(res, type);
    if (events) {
      const stream: MessageStream = record.request.method.toUpperCase() === 'GET' ? 'get-sse' : 'post-sse';
      const all: RpcMessage[] = [];
      for (let i = 0; i < events.length; i++) {
        const ev = events[i];
        if (ev.data.trim() === '') continue; // priming events and keep-alives carry no message
        const { messages, problem } = parseMessages(ev.data, { exchange: seq, direction: 'server-to-client', stream, t: ev.t }, all.length);
        for (const m of messages) all.push(m);
        if (problem) problems.push({ exchange: seq, part: 'response', message: `event ${i}: ${problem}`, at: i });
      }
      received = all.slice();
    } else if (res.body !== undefined && res.body.trim() !== '') {
      const looksJson = type === 'application/json' || type.endsWith('+json') || /^\s*[[{]/.test(res.body.slice(0, 64));
      if (looksJson) {
        const t = record.endedAt ?? res.receivedAt;
        const { messages, problem } = parseMessages(res.body, { exchange: seq, direction: 'server-to-client', stream: 'post-json', t }, 0);
        // A plain-JSON error page (e.g. {"error":"…"} from a proxy) is not JSON-RPC: keep
        // the problem but do not invent a message for it.
        if (problem) problems.push({ exchange: seq, part: 'response', message: problem });
        received = messages;
      } else if (res.status < 300) {
        problems.push({ exchange: seq, part: 'response', message: `response body is ${type || 'untyped'}, not JSON or an event stream` });
      }
    }
  }
  const responseEmpty = res !== undefined && (res.body ?? '') === '' && (res.events ?? []).length === 0 && !res.tail;
  return { seq, era: eraOf(record, sent), sent, received, problems, responseEmpty };
}

/**
 * Drops a decoded record's body texts (request and response bodies, events, tail): nothing
 * in the analysis reads them after decodeExchange, and a big capture should not be held
 * twice, as text and as message trees. For hosts that show no raw bodies (the CLI).
 * Hazard: mutates the record; each body-carrying `request`/`response` is replaced by a copy
 * without them (new objects rather than `delete`, which would make 100k slow dictionaries).
 */
export function releaseBodies(record: ExchangeRecord): void {
  const q = record.request;
  if (q.body !== undefined) record.request = { method: q.method, url: q.url, headers: q.headers };
  const res = record.response;
  if (res && (res.body !== undefined || res.events !== undefined || res.tail !== undefined)) {
    const kept: NonNullable<ExchangeRecord['response']> = { status: res.status, headers: res.headers, receivedAt: res.receivedAt };
    if (res.statusText !== undefined) kept.statusText = res.statusText;
    record.response = kept;
  }
}
