// The detail pane of one exchange: headers (MCP ones checked against the body), bodies
// pretty-printed and cut to a size, the event stream with per-event times, timing.
import { decodeHeaderValue, header } from '../decode/headers.js';
import { requestMeta, targetName } from '../decode/meta.js';
import { TASK_METHODS, taskIdOf } from '../decode/task.js';
import type { DecodedExchange, ExchangeRecord, HeaderPair, RpcMessage } from '../protocol.js';
import type { BodyView, EventView, ExchangeView, HeaderView } from './types.js';

/** Bodies longer than this are cut unless the page asks for all of it. */
export const BODY_MAX = 64 * 1024;

/** A body as text: JSON re-indented (when it parses), cut at `max` characters. */
export function bodyView(raw: string, max = BODY_MAX): BodyView {
  let text = raw;
  let json = false;
  let value: unknown;
  const first = raw.trimStart()[0];
  if ((first === '{' || first === '[') && raw.length <= 8 * 1024 * 1024) {
    try {
      value = JSON.parse(raw);
      text = JSON.stringify(value, null, 2);
      json = true;
    } catch {
      // Not JSON (or too deep): shown as sent.
    }
  }
  const truncated = text.length > max;
  const view: BodyView = { text: truncated ? text.slice(0, max) : text, length: text.length, truncated, json };
  // The parsed value goes along only when the whole body is shown: the page's tree draws it
  // without parsing traffic itself, and a cut body stays text.
  if (json && !truncated) view.value = value;
  return view;
}

function firstRequest(d: DecodedExchange): RpcMessage | undefined {
  return d.sent.find((m) => m.kind === 'request' || m.kind === 'notification');
}

// The MCP headers that mirror the body (shttp: Mcp-Method, Mcp-Name, MCP-Protocol-Version).
function checkOf(h: HeaderPair, d: DecodedExchange): HeaderView['check'] {
  const n = h.name.toLowerCase();
  const msg = firstRequest(d);
  if (!msg) return undefined;
  const decoded = decodeHeaderValue(h.value);
  if (!decoded.ok) return { ok: false, message: decoded.problem };
  const value = decoded.value;
  if (n === 'mcp-method') {
    return msg.method === value
      ? { ok: true, message: 'matches the body method' }
      : { ok: false, message: `body method is ${JSON.stringify(msg.method ?? null)}` };
  }
  if (n === 'mcp-name') {
    // The tasks extension mirrors params.taskId on the methods that address a task (tasks:509-511).
    const task = msg.method !== undefined && TASK_METHODS.has(msg.method);
    const name = task ? taskIdOf(msg.params) : targetName(msg.method, msg.params);
    const field = task ? 'taskId' : msg.method === 'resources/read' ? 'uri' : 'name';
    return name === value
      ? { ok: true, message: `matches params.${field}` }
      : { ok: false, message: name === null ? `the body has no params.${field}` : `body names ${JSON.stringify(name)} (params.${field})` };
  }
  if (n === 'mcp-protocol-version') {
    const v = requestMeta(msg.params).protocolVersion;
    if (v === undefined) return d.era === 'legacy' ? undefined : { ok: false, message: 'the body _meta has no protocolVersion' };
    return v === value ? { ok: true, message: 'matches _meta protocolVersion' } : { ok: false, message: `_meta says ${v}` };
  }
  return undefined;
}

function headerViews(headers: readonly HeaderPair[], d: DecodedExchange | null): HeaderView[] {
  return headers.map((h) => {
    const mcp = h.name.toLowerCase().startsWith('mcp-');
    const check = mcp && d ? checkOf(h, d) : undefined;
    return { name: h.name, value: h.value, mcp, ...(check ? { check } : {}) };
  });
}

/** The detail of one exchange; `full` lifts the body size cut. */
export function exchangeView(r: ExchangeRecord, d: DecodedExchange, full = false): ExchangeView {
  const max = full ? Number.POSITIVE_INFINITY : BODY_MAX;
  const res = r.response;
  const events: EventView[] | null = res?.events
    ? res.events.map((e) => ({
      t: e.t, sinceHead: e.t - res.receivedAt,
      ...(e.event !== undefined ? { event: e.event } : {}),
      ...(e.id !== undefined ? { id: e.id } : {}),
      data: bodyView(e.data, max),
    }))
    : null;
  const receivedAt = res?.receivedAt ?? null;
  const endedAt = r.endedAt ?? null;
  return {
    id: r.id, seq: r.seq, url: r.request.url, httpMethod: r.request.method,
    status: res?.status ?? null, statusText: res?.statusText ?? null, state: r.state, error: r.error ?? null,
    era: d.era, source: r.source,
    requestHeaders: headerViews(r.request.headers, d),
    responseHeaders: headerViews(res?.headers ?? [], null),
    request: r.request.body !== undefined ? bodyView(r.request.body, max) : null,
    response: res?.body !== undefined ? bodyView(res.body, max) : null,
    events,
    tail: res?.tail ?? null,
    problems: d.problems.map((p) => ({ part: p.part, message: p.message, ...(p.at !== undefined ? { at: p.at } : {}) })),
    timing: {
      startedAt: r.startedAt, receivedAt, endedAt,
      waitMs: receivedAt !== null ? receivedAt - r.startedAt : null,
      receiveMs: receivedAt !== null && endedAt !== null ? endedAt - receivedAt : null,
      totalMs: endedAt !== null ? endedAt - r.startedAt : null,
    },
  };
}

/** Content type of the response, for the Response/Events tab choice. */
export function isEventStream(r: ExchangeRecord): boolean {
  return (header(r.response?.headers ?? [], 'content-type') ?? '').toLowerCase().includes('text/event-stream');
}
