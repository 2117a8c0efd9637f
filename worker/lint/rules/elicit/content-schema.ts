// Accepted form content should satisfy the schema the server sent.
import type { ConversationRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { answeredInputs } from '../support-input.js';

/**
 * elic:450-461. Checks required fields, types, enums (enum, oneOf/anyOf consts, array
 * item enums) and the simple bounds of the flat primitive schema. Extra fields are not
 * reported: the schema does not forbid them. URL-mode elicitations have no schema.
 */
export const elicitContentSchema: ConversationRule = {
  id: 'elicit/content-schema',
  about: 'client',
  tier: 1,
  severity: 'warning',
  clause: 'elic:450-461',
  title: 'accepted content does not match requestedSchema',
  scope: 'conversation',
  check(c, ctx, report) {
    for (const { pair, key, params, value } of answeredInputs(c, ctx, 'elicitation/create')) {
      const v = asObject(value);
      const content = asObject(own(v, 'content'));
      const schema = asObject(own(params, 'requestedSchema'));
      if (own(v, 'action') !== 'accept' || own(params, 'mode') === 'url' || !schema) continue;
      const problems: string[] = [];
      const props = asObject(own(schema, 'properties'));
      const required = own(schema, 'required');
      if (Array.isArray(required)) {
        for (const f of required) if (typeof f === 'string' && own(content, f) === undefined) problems.push(`required field ${show(f)} is missing`);
      }
      for (const field of content ? Object.keys(content) : []) {
        const why = mismatch(asObject(own(props, field)), content![field]);
        if (why) problems.push(`field ${show(field)} ${why}`);
      }
      if (problems.length === 0) continue;
      report({
        exchange: pair.round.exchange,
        message: `retry (id ${show(pair.round.requestId)}) accepted inputRequests[${show(key)}] with content that does not match its requestedSchema: ${problems.slice(0, 5).join('; ')}; clients should validate form input against the schema before sending`,
      });
    }
  },
};

function mismatch(schema: Record<string, unknown> | undefined, v: unknown): string | null {
  if (!schema) return null;
  const type = own(schema, 'type');
  if (type === 'array') {
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return `is ${show(v)}, expected an array of strings`;
    const allowed = allowedValues(asObject(own(schema, 'items')));
    const bad = allowed ? v.filter((x) => !allowed.includes(x)) : [];
    if (bad.length > 0) return `has ${show(bad)} outside the allowed ${show(allowed)}`;
    const min = own(schema, 'minItems');
    const max = own(schema, 'maxItems');
    if (typeof min === 'number' && v.length < min) return `has ${v.length} items, fewer than minItems ${min}`;
    if (typeof max === 'number' && v.length > max) return `has ${v.length} items, more than maxItems ${max}`;
    return null;
  }
  const ok = type === 'string' ? typeof v === 'string'
    : type === 'number' ? typeof v === 'number'
    : type === 'integer' ? Number.isInteger(v)
    : type === 'boolean' ? typeof v === 'boolean'
    : true;
  if (!ok) return `is ${show(v)}, expected ${type}`;
  const allowed = allowedValues(schema);
  if (allowed && !allowed.includes(v)) return `is ${show(v)}, not one of ${show(allowed)}`;
  if (typeof v === 'string') {
    const min = own(schema, 'minLength');
    const max = own(schema, 'maxLength');
    if (typeof min === 'number' && v.length < min) return `is shorter than minLength ${min}`;
    if (typeof max === 'number' && v.length > max) return `is longer than maxLength ${max}`;
  }
  if (typeof v === 'number') {
    const min = own(schema, 'minimum');
    const max = own(schema, 'maximum');
    if (typeof min === 'number' && v < min) return `is ${v}, below minimum ${min}`;
    if (typeof max === 'number' && v > max) return `is ${v}, above maximum ${max}`;
  }
  return null;
}

/** Values an enum-like schema allows (enum, or oneOf/anyOf of {const}), else null. */
function allowedValues(schema: Record<string, unknown> | undefined): unknown[] | null {
  const e = own(schema, 'enum');
  if (Array.isArray(e)) return e;
  for (const k of ['oneOf', 'anyOf']) {
    const list = own(schema, k);
    if (Array.isArray(list)) return list.map((x) => own(asObject(x), 'const'));
  }
  return null;
}
