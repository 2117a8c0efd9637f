// Servers read capabilities per request: a retry must re-declare what its answers rely on.
import type { ConversationRule } from '../../rule.js';
import { asObject, own, requestMeta } from '../../../decode/meta.js';
import { retryPairs, roundLabel, show } from '../support.js';

const CAPABILITY: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** ts:96. */
export const capabilityDropped: ConversationRule = {
  id: 'mrtr/capability-dropped',
  about: 'client',
  tier: 2,
  severity: 'info',
  clause: 'ts:96',
  title: 'retry no longer declares a capability its inputResponses rely on',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { prev, round, index } of retryPairs(c)) {
      if (!prev.inputRequests || !round.inputResponses) continue;
      const caps = requestMeta(ctx.request(round)?.params).clientCapabilities;
      const dropped = new Set<string>();
      for (const key of round.inputResponses) {
        const method = Object.prototype.hasOwnProperty.call(prev.inputRequests, key) ? prev.inputRequests[key] : undefined;
        const cap = method !== undefined ? CAPABILITY[method] : undefined;
        if (cap !== undefined && !asObject(own(caps, cap))) dropped.add(cap);
      }
      if (dropped.size === 0) continue;
      report({
        exchange: round.exchange,
        message: `retry (id ${show(round.requestId)}) in ${roundLabel(index)} answers input that needs ${[...dropped].map(show).join(', ')} but its own clientCapabilities no longer declare it; servers must not infer capabilities from earlier rounds, so re-declare them on every retry`,
      });
    }
  },
};
