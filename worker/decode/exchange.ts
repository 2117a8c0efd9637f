// Decoding one raw exchange into JSON-RPC messages, tagged with direction, stream and time.
import type { BodyProblem, DecodedExchange, ExchangeRecord, MessageStream, RpcMessage, SseEventRecord } from '../protocol.js';
import { parseEventStreamText } from '../capture/sse-text.js';
import { eraOf } from './era.js';
import { header, mediaType } from './headers.js';
import { parseMessages } from './jsonrpc.js';

/** The events of a response: recorded ones, or parsed from an event-stream body text. */
export function responseEvents(record: ExchangeRecord): SseEventRecord[] | undefined {
  const res = record.response;
  if (!res) return undefined;
  const isStream = mediaType(header(res.headers, 'content-type')) === 'text/event-stream';
  // Some producers record an empty event list beside a JSON body: the body wins then.
  if (res.events && (res.events.length > 0 || isStream || !res.body)) return res.events;
  if (isStream && res.body) return parseEventStreamText(res.body, res.receivedAt).events;
  return undefined;
}

/** Decodes both sides of an exchange. Never throws: unreadable bodies become problems. */
export function decodeExchange(record: ExchangeRecord): DecodedExchange {
  const seq = record.seq;
  const problems: BodyProblem[] = [];
  const sent: RpcMessage[] = [];
  const received: RpcMessage[] = [];

  const reqBody = record.request.body;
  if (reqBody !== undefined && reqBody.trim() !== '') {
    const place = { exchange: seq, direction: 'client-to-server' as const, stream: 'post-body' as const, t: record.startedAt };
    const { messages, problem } = parseMessages(reqBody, place, 0);
    sent.push(...messages);
    if (problem) problems.push({ exchange: seq, part: 'request', message: problem });
  }

  const res = record.response;
  if (res) {
    const events = responseEvents(record);
    if (events) {
      const stream: MessageStream = record.request.method.toUpperCase() === 'GET' ? 'get-sse' : 'post-sse';
      events.forEach((ev, i) => {
        if (ev.data.trim() === '') return; // priming events and keep-alives carry no message
        const { messages, problem } = parseMessages(ev.data, { exchange: seq, direction: 'server-to-client', stream, t: ev.t }, received.length);
        received.push(...messages);
        if (problem) problems.push({ exchange: seq, part: 'response', message: `event ${i}: ${problem}`, at: i });
      });
    } else if (res.body !== undefined && res.body.trim() !== '') {
      const type = mediaType(header(res.headers, 'content-type'));
      const looksJson = type === 'application/json' || type.endsWith('+json') || /^\s*[[{]/.test(res.body.slice(0, 64));
      if (looksJson) {
        const t = record.endedAt ?? res.receivedAt;
        const { messages, problem } = parseMessages(res.body, { exchange: seq, direction: 'server-to-client', stream: 'post-json', t }, 0);
        // A plain-JSON error page (e.g. {"error":"…"} from a proxy) is not JSON-RPC: keep
        // the problem but do not invent a message for it.
        if (problem) problems.push({ exchange: seq, part: 'response', message: problem });
        received.push(...messages);
      } else if (res.status < 300) {
        problems.push({ exchange: seq, part: 'response', message: `response body is ${type || 'untyped'}, not JSON or an event stream` });
      }
    }
  }
  const responseEmpty = res !== undefined && (res.body ?? '') === '' && (res.events ?? []).length === 0 && !res.tail;
  return { seq, era: eraOf(record, sent), sent, received, problems, responseEmpty };
}
