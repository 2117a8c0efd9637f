// Building 2026-07-28 requests the way a conforming client sends them: the `_meta` envelope
// (base:367-385) and the headers the server cross-checks against the body (shttp:250-409),
// and the exact retry of an input_required round (mrtr:251-257).
import type { HeaderPair, JsonRpcId } from '../protocol.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, asObject, own, targetName } from '../decode/meta.js';
import type { BuiltRequest, ConsoleRequest, JsonRpcRequest } from './types.js';

/** The protocol version the Console speaks. */
export const CONSOLE_PROTOCOL_VERSION = '2026-07-28';

/** The clientInfo the Console sends unless told otherwise. */
export const CONSOLE_CLIENT_INFO = { name: 'mrtr-inspector-console', version: '0.1.0' };

/** What buildRequest needs; `inputSchema` is the tool's, for its `x-mcp-header` arguments. */
export interface RequestInput {
  method: string;
  params?: Record<string, unknown>;
  id: JsonRpcId;
  protocolVersion?: string;
  clientInfo?: { name: string; version: string; [k: string]: unknown };
  capabilities?: Record<string, unknown>;
  inputSchema?: unknown;
}

/** The per-request capability toggles of the Console, each switching one capability in the declared clientCapabilities. */
export interface CapabilityToggles {
  elicitationForm?: boolean;
  elicitationUrl?: boolean;
  sampling?: boolean;
  samplingTools?: boolean;
  roots?: boolean;
}

/** ClientCapabilities for the toggles; sampling tools implies sampling (samp:52). */
export function capabilitiesFrom(t: CapabilityToggles): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (t.elicitationForm || t.elicitationUrl) {
    const e: Record<string, unknown> = {};
    if (t.elicitationForm) e.form = {};
    if (t.elicitationUrl) e.url = {};
    caps.elicitation = e;
  }
  if (t.sampling || t.samplingTools) caps.sampling = t.samplingTools ? { tools: {} } : {};
  if (t.roots) caps.roots = {};
  return caps;
}

const SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * A header value per shttp:467-520: sent as-is when it is plain visible ASCII with no
 * surrounding whitespace, else `=?base64?{base64(UTF-8)}?=`. A plain value that itself
 * looks like the sentinel is encoded too, so the server cannot mistake it.
 */
export function encodeHeaderValue(value: string): string {
  let plain = !SENTINEL.test(value) && value.trim() === value;
  for (let i = 0; plain && i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) plain = false;
  }
  if (plain) return value;
  let binary = '';
  for (const b of new TextEncoder().encode(value)) binary += String.fromCharCode(b);
  return `=?base64?${btoa(binary)}?=`;
}

/** `Mcp-Param-*` headers for arguments whose schema property carries `x-mcp-header`
 *  (reachable through a chain of `properties` only; absent or null values are omitted). */
export function paramHeaders(inputSchema: unknown, args: unknown): HeaderPair[] {
  const out: HeaderPair[] = [];
  const walk = (schema: unknown, value: unknown, depth: number) => {
    const props = asObject(own(asObject(schema), 'properties'));
    if (!props || depth > 16) return;
    for (const [name, prop] of Object.entries(props)) {
      const v = own(asObject(value), name);
      const mark = own(asObject(prop), 'x-mcp-header');
      if (typeof mark === 'string' && mark !== '' && v !== undefined && v !== null) {
        const text = typeof v === 'string' ? encodeHeaderValue(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
        if (text !== undefined) out.push({ name: `Mcp-Param-${mark}`, value: text });
      }
      walk(prop, v, depth + 1);
    }
  };
  walk(inputSchema, args, 0);
  return out;
}

/** The headers a 2026-07-28 POST carries for this body (title-cased, as the conformance client sends them). */
export function requestHeaders(body: JsonRpcRequest, protocolVersion: string, inputSchema?: unknown): HeaderPair[] {
  const headers: HeaderPair[] = [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'Accept', value: 'application/json, text/event-stream' },
    { name: 'MCP-Protocol-Version', value: protocolVersion },
    { name: 'Mcp-Method', value: body.method },
  ];
  const name = targetName(body.method, body.params);
  if (name !== null) headers.push({ name: 'Mcp-Name', value: encodeHeaderValue(name) });
  if (body.method === 'tools/call' && inputSchema !== undefined) headers.push(...paramHeaders(inputSchema, own(body.params, 'arguments')));
  return headers;
}

/** A request with the `_meta` envelope and the headers; caller-given `_meta` keys are kept. */
export function buildRequest(input: RequestInput): BuiltRequest {
  const version = input.protocolVersion ?? CONSOLE_PROTOCOL_VERSION;
  const given = input.params ?? {};
  const meta = { ...(asObject(own(given, '_meta')) ?? {}) };
  meta[META_PROTOCOL_VERSION] = version;
  meta[META_CLIENT_INFO] = input.clientInfo ?? CONSOLE_CLIENT_INFO;
  meta[META_CLIENT_CAPABILITIES] = input.capabilities ?? {};
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(given)) if (k !== '_meta') params[k] = v;
  params._meta = meta;
  const body: JsonRpcRequest = { jsonrpc: '2.0', id: input.id, method: input.method, params };
  return { body, headers: requestHeaders(body, version, input.inputSchema) };
}

/**
 * The retry of `original` after `answer` (an input_required result): the same method and
 * params, the answers in `inputResponses`, the answer's requestState echoed byte for byte
 * (and none when it had none, mrtr:255), a new id, and the original's headers.
 */
export function buildRetry(original: BuiltRequest, answer: Record<string, unknown>, inputResponses: Record<string, unknown>, newId: JsonRpcId): BuiltRequest {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(original.body.params)) if (k !== 'inputResponses' && k !== 'requestState' && k !== '_meta') params[k] = v;
  if (Object.keys(inputResponses).length > 0) params.inputResponses = inputResponses;
  const state = own(answer, 'requestState');
  if (typeof state === 'string') params.requestState = state;
  const meta = own(original.body.params, '_meta');
  if (meta !== undefined) params._meta = meta;
  return { body: { jsonrpc: '2.0', id: newId, method: original.body.method, params }, headers: original.headers.map((h) => ({ ...h })) };
}

/** The HTTP request for a built request: the body serialised once, headers as given. */
export function toHttp(url: string, built: BuiltRequest): ConsoleRequest {
  return { url, method: 'POST', headers: built.headers.map((h) => ({ ...h })), body: JSON.stringify(built.body) };
}

/** The original call behind a request: its params less any MRTR fields (for a fresh first round). */
export function withoutMrtrFields(built: BuiltRequest, newId: JsonRpcId): BuiltRequest {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(built.body.params)) if (k !== 'inputResponses' && k !== 'requestState') params[k] = v;
  return { body: { ...built.body, id: newId, params }, headers: built.headers.map((h) => ({ ...h })) };
}
