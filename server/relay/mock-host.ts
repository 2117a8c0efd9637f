// Mocks the page serves behind the relay ("Serve as mock", docs/guide.md): each is a capture
// the page handed over (page-api.ts, POST mocks), built into worker/mock's book and answered
// by its matcher, reached as target `mock-<name>` (external clients at its relay URL, the
// Console through the page's forwarder). Answers go out as `mock --timing` would: as late as
// recorded (the default), or at once; and strict or not, as `mock --strict` (a retry that
// does not echo the mock's token, or answers a key never asked, is refused). Bounded: at
// most `maxMocks` at a time; the page API bounds each capture's size.
// Hazard: under recorded timing an answer's body is a stream fed by timers; a client that
// goes away cancels it (the relay cancels its reader), and the timers then write nothing.
import { importCapture } from '../../worker/capture/index.js';
import { buildMockBook } from '../../worker/mock/book.js';
import { answerClock, DEFAULT_MOCK_TIMING, httpAnswer, isMockTiming, MOCK_TIMINGS, type MockTiming } from '../../worker/mock/http-answer.js';
import { MockMatcher, type MockOutcome } from '../../worker/mock/matcher.js';
import { summarize, type MockSummary } from '../../worker/mock/summary.js';

export const MOCK_TARGET_PREFIX = 'mock-';
/** A mock's name: what follows `mock-` in its target id. */
export const MOCK_NAME = /^[A-Za-z0-9._-]{1,48}$/;
/** Mocks served at once by default. */
export const DEFAULT_MAX_MOCKS = 8;

/** A mismatch as the page lists it. */
export interface MockMismatchView { message: string; reason: string; closest: string | null; diff: string | null }

/** What the page shows of one mock. */
export interface MockView {
  name: string;
  targetId: string;
  /** What it was built from (the session's name). */
  source: string;
  timing: MockTiming;
  /** Refuses a token not echoed and an answer to a key never asked (`mock --strict`). */
  strict: boolean;
  startedAt: number;
  summary: MockSummary;
  mismatches: MockMismatchView[];
}

interface Hosted {
  name: string;
  source: string;
  timing: MockTiming;
  strict: boolean;
  startedAt: number;
  matcher: MockMatcher;
  answered: number;
}

export type StartOutcome = { ok: true; view: MockView } | { ok: false; status: number; error: string };

/** A value the page sent, as an error message quotes it (a long string cut short). */
const given = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v.slice(0, 64) : v ?? null);

function jsonRpcError(status: number, id: unknown, code: number, message: string, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }), { status, headers: { 'content-type': 'application/json' } });
}

/** The answer as a web Response, its head as late as recorded under `recorded` timing and
 *  its body's parts each at their time. */
async function answerResponse(outcome: Extract<MockOutcome, { kind: 'answer' }>, timing: MockTiming): Promise<Response> {
  const answer = httpAnswer(outcome, timing);
  const wait = answerClock(timing);
  await wait(answer.headAt);
  const init = { status: answer.status, headers: answer.headers };
  if (answer.parts.length === 0) return new Response(null, init); // 204, 304
  // A JSON answer's body goes with its head (its time is the head's).
  if (!answer.stream) return new Response(answer.parts[0].text, init);
  const encoder = new TextEncoder();
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const part = answer.parts[next++];
      if (!part) return controller.close();
      await wait(part.at);
      if (cancelled) return;
      controller.enqueue(encoder.encode(part.text));
      if (next === answer.parts.length) controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body, init);
}

export class MockHost {
  readonly #mocks = new Map<string, Hosted>();
  readonly #max: number;

  constructor(maxMocks = DEFAULT_MAX_MOCKS) {
    this.#max = maxMocks;
  }

  /** The name of target `targetId` when it is a mock served now. */
  nameOf(targetId: string): string | undefined {
    if (!targetId.startsWith(MOCK_TARGET_PREFIX)) return undefined;
    const name = targetId.slice(MOCK_TARGET_PREFIX.length);
    return this.#mocks.has(name) ? name : undefined;
  }

  names(): string[] {
    return [...this.#mocks.keys()];
  }

  /** Builds a mock from a capture's text (JSONL or HAR) and serves it as `mock-<name>`,
   *  its answers paced by `timing` (recorded when not given), strict when `strict` is true. */
  start(name: unknown, capture: unknown, source: unknown, opts: { timing?: unknown; strict?: unknown } = {}): StartOutcome {
    const { timing, strict } = opts;
    if (typeof name !== 'string' || !MOCK_NAME.test(name)) return { ok: false, status: 400, error: `The mock's "name" must be 1-48 letters, digits, ".", "_" or "-" (it becomes the target mock-<name>); got ${given(name)}.` };
    if (this.#mocks.has(name)) return { ok: false, status: 409, error: `A mock named "${name}" is already served (target ${MOCK_TARGET_PREFIX}${name}). Stop serving it first, or pick another name.` };
    if (this.#mocks.size >= this.#max) return { ok: false, status: 429, error: `${this.#max} mocks are served already, the most at once; stop one first (${this.names().join(', ')}).` };
    if (timing !== undefined && !isMockTiming(timing)) return { ok: false, status: 400, error: `The mock's "timing" must be ${MOCK_TIMINGS.map((t) => `"${t}"`).join(' or ')} ("recorded", the default, sends each answer and stream event as late as recorded; "fast" at once); got ${given(timing)}.` };
    if (strict !== undefined && typeof strict !== 'boolean') return { ok: false, status: 400, error: `The mock's "strict" must be true or false (true refuses a retry that does not echo the mock's token, or answers a key never asked; false, the default, serves it with a warning); got ${given(strict)}.` };
    if (typeof capture !== 'string' || capture.trim() === '') return { ok: false, status: 400, error: 'The mock\'s "capture" must be the capture as text (JSONL or HAR, as the page exports it).' };
    const imported = importCapture(capture, { allowPartial: false });
    if (!imported.ok) return { ok: false, status: 400, error: `The capture for mock "${name}" could not be read: ${imported.error.where ? `${imported.error.where}: ` : ''}${imported.error.message}` };
    const book = buildMockBook(imported.exchanges);
    if (book.calls.length === 0) return { ok: false, status: 400, error: `Nothing to serve as mock "${name}": the capture holds no JSON-RPC requests.` };
    const hosted: Hosted = { name, source: typeof source === 'string' && source ? source.slice(0, 200) : name, timing: timing ?? DEFAULT_MOCK_TIMING, strict: strict === true, startedAt: Date.now(), matcher: new MockMatcher(book, { strict: strict === true }), answered: 0 };
    this.#mocks.set(name, hosted);
    return { ok: true, view: this.#view(hosted) };
  }

  /** Stops serving `name`; false when no such mock is served. */
  stop(name: string): boolean {
    return this.#mocks.delete(name);
  }

  view(name: string): MockView | undefined {
    const m = this.#mocks.get(name);
    return m && this.#view(m);
  }

  views(): MockView[] {
    return [...this.#mocks.values()].map((m) => this.#view(m));
  }

  /** Answers one request to mock `name` as its HTTP endpoint would (POST only, no sessions). */
  async fetch(name: string, req: Request): Promise<Response> {
    const m = this.#mocks.get(name);
    if (!m) return jsonRpcError(404, null, -32000, `The mock "${name}" is no longer served.`);
    if (req.method !== 'POST') {
      const res = jsonRpcError(405, null, -32000, 'Method not allowed: the mock answers POST only.');
      res.headers.set('allow', 'POST');
      return res;
    }
    let message: unknown;
    try {
      message = JSON.parse(await req.text());
    } catch (err) {
      return jsonRpcError(400, null, -32700, `Parse error: the body is not JSON (${(err as Error).message})`);
    }
    const outcome = m.matcher.handle(message);
    if (outcome.kind === 'accepted') return new Response(null, { status: 202 });
    if (outcome.kind === 'mismatch') return jsonRpcError(200, outcome.id, outcome.error.code, outcome.error.message, outcome.error.data);
    m.answered++;
    return answerResponse(outcome, m.timing);
  }

  close(): void {
    this.#mocks.clear();
  }

  #view(m: Hosted): MockView {
    return {
      name: m.name, targetId: `${MOCK_TARGET_PREFIX}${m.name}`, source: m.source, timing: m.timing, strict: m.strict, startedAt: m.startedAt,
      summary: summarize(m.matcher, m.source, m.answered),
      mismatches: m.matcher.mismatchDetails.map((d) => ({ message: d.message, reason: d.reason, closest: d.closest ?? null, diff: d.diff ?? null })),
    };
  }
}
