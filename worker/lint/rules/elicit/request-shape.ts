// An embedded elicitation must be renderable: a message, plus a flat form schema or a URL.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { embeddedRequests } from '../support-input.js';

const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);

/** elic:90-112, 332-338. Checked on every input_required answer, threaded or not. */
export const elicitRequestShape: ExchangeRule = {
  id: 'elicit/request-shape',
  tier: 1,
  severity: 'error',
  clause: 'elic:90-112, 332-338',
  title: 'embedded elicitation lacks message, a flat form schema, or a valid url',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const { key, params } of embeddedRequests(d, 'elicitation/create')) {
      for (const problem of problems(params)) {
        report({ exchange: d.seq, message: `elicitation inputRequests[${show(key)}] ${problem}` });
      }
    }
  },
};

// Hot path (every embedded elicitation): no lists are made until a problem is found.
const NONE: readonly string[] = Object.freeze([]);

function problems(params: Record<string, unknown> | undefined): readonly string[] {
  if (!params) return ['has no params object; send {message, requestedSchema} (form) or {mode: "url", message, url}'];
  let out: string[] | undefined;
  if (typeof own(params, 'message') !== 'string') (out ??= []).push('has no string "message"; every elicitation must tell the user what is asked');
  const mode = own(params, 'mode');
  if (mode === 'url') {
    const url = own(params, 'url');
    if (typeof url !== 'string') (out ??= []).push('is URL mode but has no string "url"');
    else if (!URL.canParse(url)) (out ??= []).push(`is URL mode but url ${show(url)} is not a valid absolute URL`);
  } else if (mode === undefined || mode === 'form') {
    const form = formProblems(own(params, 'requestedSchema'));
    if (form.length > 0) (out ??= []).push(...form);
  } else {
    (out ??= []).push(`has mode ${show(mode)}; expected "form" (or absent) or "url"`);
  }
  return out ?? NONE;
}

function formProblems(schema: unknown): readonly string[] {
  const s = asObject(schema);
  if (!s) return ['is form mode but has no object "requestedSchema"; send {type: "object", properties: {…}}'];
  let out: string[] | undefined;
  if (own(s, 'type') !== 'object') (out ??= []).push(`requestedSchema has type ${show(own(s, 'type') ?? null)}; it must be "object"`);
  const props = own(s, 'properties');
  if (!asObject(props)) {
    (out ??= []).push('requestedSchema has no object "properties"');
    return out;
  }
  const fields = props as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    const why = propertyProblem(asObject(fields[name]));
    if (why) (out ??= []).push(`requestedSchema property ${show(name)} ${why}; form fields must be flat primitives (string, number, integer, boolean, or an enum array)`);
  }
  return out ?? NONE;
}

function propertyProblem(p: Record<string, unknown> | undefined): string | null {
  if (!p) return 'is not a schema object';
  const type = own(p, 'type');
  if (own(p, 'properties') !== undefined || type === 'object') return 'is a nested object';
  if (typeof type === 'string' && PRIMITIVE.has(type)) return null;
  if (type === 'array') {
    const items = asObject(own(p, 'items'));
    if (items && (own(items, 'enum') !== undefined || own(items, 'anyOf') !== undefined)) return null;
    return 'is an array whose items are not an enum (only multi-select enums may be arrays)';
  }
  return `has type ${show(type ?? null)}`;
}
