// State should name the request it belongs to, so it cannot be replayed on another.
import type { Conversation, TokenReading } from '../../../protocol.js';
import type { ConversationRule } from '../../rule.js';
import { asRecord } from '../../../tokens/claims.js';
import { issuedTokens, roundLabel, show } from '../support.js';

// Standard JWT claims that bind a token to its request only when their value names it
// ("an identifier for the originating request, e.g. the method name"): aud
// "tools/call book_table" does, aud "api.example.com" or sub "alice" does not.
const NAMING_CLAIMS = ['aud', 'sub', 'jti'] as const;

/**
 * mrtr:237. The token reader sets requestBound from method/name/digest claims (method,
 * req, hash, h, …) or an SDK bind tag. Otherwise aud, sub and jti are read here, where the
 * request is known: one binds when a word of its value (split at spaces, ':', '#', ',', …)
 * is the conversation's method or its tool/prompt/resource name. Only decodable payloads
 * are judged; the finding names the claims it read and why none bound the token.
 */
export const stateNoRequestBinding: ConversationRule = {
  id: 'state/no-request-binding',
  tier: 1,
  severity: 'warning',
  clause: 'mrtr:237',
  title: 'decodable requestState names neither the method nor a request digest',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (reading.payload === null || reading.payload === undefined || reading.requestBound) continue;
      const read = namingClaims(reading);
      if (read.some(([, v]) => namesRequest(v, c))) continue;
      const seen = read.length === 0
        ? 'it has no method, name or digest claim such as method, req, hash or h, nor aud, sub or jti'
        : `read ${read.map(([k, v]) => `${k} ${show(v)}`).join(', ')}: none names ${c.method}${c.name !== null ? ` or ${show(c.name)}` : ''}`;
      report({
        exchange: round.exchange,
        message: `requestState (${reading.format}) issued in ${roundLabel(i)} for ${c.method} names neither the method nor a digest of the request's params (${seen}); bind it to the originating request and reject it on any other`,
      });
    }
  },
};

/** The aud/sub/jti claims of the payload, in that order, with their values. */
function namingClaims(reading: TokenReading): [string, unknown][] {
  const o = asRecord(reading.payload);
  if (o === null) return [];
  const out: [string, unknown][] = [];
  for (const k of NAMING_CLAIMS) if (Object.prototype.hasOwnProperty.call(o, k) && o[k] !== null && o[k] !== '') out.push([k, o[k]]);
  return out;
}

/** A word of the claim (a string, or a string of an aud array) is the method or the name. */
function namesRequest(v: unknown, c: Conversation): boolean {
  const values = Array.isArray(v) ? v.slice(0, 32) : [v];
  for (const s of values) {
    if (typeof s !== 'string' || s.length > 2048) continue;
    for (const word of s.split(/[\s:#,;|@?&=()[\]{}'"]+/)) {
      if (word === '') continue;
      if (word === c.method || (c.name !== null && word === c.name)) return true;
    }
  }
  return false;
}
