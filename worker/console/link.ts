// The link between a Console send and the record it is filed under, as it travels from the
// page to the capture service worker: one request header the tap reads and strips before the
// request leaves (the server never sees it), and one response header the tap adds so the page
// knows its send was taken. Pure text in, text out: the page, the service worker, the worker
// and Node all use this one codec.
//
//   X-Mrtr-Inspector-Link: id=c-1f…; derived-from=3b…; session=9a…; origin=tamper; run=r-4c…
//   X-Mrtr-Inspector-Tapped: c-1f…
//
// Values are ids of ours (record and session ids), never secrets. They are percent-encoded,
// because an imported capture's ids may hold any character, and a header value may not.

import { ORIGIN_KINDS, type OriginKind } from '../protocol.js';

/** The request header naming the record a Console send is filed under. */
export const LINK_HEADER = 'x-mrtr-inspector-link';
/** The response header the tap adds: the record id it filed the send under. */
export const TAPPED_HEADER = 'x-mrtr-inspector-tapped';

/** Where one Console send is filed: its record id, the exchange it re-enacts, its session. */
export interface SendLink {
  id: string;
  derivedFrom?: string;
  /** The capture session to file it in; the tap's own capture session when absent. */
  session?: string;
  /** The Console action that sent it, and the run it belongs to (ExchangeRecord.origin). */
  origin?: OriginKind;
  run?: string;
}

const KEYS: Record<string, keyof SendLink> = { id: 'id', 'derived-from': 'derivedFrom', session: 'session', origin: 'origin', run: 'run' };
const NAMES: [keyof SendLink, string][] = [['id', 'id'], ['derivedFrom', 'derived-from'], ['session', 'session'], ['origin', 'origin'], ['run', 'run']];

/** The header value for a link. */
export function formatLink(link: SendLink): string {
  const parts: string[] = [];
  for (const [field, name] of NAMES) {
    const v = link[field];
    if (v !== undefined) parts.push(`${name}=${encodeURIComponent(v)}`);
  }
  return parts.join('; ');
}

/**
 * The link a header value names, or null when it is not one we wrote (no id, a value that
 * does not decode, a key given twice). Unknown keys are skipped, so a newer page may add some.
 */
export function parseLink(value: string | null | undefined): SendLink | null {
  if (value === null || value === undefined) return null;
  const link: Partial<SendLink> = {};
  for (const part of value.split(';')) {
    const p = part.trim();
    if (p === '') continue;
    const eq = p.indexOf('=');
    if (eq <= 0) return null;
    const field = KEYS[p.slice(0, eq).trim().toLowerCase()];
    if (field === undefined) continue;
    if (link[field] !== undefined) return null;
    let v: string;
    try {
      v = decodeURIComponent(p.slice(eq + 1).trim());
    } catch {
      return null;
    }
    if (v === '') return null;
    // An origin this page does not know (a newer page's) is left out, not refused.
    if (field === 'origin' && !(ORIGIN_KINDS as readonly string[]).includes(v)) continue;
    (link as Record<string, string>)[field] = v;
  }
  return link.id !== undefined ? (link as SendLink) : null;
}
