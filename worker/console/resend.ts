// Edit and re-send any captured request: the editable draft of the
// original, and the request an edited draft becomes. Sending it records a new exchange
// linked to the original (`derivedFrom`); the send carries that link, so a tap files it
// under the same record id.
import type { ConsoleOrigin, ExchangeRecord, HeaderPair } from '../protocol.js';
import { draftText, parseDraft, type DraftError } from './draft.js';
import { builtFromRecord, consoleRecord, linkOrigin, newRecordId, readRound, sendSafely } from './exchange.js';
import type { ConsoleRequest, RoundReading, Transport } from './types.js';

/** The draft of a captured request: where it went, and its header block plus pretty body. */
export interface ResendDraft {
  url: string;
  from: string;
  /** The text the editor starts with (and the diff's left side). */
  original: string;
}

/** The editable draft of a captured request, or why there is none. */
export function resendDraft(record: ExchangeRecord): ResendDraft | { error: string } {
  const built = builtFromRecord(record);
  if (!built) return { error: 'this exchange carries no JSON-RPC request to edit' };
  return { url: record.request.url, from: record.id, original: draftText(JSON.parse(record.request.body ?? '{}'), built.headers) };
}

/**
 * A JSON-RPC id for a re-send that differs from the captured one (a real client never
 * re-uses an id: mrtr/retry-reused-id), of the same type so servers that expect numbers
 * still get one.
 */
export function freshRequestId(old: unknown, random: () => number = Math.random): string | number {
  const n = Math.floor(random() * 1e9);
  if (typeof old === 'number') return old === 1e9 + n ? n + 1 : 1e9 + n;
  return `${typeof old === 'string' ? old : 'req'}-resend-${n.toString(36)}`;
}

/** The draft text with its body's id set to `id`; null when the draft does not parse. */
export function draftWithId(text: string, id: string | number): string | null {
  const parsed = parseDraft(text);
  if (!parsed.ok) return null;
  return draftText({ ...parsed.message, id }, parsed.headers);
}

/** The request an edited draft becomes (headers from the draft, else the original's), or where it is wrong. */
export function resendRequest(draft: ResendDraft, text: string, fallbackHeaders: readonly HeaderPair[] = []): { ok: true; request: ConsoleRequest; id: unknown } | { ok: false; error: DraftError } {
  const parsed = parseDraft(text);
  if (!parsed.ok) return parsed;
  return { ok: true, id: parsed.message.id, request: { url: draft.url, method: 'POST', headers: (parsed.headers ?? fallbackHeaders).map((h) => ({ ...h })), body: parsed.body } };
}

/**
 * The draft says something the original did not. The JSON-RPC id does not count: the draft
 * gets a fresh one by default, as a real client's new request has.
 */
export function changedByHand(original: string, text: string): boolean {
  if (original === text) return false;
  const a = parseDraft(original);
  const b = parseDraft(text);
  if (!a.ok || !b.ok) return true;
  const shape = (p: typeof a & { ok: true }) => JSON.stringify([{ ...p.message, id: null }, p.headers ?? null]);
  return shape(a) !== shape(b);
}

/**
 * Sends an edited draft and records it as a new exchange derived from the original. `moved`:
 * the draft goes to another URL than the captured one, which makes it an edit, not a re-send.
 */
export async function resend(draft: ResendDraft & { moved?: boolean }, text: string, send: Transport, place: { seq: number; session?: string }): Promise<{ ok: true; record: ExchangeRecord; reading: RoundReading; id: unknown } | { ok: false; error: DraftError }> {
  const r = resendRequest(draft, text);
  if (!r.ok) return r;
  const id = newRecordId();
  const origin: ConsoleOrigin = { kind: draft.moved === true || changedByHand(draft.original, text) ? 'edit' : 'resend' };
  const res = await sendSafely(send, { ...r.request, link: { id, derivedFrom: draft.from, ...linkOrigin(origin) } });
  const record = consoleRecord(r.request, res, { id, seq: place.seq, derivedFrom: draft.from, origin, ...(place.session !== undefined ? { session: place.session } : {}) });
  return { ok: true, record, reading: readRound(record, r.id as never), id: r.id };
}
