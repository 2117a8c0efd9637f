// The client's roots answer: a list of file:// roots.
import type { ConversationRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { answeredInputs } from '../support-input.js';

/** roots:100-101. */
export const rootsResultShape: ConversationRule = {
  id: 'roots/result-shape',
  about: 'client',
  tier: 1,
  severity: 'error',
  clause: 'roots:100-101',
  title: 'ListRootsResult lacks roots, or a root uri is not file://',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { pair, key, value } of answeredInputs(c, ctx, 'roots/list')) {
      const where = `retry (id ${show(pair.round.requestId)}) inputResponses[${show(key)}] (a roots answer)`;
      const roots = own(asObject(value), 'roots');
      if (!Array.isArray(roots)) {
        report({ exchange: pair.round.exchange, message: `${where} has no "roots" array; a ListRootsResult is {roots: [{uri: "file://…"}]}` });
        continue;
      }
      const bad = roots.map((r) => own(asObject(r), 'uri')).filter((u) => typeof u !== 'string' || !u.startsWith('file://'));
      if (bad.length === 0) continue;
      report({
        exchange: pair.round.exchange,
        message: `${where} has root uri ${bad.slice(0, 3).map((u) => show(u ?? null)).join(', ')}; every root uri must be a file:// URI`,
      });
    }
  },
};
