// inputResponses[k] must be the result type of the request inputRequests[k] made.
import type { ConversationRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { retryPairs, roundLabel, show } from '../support.js';
import { KIND_FOR_METHOD, responseKind } from '../support-input.js';

const EXPECTED: Readonly<Record<string, string>> = {
  elicit: 'an ElicitResult {action, content?}',
  sampling: 'a CreateMessageResult {role, content, model}',
  roots: 'a ListRootsResult {roots}',
};

/**
 * ts:541-542. A value is judged by its distinguishing members (action / role+model /
 * roots). Values with none of them are left to the *-result-shape rules, which say which
 * field is missing; values of another kind, non-objects and the `{method, result}`
 * envelope are reported here.
 */
export const responseKindMismatch: ConversationRule = {
  id: 'mrtr/response-kind-mismatch',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'ts:541-542',
  title: 'inputResponses value is not the result type of its request',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { prev, prevIndex, round, index } of retryPairs(c)) {
      if (!prev.inputRequests) continue;
      const responses = asObject(own(ctx.request(round)?.params, 'inputResponses'));
      if (!responses) continue;
      for (const key of Object.keys(responses)) {
        if (!Object.prototype.hasOwnProperty.call(prev.inputRequests, key)) continue;
        const method = prev.inputRequests[key];
        const want = KIND_FOR_METHOD[method];
        if (!want) continue;
        const kind = responseKind(responses[key]);
        if (kind === want || kind === 'unknown') continue;
        const seen = kind === 'not-object' ? `the value ${show(responses[key])}`
          : kind === 'wrapped' ? 'a {method, result} envelope'
          : `what looks like ${EXPECTED[kind]}`;
        report({
          exchange: round.exchange,
          message: `retry (id ${show(round.requestId)}) answered inputRequests[${show(key)}] (${method}, ${roundLabel(prevIndex)}) with ${seen}; expected ${EXPECTED[want]}, sent bare`,
        });
      }
    }
  },
};
