// The client's answer to an elicitation: an action, and content only when accepting.
import type { ConversationRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { answeredInputs } from '../support-input.js';

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** ts:3134-3149. Values that look like another result kind go to response-kind-mismatch. */
export const elicitResultShape: ConversationRule = {
  id: 'elicit/result-shape',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'ts:3134-3149',
  title: 'ElicitResult action is invalid, or content comes with a non-accept action',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { pair, key, value } of answeredInputs(c, ctx, 'elicitation/create')) {
      const v = asObject(value);
      const action = own(v, 'action');
      const content = own(v, 'content');
      const where = () => `retry (id ${show(pair.round.requestId)}) inputResponses[${show(key)}]`;
      if (typeof action !== 'string' || !ACTIONS.has(action)) {
        report({ exchange: pair.round.exchange, message: `${where()} has action ${show(action ?? null)}; an ElicitResult needs action "accept", "decline" or "cancel"` });
      } else if (content !== undefined && action !== 'accept') {
        report({ exchange: pair.round.exchange, message: `${where()} has action ${show(action)} but carries content; send content only with action "accept"` });
      } else if (content !== undefined && !asObject(content)) {
        report({ exchange: pair.round.exchange, message: `${where()} has content ${show(content)}; content must be an object of field values` });
      }
    }
  },
};
