// Era detection per request (2026-07-28 vs legacy), from `_meta` and headers.
import type { Era, ExchangeRecord, HeaderPair, RpcMessage } from '../protocol.js';
import { header } from './headers.js';
import { requestMeta } from './meta.js';

/** A protocol version string of the modern era (2026-07-28, or a 2026 pre-release label). */
export function isModernVersion(v: string | undefined): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && v >= '2026-01-01';
}

/**
 * The era of an exchange: modern when its first request or notification declares a 2026
 * protocol version in `_meta`, or the `MCP-Protocol-Version` header does; else legacy.
 * The body wins over the header when both are present and disagree (the header mismatch is
 * a finding of its own).
 */
export function eraOf(record: ExchangeRecord, sent: readonly RpcMessage[]): Era {
  return eraOfRequest(record.request.headers, sent);
}

/** {@link eraOf} from a request's headers and body messages alone (the relay's stdio front
 *  asks before any record exists; with no headers it is the body-only reading stdio uses). */
export function eraOfRequest(headers: readonly HeaderPair[], sent: readonly RpcMessage[]): Era {
  for (const m of sent) {
    if (m.kind !== 'request' && m.kind !== 'notification') continue;
    const meta = requestMeta(m.params);
    if (meta.protocolVersion !== undefined) return isModernVersion(meta.protocolVersion) ? '2026-07-28' : 'legacy';
  }
  return isModernVersion(header(headers, 'mcp-protocol-version')) ? '2026-07-28' : 'legacy';
}
