// The record of a request the relay refused before any server saw it (wrong token, unknown
// target, bad path). Clients tend to hide the relay's answer behind their own message
// ("auth_required", "did not offer pinned protocol version"), so the refusal is recorded
// and the page lists it with the reason.
//
// Hazard: the URL names a token, right or wrong; neither may be stored. The token segment
// is replaced by a placeholder, and the body is neither read nor kept. Nor are the headers
// that carry secrets: any web page can make the browser send a refused request, and the
// browser adds the cookies of 127.0.0.1 (the inspector's page cookie among them) and a
// Referer that may be a relay URL with its token; a client adds its bearer token. No server
// saw the request, so these say nothing the page needs to explain the refusal.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ExchangeRecord } from '../../worker/protocol.js';
import { PROTOCOL_VERSION } from '../../worker/protocol.js';
import { pairsFromRaw } from './exchange-recorder.js';
import { ownOrigin } from './guards.js';
import { TOKEN_HEADER } from './stdio-ingest.js';

// Request headers a refusal's record never keeps (see the hazard above).
const SECRET_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization', 'referer', TOKEN_HEADER]);

/** Whether a refused request's header is left out of its record. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** Placeholders for the token segment of a refused relay URL. */
export const TOKEN_PLACEHOLDER = '<token>';
export const WRONG_TOKEN_PLACEHOLDER = '<wrong-token>';

/** The refused request's URL, with its token segment replaced (`tokenOk` says which placeholder). */
export function redactedRelayUrl(req: IncomingMessage, tokenOk: boolean): string {
  const url = new URL(req.url ?? '/', 'http://relay.invalid');
  const parts = url.pathname.split('/');
  // ['', 'relay', <token>, ...]: a missing token has nothing to hide.
  if (parts.length > 2 && parts[2] !== '') parts[2] = tokenOk ? TOKEN_PLACEHOLDER : WRONG_TOKEN_PLACEHOLDER;
  return `${ownOrigin(req)}${parts.join('/')}${url.search}`;
}

/** A final record of one refusal: the request's head, the relay's JSON answer, `refused` set. id, seq and session are the caller's. */
export function refusedRecord(req: IncomingMessage, status: number, reason: string, tokenOk: boolean): ExchangeRecord {
  const now = Date.now();
  return {
    v: PROTOCOL_VERSION,
    id: randomUUID(),
    seq: 0,
    source: 'relay',
    startedAt: now,
    request: { method: req.method ?? 'GET', url: redactedRelayUrl(req, tokenOk), headers: pairsFromRaw(req.rawHeaders).filter((h) => !isSecretHeader(h.name)) },
    response: {
      status,
      headers: [{ name: 'content-type', value: 'application/json; charset=utf-8' }],
      receivedAt: now,
      body: JSON.stringify({ error: reason }),
    },
    endedAt: now,
    state: 'failed',
    error: `refused by the relay: ${reason}`,
    refused: reason,
  };
}
