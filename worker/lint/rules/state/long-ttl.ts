// Long-lived state widens the replay window.
import type { ConversationRule } from '../../rule.js';
import { issuedTokens, roundLabel } from '../support.js';

/**
 * mrtr:236. TTL = expiry − issue time. SDK tokens (sdk-hmac-v1) carry no issue time, so
 * the moment the issuing answer arrived stands in for it; other formats need `iat`.
 */
export const stateLongTtl: ConversationRule = {
  id: 'state/long-ttl',
  tier: 1,
  severity: 'info',
  clause: 'mrtr:236',
  title: 'requestState lives longer than the configured bound',
  scope: 'conversation',
  check(c, ctx, report) {
    const bound = ctx.options.ttlBoundSeconds;
    for (const { round, index: i, reading } of issuedTokens(c, ctx)) {
      if (!reading.expiresAt) continue;
      const exp = Date.parse(reading.expiresAt);
      const issued = reading.issuedAt ? Date.parse(reading.issuedAt) : reading.format === 'sdk-hmac-v1' ? (round.answeredAt ?? NaN) : NaN;
      if (!Number.isFinite(exp) || !Number.isFinite(issued)) continue;
      const ttl = Math.round((exp - issued) / 1000);
      if (ttl <= bound) continue;
      const from = reading.issuedAt ? 'its issue time' : 'the time it was issued';
      report({
        exchange: round.exchange,
        message: `requestState issued in ${roundLabel(i)} stays valid for ${ttl} s after ${from}, longer than the bound of ${bound} s; a short TTL (minutes) limits replay (the bound is set with ttlBoundSeconds)`,
      });
    }
  },
};
