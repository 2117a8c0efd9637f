// Classifying parsed JSON values as JSON-RPC 2.0 messages. Hostile input is expected:
// nothing here throws, and only own properties are read.
import type { JsonRpcId, MessageDirection, MessageStream, RpcMessage } from '../protocol.js';
import { asObject, own } from './meta.js';

export interface MessagePlace {
  exchange: number;
  direction: MessageDirection;
  stream: MessageStream;
  t: number;
}

function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || v === null;
}

/** Turns one parsed JSON value (one element of a batch, or a whole body) into a message. */
export function classifyMessage(value: unknown, place: MessagePlace, index: number, batched: boolean): RpcMessage {
  const base: RpcMessage = { ...place, index, kind: 'invalid', ...(batched ? { batched: true } : {}) };
  const obj = asObject(value);
  if (!obj) return { ...base, problem: `expected a JSON-RPC object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}` };
  const method = own(obj, 'method');
  const hasId = Object.prototype.hasOwnProperty.call(obj, 'id');
  const rawId = own(obj, 'id');
  if (hasId && !isId(rawId)) return { ...base, problem: `id must be a string, number or null, got ${typeof rawId}` };
  const id = rawId as JsonRpcId;
  if (typeof method === 'string') {
    const params = own(obj, 'params');
    const p = asObject(params);
    if (params !== undefined && !p) return { ...base, method, ...(hasId ? { id } : {}), problem: 'params must be an object' };
    if (hasId) return { ...base, kind: 'request', id, method, ...(p ? { params: p } : {}) };
    return { ...base, kind: 'notification', method, ...(p ? { params: p } : {}) };
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'error')) {
    const e = asObject(own(obj, 'error'));
    const code = own(e, 'code');
    const message = own(e, 'message');
    if (!e || typeof code !== 'number') return { ...base, ...(hasId ? { id } : {}), problem: 'error must be an object with a numeric code' };
    return {
      ...base, kind: 'error', id: hasId ? id : null,
      error: { code, message: typeof message === 'string' ? message : '', ...(Object.prototype.hasOwnProperty.call(e, 'data') ? { data: e.data } : {}) },
    };
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'result')) {
    const r = asObject(own(obj, 'result'));
    if (!hasId) return { ...base, problem: 'a result must carry an id' };
    if (!r) return { ...base, id, problem: 'result must be an object' };
    return { ...base, kind: 'result', id, result: r };
  }
  return { ...base, ...(hasId ? { id } : {}), problem: 'neither a request, a notification nor a response (no method, result or error)' };
}

/** Parses one JSON text into messages: a single message or a batch (array). */
export function parseMessages(text: string, place: MessagePlace, startIndex: number): { messages: RpcMessage[]; problem?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof RangeError ? 'nested too deeply to parse' : err instanceof Error ? err.message : 'not JSON';
    return { messages: [{ ...place, index: startIndex, kind: 'invalid', problem: `not JSON: ${why}` }], problem: `not JSON: ${why}` };
  }
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
