// The client's sampling answer: role, content and the model that produced it.
import type { ConversationRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { answeredInputs } from '../support-input.js';

/** ts:2210-2228. Values that look like another result kind go to response-kind-mismatch. */
export const samplingResultShape: ConversationRule = {
  id: 'sampling/result-shape',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'ts:2210-2228',
  title: 'CreateMessageResult lacks role, content or model',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { pair, key, value } of answeredInputs(c, ctx, 'sampling/createMessage')) {
      const v = asObject(value);
      const missing: string[] = [];
      const role = own(v, 'role');
      if (role !== 'assistant' && role !== 'user') missing.push(role === undefined ? '"role"' : `a valid "role" (got ${show(role)})`);
      const content = own(v, 'content');
      if (!asObject(content) && !Array.isArray(content)) missing.push('"content"');
      if (typeof own(v, 'model') !== 'string') missing.push('a string "model"');
      if (missing.length === 0) continue;
      report({
        exchange: pair.round.exchange,
        message: `retry (id ${show(pair.round.requestId)}) inputResponses[${show(key)}] (a sampling answer) lacks ${missing.join(', ')}; a CreateMessageResult needs role, content and model`,
      });
    }
  },
};
