// A served answer as an HTTP response, and when each part of it goes out: one shape for
// the CLI's endpoint (node:http) and the relay's mocks (a web Response), so the two send the
// same head and keep the same time. Timers only, no node:*: it runs in either host.
import { sseFrame } from './answer.js';
import type { MockOutcome } from './matcher.js';

/** When a mock's answers go out: `recorded`, each answer's head and each stream event as
 *  late after the request as recorded; `fast`, at once (a stream in one write). */
export type MockTiming = 'recorded' | 'fast';
export const MOCK_TIMINGS: readonly MockTiming[] = ['recorded', 'fast'];
/** The CLI's `--timing` default, and the relay's when the page names none. */
export const DEFAULT_MOCK_TIMING: MockTiming = 'recorded';

export function isMockTiming(v: unknown): v is MockTiming {
  return typeof v === 'string' && (MOCK_TIMINGS as readonly string[]).includes(v);
}

/** Response headers a recording carries that belong to its connection, not to the answer. */
const DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'mcp-session-id', 'content-encoding']);

/** What goes out for one answer. */
export interface HttpAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** ms after the request that the head goes out, as recorded. */
  headAt: number;
  stream: boolean;
  /** The body: a JSON answer's text, or a frame per event, each with its time (ms after the
   *  request); under `fast`, a stream's frames are one part. Empty for 204 and 304. */
  parts: { at: number; text: string }[];
}

/** The answer's HTTP form under `timing`. */
export function httpAnswer(outcome: Extract<MockOutcome, { kind: 'answer' }>, timing: MockTiming): HttpAnswer {
  const r = outcome.recorded;
  const headers: Record<string, string> = {};
  for (const h of r.headers) if (!DROPPED.has(h.name.toLowerCase())) headers[h.name.toLowerCase()] = h.value;
  // A stdio recording's answer comes as lines: over HTTP, several messages need a stream.
  const stream = r.stream || outcome.messages.length > 1;
  if (stream) headers['content-type'] = 'text/event-stream';
  else if (outcome.messages.length > 0 && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
  const status = r.status || 200;
  let parts: HttpAnswer['parts'];
  if (status === 204 || status === 304) parts = [];
  else if (!stream) parts = [{ at: r.headAt, text: outcome.messages[0]?.text ?? '' }];
  // Fast: the whole stream in one write (one packet where it fits, no wait on the peer's ACK).
  else if (timing === 'fast') parts = [{ at: r.headAt, text: outcome.messages.map(sseFrame).join('') }];
  else parts = outcome.messages.map((m) => ({ at: m.at, text: sseFrame(m) }));
  return { status, headers, headAt: r.headAt, stream, parts };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One answer's clock, started when its request is matched: under `recorded`, `wait(at)`
 *  sleeps the recorded gap since the last part's time, so each part goes out no earlier than
 *  `at` ms after the start; under `fast` it resolves at once. */
export function answerClock(timing: MockTiming): (at: number) => Promise<void> {
  let clock = 0;
  return async (at) => {
    if (timing === 'recorded' && at > clock) await sleep(at - clock);
    clock = Math.max(clock, at);
  };
}
