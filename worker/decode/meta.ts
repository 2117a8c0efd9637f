// Reading the per-request `_meta` envelope of the 2026 era (base:367-385, ts:64-110).
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** Narrow an unknown to a plain JSON object (not an array, not null). */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Own-property read that never walks the prototype chain (`__proto__`, `constructor`). */
export function own(obj: Record<string, unknown> | undefined, key: string): unknown {
  return obj !== undefined && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export interface RequestMeta {
  protocolVersion?: string;
  clientInfo?: Record<string, unknown>;
  clientCapabilities?: Record<string, unknown>;
  /** True when `_meta` itself is present and an object. */
  present: boolean;
}

/**
 * The `_meta` envelope of a request's params. Hot path: era detection, threading and several
 * rules ask in turn about the same request, so the last answer is remembered (by params
 * and `_meta` object). Hazard: the result is shared; read it, never change it; and a
 * `_meta` changed in place right after being read would read as before.
 */
export function requestMeta(params: Record<string, unknown> | undefined): Readonly<RequestMeta> {
  const raw = own(params, '_meta');
  if (params === lastParams && raw === lastRaw && lastMeta !== undefined) return lastMeta;
  const meta = asObject(raw);
  let out: RequestMeta;
  if (!meta) out = NO_META;
  else {
    const pv = own(meta, META_PROTOCOL_VERSION);
    out = {
      present: true,
      protocolVersion: typeof pv === 'string' ? pv : undefined,
      clientInfo: asObject(own(meta, META_CLIENT_INFO)),
      clientCapabilities: asObject(own(meta, META_CLIENT_CAPABILITIES)),
    };
  }
  lastParams = params;
  lastRaw = raw;
  lastMeta = out;
  return out;
}

const NO_META: RequestMeta = Object.freeze({ present: false });
let lastParams: Record<string, unknown> | undefined;
let lastRaw: unknown;
let lastMeta: RequestMeta | undefined;

/** `params.name` (tools/call, prompts/get) or `params.uri` (resources/read), else null. */
export function targetName(method: string | undefined, params: Record<string, unknown> | undefined): string | null {
  const key = method === 'resources/read' ? 'uri' : method === 'tools/call' || method === 'prompts/get' ? 'name' : undefined;
  if (!key) return null;
  const v = own(params, key);
  return typeof v === 'string' ? v : null;
}

/** Methods that may answer `input_required` (mrtr:184-192). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Input request kinds an `inputRequests` value may carry (mrtr:229). */
export const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);
