// The required 2026 request headers, checked against the body (shttp:252-297, 580-603).
// Shared by http/protocol-version-header, http/method-header, http/name-header and
// http/mismatch-accepted, so the four always agree on what "mismatched" means.
import type { DecodedExchange, ExchangeRecord, HeaderPair, RpcMessage } from '../../protocol.js';
import { decodeHeaderValue, header } from '../../decode/headers.js';
import { MRTR_METHODS, requestMeta, targetName } from '../../decode/meta.js';
import { isModernPost, show } from './support.js';

export type HeaderName = 'MCP-Protocol-Version' | 'Mcp-Method' | 'Mcp-Name';

export interface HeaderProblem {
  header: HeaderName;
  message: RpcMessage;
  /** "is missing", "is \"x\" but the body says \"y\"", … */
  what: string;
}

// Four rules ask in turn for the same exchange's header problems; compute them once. The
// engine checks one exchange with every rule before the next (engine.ts), so the last one
// is all there is to remember (a memo per exchange would keep 100k lists alive). Keyed by
// the decoded exchange object, so a new analysis (new objects) never sees stale answers.
let memoOf: DecodedExchange | null = null;
let memo: HeaderProblem[] = [];

/** Problems with the three required headers on a modern POST, per body message. */
export function headerProblems(d: DecodedExchange, record: ExchangeRecord): HeaderProblem[] {
  if (memoOf !== d) {
    memo = computeHeaderProblems(d, record);
    memoOf = d;
  }
  return memo;
}

function computeHeaderProblems(d: DecodedExchange, record: ExchangeRecord): HeaderProblem[] {
  return isModernPost(d, record.request.method) ? requestHeaderProblems(record.request.headers, d.sent) : [];
}

/** The header problems of a modern POST with these headers and body messages. The relay's
 *  front for served stdio servers refuses what this finds, so it never accepts a request
 *  these rules would then blame the stdio server for. */
export function requestHeaderProblems(headers: readonly HeaderPair[], sent: readonly RpcMessage[]): HeaderProblem[] {
  const out: HeaderProblem[] = [];
  const pv = header(headers, 'MCP-Protocol-Version');
  const mm = header(headers, 'Mcp-Method');
  const mn = header(headers, 'Mcp-Name');
  for (const m of sent) {
    if (m.kind !== 'request' && m.kind !== 'notification') continue;
    const bodyVersion = requestMeta(m.params).protocolVersion;
    if (pv === undefined) out.push({ header: 'MCP-Protocol-Version', message: m, what: 'is missing' });
    else if (bodyVersion !== undefined && pv.trim() !== bodyVersion)
      out.push({ header: 'MCP-Protocol-Version', message: m, what: `is ${show(pv)} but _meta protocolVersion is ${show(bodyVersion)}` });
    // Mcp-Method and Mcp-Name are required of requests; notification POSTs are undefined.
    if (m.kind !== 'request') continue;
    const method = compare(mm, m.method ?? '');
    if (method) out.push({ header: 'Mcp-Method', message: m, what: method });
    if (m.method === undefined || !MRTR_METHODS.has(m.method)) continue;
    const expected = targetName(m.method, m.params);
    if (expected === null) continue; // no name in the body: a params problem, not a header one
    const name = compare(mn, expected);
    if (name) out.push({ header: 'Mcp-Name', message: m, what: name });
  }
  return out;
}

/** Why a header value does not match the body value, after sentinel decoding; null if it does. */
function compare(raw: string | undefined, expected: string): string | null {
  if (raw === undefined) return 'is missing';
  // Hot path: the header says exactly what the body says, and is no sentinel to decode.
  if (raw === expected && raw.charCodeAt(0) !== 61 && raw.trim() === raw) return null;
  const decoded = decodeHeaderValue(raw.trim());
  if (!decoded.ok) return `cannot be decoded (${decoded.problem})`;
  if (decoded.value === expected) return null;
  const via = decoded.encoded ? ` (decoded from ${show(raw)})` : '';
  return `is ${show(decoded.value)}${via} but the body says ${show(expected)}`;
}
