// Classifying parsed JSON values as JSON-RPC 2.0 messages. Hostile input is expected:
// nothing here throws, and only own properties are read.
import type { JsonRpcId, MessageDirection, MessageStream, RpcMessage } from '../protocol.js';
import { asObject, own } from './meta.js';
import { limitDepth } from '../tokens/json-text.js';

export interface MessagePlace {
  exchange: number;
  direction: MessageDirection;
  stream: MessageStream;
  t: number;
}

function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The common messages (a request or notification with object params, a result with an
 * object result, not batched), each built as one literal. Hazard (memory): decoded
 * messages of a whole capture stay alive, and fields added to an object after its literal
 * go to a separate property array (~40 bytes more a message). Keys are in the order the
 * general path below adds them, so both give identical objects. Null: the general path decides.
 */
function classifyPlain(obj: Record<string, unknown>, place: MessagePlace, index: number): RpcMessage | null {
  const hasId = hasOwn.call(obj, 'id');
  const id = hasId ? obj.id : undefined;
  if (hasId && !isId(id)) return null;
  const method = hasOwn.call(obj, 'method') ? obj.method : undefined;
  if (typeof method === 'string') {
    const params = asObject(hasOwn.call(obj, 'params') ? obj.params : undefined);
    if (!params) return null;
    return hasId
      ? { exchange: place.exchange, index, direction: place.direction, stream: place.stream, t: place.t, kind: 'request', id: id as JsonRpcId, method, params }
      : { exchange: place.exchange, index, direction: place.direction, stream: place.stream, t: place.t, kind: 'notification', method, params };
  }
  if (method !== undefined || !hasId || hasOwn.call(obj, 'error') || !hasOwn.call(obj, 'result')) return null;
  const result = asObject(obj.result);
  if (!result) return null;
  return { exchange: place.exchange, index, direction: place.direction, stream: place.stream, t: place.t, kind: 'result', id: id as JsonRpcId, result };
}

/** Turns one parsed JSON value (one element of a batch, or a whole body) into a message.
 *  Hot path (two calls per exchange on 100k-exchange imports): see classifyPlain. */
export function classifyMessage(value: unknown, place: MessagePlace, index: number, batched: boolean): RpcMessage {
  if (!batched) {
    const o = asObject(value);
    const plain = o ? classifyPlain(o, place, index) : null;
    if (plain) return plain;
  }
  const m: RpcMessage = { exchange: place.exchange, index, direction: place.direction, stream: place.stream, t: place.t, kind: 'invalid' };
  if (batched) m.batched = true;
  const obj = asObject(value);
  if (!obj) {
    m.problem = `expected a JSON-RPC object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}`;
    return m;
  }
  const method = hasOwn.call(obj, 'method') ? obj.method : undefined;
  const hasId = hasOwn.call(obj, 'id');
  const rawId = hasId ? obj.id : undefined;
  if (hasId && !isId(rawId)) {
    m.problem = `id must be a string, number or null, got ${typeof rawId}`;
    return m;
  }
  if (hasId) m.id = rawId as JsonRpcId;
  if (typeof method === 'string') {
    m.method = method;
    const params = hasOwn.call(obj, 'params') ? obj.params : undefined;
    const p = asObject(params);
    if (params !== undefined && !p) {
      m.problem = 'params must be an object';
      return m;
    }
    if (p) m.params = p;
    m.kind = hasId ? 'request' : 'notification';
    return m;
  }
  if (hasOwn.call(obj, 'error')) {
    const e = asObject(obj.error);
    const code = own(e, 'code');
    const message = own(e, 'message');
    if (!e || typeof code !== 'number') {
      m.problem = 'error must be an object with a numeric code';
      return m;
    }
    m.kind = 'error';
    if (!hasId) m.id = null;
    m.error = { code, message: typeof message === 'string' ? message : '' };
    if (hasOwn.call(e, 'data')) m.error.data = e.data;
    return m;
  }
  if (hasOwn.call(obj, 'result')) {
    const r = asObject(obj.result);
    if (!hasId) m.problem = 'a result must carry an id';
    else if (!r) m.problem = 'result must be an object';
    else {
      m.kind = 'result';
      m.result = r;
    }
    return m;
  }
  m.problem = 'neither a request, a notification nor a response (no method, result or error)';
  return m;
}

/** Deepest nesting kept in a decoded body (the body itself is level 1); deeper values become a marker string. */
export const MAX_MESSAGE_DEPTH = 256;

/** Parses one JSON text into messages: a single message or a batch (array). */
export function parseMessages(text: string, place: MessagePlace, startIndex: number): { messages: RpcMessage[]; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof RangeError ? 'nested too deeply to parse' : err instanceof Error ? err.message : 'not JSON';
    return { messages: [{ ...place, index: startIndex, kind: 'invalid', problem: `not JSON: ${why}` }], problem: `not JSON: ${why}` };
  }
  // Hazard: JSON.parse takes nesting far deeper than structured clone and JSON.stringify
  // can recurse through (~5k levels in V8), and messages cross the worker boundary and go
  // into the CLI's JSON report; deeper parts are elided, as token payloads are.
  value = limitDepth(text, value, MAX_MESSAGE_DEPTH);
  if (Array.isArray(value)) {
    if (value.length === 0) return { messages: [{ ...place, index: startIndex, kind: 'invalid', problem: 'empty batch' }], problem: 'empty batch' };
    return { messages: value.map((v, i) => classifyMessage(v, place, startIndex + i, true)) };
  }
  return { messages: [classifyMessage(value, place, startIndex, false)] };
}

/** Same JSON-RPC id (type and value). */
export function sameId(a: JsonRpcId | undefined, b: JsonRpcId | undefined): boolean {
  return a !== undefined && b !== undefined && a === b;
}

/** `result.resultType`, when the message is a result carrying one. */
export function resultType(m: RpcMessage | undefined): string | undefined {
  const v = m?.result ? own(m.result, 'resultType') : undefined;
  return typeof v === 'string' ? v : undefined;
}
