// Long-lived state widens the replay window.
import type { ConversationRule } from '../../rule.js';
import { isFirstIssue, roundLabel } from '../support.js';

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
    c.rounds.forEach((round, i) => {
      const token = round.stateIssued;
      if (token === null || !isFirstIssue(ctx, c, i, token)) return;
      const reading = ctx.token(token);
      if (!reading?.expiresAt) return;
      const exp = Date.parse(reading.expiresAt);
      const issued = reading.issuedAt ? Date.parse(reading.issuedAt) : reading.format === 'sdk-hmac-v1' ? (round.answeredAt ?? NaN) : NaN;
      if (!Number.isFinite(exp) || !Number.isFinite(issued)) return;
      const ttl = Math.round((exp - issued) / 1000);
      if (ttl <= bound) return;
      const from = reading.issuedAt ? 'its issue time' : 'the time it was issued';
      report({
        exchange: round.exchange,
        message: `requestState issued in ${roundLabel(i)} stays valid for ${ttl} s after ${from}, longer than the bound of ${bound} s; a short TTL (minutes) limits replay (the bound is set with ttlBoundSeconds)`,
      });
    });
  },
};
