// A fluent builder of ExchangeRecord[] for lint and pipeline tests. Every call is a
// well-formed 2026-07-28 POST by default (headers, `_meta`, new ids, JSON answers); each
// knob breaks exactly one thing, so a test reads as "a good capture, except …".
//
//   const b = capture();
//   const first = b.call('tools/call', { name: 'book', arguments: { city: 'Oslo' } })
//     .inputRequired({ confirm: ask.form('Sure?', { ok: { type: 'boolean' } }) }, 'tok-1');
//   b.retry(first, { confirm: reply.accept({ ok: true }) }).state('tok-X').complete();
//   const records = b.build();
import type { ExchangeRecord, HeaderPair, JsonRpcId, SseEventRecord } from '../../worker/protocol.js';

export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSION = '2025-11-25';
export const CLIENT_INFO = { name: 'capture-builder', version: '1.0.0' };
/** Declares every input kind and mode, so no capability rule fires unless a test narrows it. */
export const ALL_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
export const SERVER_INFO = { name: 'test-server', version: '1.0.0' };

const MRTR = new Set(['tools/call', 'prompts/get', 'resources/read']);

type Json = Record<string, unknown>;

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** `=?base64?…?=` for values that are not plain visible ASCII (shttp:467-520). */
export function headerValue(v: string): string {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v) && !v.startsWith('=?base64?')) return v;
  return `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

/** Embedded input requests, as servers put them in `inputRequests`. */
export const ask = {
  form(message: string, properties: Json, required?: string[]): Json {
    return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) } } };
  },
  url(message: string, url: string): Json {
    return { method: 'elicitation/create', params: { mode: 'url', message, url } };
  },
  sampling(text: string, extra: Json = {}): Json {
    return { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100, ...extra } };
  },
  roots(): Json {
    return { method: 'roots/list', params: {} };
  },
};

/** Bare InputResponse values, as clients put them in `inputResponses`. */
export const reply = {
  accept(content: Json = {}): Json {
    return { action: 'accept', content };
  },
  decline(): Json {
    return { action: 'decline' };
  },
  cancel(): Json {
    return { action: 'cancel' };
  },
  sampling(text = 'Paris.'): Json {
    return { role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' };
  },
  roots(...uris: string[]): Json {
    return { roots: uris.map((uri) => ({ uri })) };
  },
};

export interface CaptureOptions {
  /** Epoch ms of the first request (default 2026-11-30T12:00:00Z). */
  start?: number;
  /** Gap between consecutive calls, ms (default 1000). */
  step?: number;
  url?: string;
}

/** Starts a capture. */
export function capture(opts: CaptureOptions = {}): CaptureBuilder {
  return new CaptureBuilder(opts);
}

export class CaptureBuilder {
  private readonly calls: Call[] = [];
  private clock: number;
  private nextId = 1;
  readonly step: number;
  readonly url: string;

  constructor(opts: CaptureOptions = {}) {
    this.clock = opts.start ?? Date.parse('2026-11-30T12:00:00Z');
    this.step = opts.step ?? 1000;
    this.url = opts.url ?? 'http://127.0.0.1:3000/mcp';
  }

  /** The time the next call will start at. */
  get now(): number {
    return this.clock;
  }

  /** Moves the clock forward (e.g. past a token's expiry). */
  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  private add(call: Call): Call {
    this.calls.push(call);
    this.clock += this.step;
    return call;
  }

  /** A modern request POST with a fresh id, answered `complete` unless told otherwise. */
  call(method: string, params: Json = {}, id?: JsonRpcId): Call {
    return this.add(new Call(this, this.clock, method, clone(params), id === undefined ? this.nextId++ : id));
  }

  /**
   * The retry of `of`: same method and params, a new id, the requestState `of` was
   * answered with (if any), and `inputResponses` when given.
   */
  retry(of: Call, inputResponses?: Json): Call {
    const params = clone(of.baseParams);
    delete params.inputResponses;
    delete params.requestState;
    const call = this.call(of.method, params);
    call.capabilities(of.caps);
    if (of.issuedState !== undefined) call.state(of.issuedState);
    if (inputResponses !== undefined) call.responses(inputResponses);
    return call;
  }

  /** A notification POST, answered 202 with no body. */
  notification(method: string, params: Json = {}): Call {
    const call = this.add(new Call(this, this.clock, method, clone(params), undefined));
    return call.accepted();
  }

  /** A POST with a raw JSON-RPC body (e.g. a client response), answered 202 with no body. */
  post(body: unknown): Call {
    const call = this.add(new Call(this, this.clock, '', {}, undefined));
    call.rawBody(typeof body === 'string' ? body : JSON.stringify(body));
    return call.accepted();
  }

  build(): ExchangeRecord[] {
    return this.calls.map((c, seq) => c.toRecord(seq));
  }
}

interface AnswerPlan {
  status: number;
  contentType: string | null;
  /** The answer's own messages (normally the one response). */
  messages: unknown[];
  /** SSE only: messages before and after the response. */
  before: unknown[];
  after: unknown[];
  sse: boolean;
  /** Extra response headers. */
  headers: HeaderPair[];
  none: boolean;
}

export class Call {
  private readonly headerEdits = new Map<string, string | null>();
  private metaPatch: Json | null | undefined = {};
  caps: Json = clone(ALL_CAPABILITIES);
  private body: string | undefined;
  private started: number;
  private duration = 50;
  private clientId: string | undefined;
  private plan: AnswerPlan;
  private version = MODERN_VERSION;
  issuedState: string | undefined;

  constructor(
    private readonly builder: CaptureBuilder,
    start: number,
    readonly method: string,
    readonly baseParams: Json,
    public id: JsonRpcId | undefined,
  ) {
    this.started = start;
    this.plan = { status: 200, contentType: 'application/json', messages: [], before: [], after: [], sse: false, headers: [], none: false };
    if (id !== undefined) this.complete();
  }

  // ----- request knobs

  /** Sets (or with null drops) a request header; names are matched case-insensitively. */
  header(name: string, value: string | null): this {
    this.headerEdits.set(name.toLowerCase(), value);
    return this;
  }

  /** Patches `_meta` (an undefined value deletes a key); null sends no `_meta` at all. */
  meta(patch: Json | null): this {
    this.metaPatch = patch === null ? null : { ...(this.metaPatch ?? {}), ...patch };
    return this;
  }

  /** The clientCapabilities declared in `_meta`. */
  capabilities(caps: Json): this {
    this.caps = clone(caps);
    return this;
  }

  /** Declares a legacy protocol version in `_meta` and the header. */
  legacy(version = LEGACY_VERSION): this {
    this.version = version;
    return this;
  }

  /** Shallow-patches params (an undefined value deletes the key). */
  params(patch: Json): this {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete this.baseParams[k];
      else this.baseParams[k] = clone(v);
    }
    return this;
  }

  /** Sets the echoed requestState; null removes it. */
  state(token: string | null): this {
    return this.params({ requestState: token === null ? undefined : token });
  }

  responses(map: Json | null): this {
    return this.params({ inputResponses: map === null ? undefined : map });
  }

  /** Uses this JSON-RPC id (e.g. an earlier round's, to reuse it). */
  withId(id: JsonRpcId): this {
    this.id = id;
    for (const m of this.plan.messages) {
      const o = m as Json;
      if (o && typeof o === 'object' && 'id' in o && !('method' in o)) o.id = id;
    }
    return this;
  }

  /** Request start time and how long until the answer arrives (ms). */
  at(start: number, duration = this.duration): this {
    this.started = start;
    this.duration = duration;
    return this;
  }

  client(id: string): this {
    this.clientId = id;
    return this;
  }

  rawBody(text: string): this {
    this.body = text;
    return this;
  }

  // ----- answer knobs

  /** An InputRequiredResult. Pass undefined to leave a field out. */
  inputRequired(inputRequests?: Json, requestState?: string, extra: Json = {}): this {
    this.issuedState = requestState;
    return this.result({
      resultType: 'input_required',
      ...(inputRequests !== undefined ? { inputRequests } : {}),
      ...(requestState !== undefined ? { requestState } : {}),
      ...extra,
    });
  }

  /** A final result; resultType "complete" is added unless `result` sets resultType. */
  complete(result: Json = { content: [{ type: 'text', text: 'ok' }] }): this {
    this.issuedState = undefined;
    return this.result({ resultType: 'complete', ...result });
  }

  /** Exactly this result object (keys set to undefined are dropped by JSON). */
  result(result: Json): this {
    return this.answer({ jsonrpc: '2.0', id: this.id ?? null, result: { _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO }, ...result } });
  }

  /** A JSON-RPC error answer with HTTP `status` (default 200, as the SDK does for -32602). */
  error(code: number, message: string, opts: { data?: unknown; status?: number } = {}): this {
    this.issuedState = undefined;
    this.plan.status = opts.status ?? 200;
    return this.answer({ jsonrpc: '2.0', id: this.id ?? null, error: { code, message, ...(opts.data !== undefined ? { data: opts.data } : {}) } });
  }

  /** Replaces the answer with these JSON-RPC messages (in order). */
  answer(...messages: unknown[]): this {
    this.plan.messages = messages.map(clone);
    this.plan.none = false;
    return this;
  }

  /** Answers over `text/event-stream`, with optional messages before / after the response. */
  sse(before: unknown[] = [], after: unknown[] = []): this {
    this.plan.sse = true;
    this.plan.contentType = 'text/event-stream';
    this.plan.before = before.map(clone);
    this.plan.after = after.map(clone);
    return this;
  }

  status(code: number): this {
    this.plan.status = code;
    return this;
  }

  /** Response Content-Type; null sends none. */
  contentType(value: string | null): this {
    this.plan.contentType = value;
    return this;
  }

  responseHeader(name: string, value: string): this {
    this.plan.headers.push({ name, value });
    return this;
  }

  /** 202 Accepted with no body. */
  accepted(): this {
    this.plan = { ...this.plan, status: 202, contentType: null, messages: [], before: [], after: [], sse: false };
    return this;
  }

  /** The request never got an answer (capture ended, stream still open). */
  noResponse(): this {
    this.plan.none = true;
    return this;
  }

  // ----- materialise

  private requestBody(): string {
    if (this.body !== undefined) return this.body;
    const params: Json = clone(this.baseParams);
    if (this.metaPatch !== null) {
      const meta: Json = {
        'io.modelcontextprotocol/protocolVersion': this.version,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': this.caps,
        ...(asJson(params._meta) ?? {}),
      };
      for (const [k, v] of Object.entries(this.metaPatch ?? {})) {
        if (v === undefined) delete meta[k];
        else meta[k] = v;
      }
      params._meta = meta;
    }
    const msg: Json = { jsonrpc: '2.0', method: this.method, params };
    if (this.id !== undefined) msg.id = this.id;
    return JSON.stringify(msg);
  }

  private requestHeaders(): HeaderPair[] {
    const h: [string, string][] = [
      ['content-type', 'application/json'],
      ['accept', 'application/json, text/event-stream'],
      ['mcp-protocol-version', this.version],
    ];
    if (this.method !== '' && this.id !== undefined) h.push(['mcp-method', this.method]);
    const name = this.method === 'resources/read' ? this.baseParams.uri : this.baseParams.name;
    if (MRTR.has(this.method) && typeof name === 'string') h.push(['mcp-name', headerValue(name)]);
    const out = new Map(h);
    for (const [k, v] of this.headerEdits) {
      if (v === null) out.delete(k);
      else out.set(k, v);
    }
    return [...out].map(([name, value]) => ({ name, value }));
  }

  toRecord(seq: number): ExchangeRecord {
    const startedAt = this.started;
    const receivedAt = startedAt + this.duration;
    const record: ExchangeRecord = {
      v: 1,
      id: `b-${seq}`,
      seq,
      source: 'import',
      startedAt,
      request: { method: 'POST', url: this.builder.url, headers: this.requestHeaders(), body: this.requestBody() },
      state: 'complete',
    };
    if (this.clientId !== undefined) record.client = this.clientId;
    if (this.plan.none) {
      record.state = 'aborted';
      record.endedAt = receivedAt;
      record.error = 'capture ended before an answer';
      return record;
    }
    const headers: HeaderPair[] = [];
    if (this.plan.contentType !== null) headers.push({ name: 'content-type', value: this.plan.contentType });
    headers.push(...this.plan.headers);
    const response: NonNullable<ExchangeRecord['response']> = { status: this.plan.status, headers, receivedAt };
    if (this.plan.sse) {
      const all = [...this.plan.before, ...this.plan.messages, ...this.plan.after];
      response.events = all.map((m, i): SseEventRecord => ({ t: receivedAt + i, event: 'message', data: JSON.stringify(m) }));
    } else if (this.plan.messages.length > 0) {
      response.body = JSON.stringify(this.plan.messages.length === 1 ? this.plan.messages[0] : this.plan.messages);
    } else {
      response.body = '';
    }
    record.response = response;
    record.endedAt = receivedAt + (response.events?.length ?? 0) + 1;
    return record;
  }
}

function asJson(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}
