// Elicitation forms: a plain field model from a form-mode `requestedSchema` (elic:104-239,
// ts:2867-2884: a flat object of primitive properties and enums), validation of what the
// user typed, and the ElicitResult to send. The page renders the model; it parses nothing.
import { asObject, own } from '../decode/meta.js';

/** The kinds of control a field needs. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum';

/** One choice of an enum field (`enum`, titled `oneOf`/`anyOf`, or legacy `enumNames`). */
export interface FieldOption {
  value: string;
  label: string;
}

/** One form field, everything the page needs to render and check it. */
export interface FormField {
  name: string;
  title: string;
  description?: string;
  type: FieldType;
  required: boolean;
  default?: string | number | boolean | string[];
  options?: FieldOption[];
  minLength?: number;
  maxLength?: number;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** The form, plus what in the schema it could not turn into a field (shown, not thrown). */
export interface FormModel {
  message?: string;
  fields: FormField[];
  problems: string[];
}

/** A field value as the page holds it; numbers may still be the text typed. */
export type FieldValue = string | number | boolean | string[] | undefined | null;

/** What validateForm says: per-field errors, and the typed content when there are none. */
export interface FormCheck {
  ok: boolean;
  errors: Record<string, string>;
  content: Record<string, string | number | boolean | string[]>;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function options(s: Record<string, unknown> | undefined): FieldOption[] | undefined {
  const e = own(s, 'enum');
  if (Array.isArray(e)) {
    const names = own(s, 'enumNames');
    return e.filter((v) => typeof v === 'string').map((v, i) => ({ value: v as string, label: Array.isArray(names) && typeof names[i] === 'string' ? (names[i] as string) : (v as string) }));
  }
  const titled = own(s, 'oneOf') ?? own(s, 'anyOf');
  if (Array.isArray(titled)) {
    const out: FieldOption[] = [];
    for (const item of titled) {
      const c = own(asObject(item), 'const');
      const t = own(asObject(item), 'title');
      if (typeof c === 'string') out.push({ value: c, label: typeof t === 'string' ? t : c });
    }
    return out;
  }
  return undefined;
}

/** The field model of a requestedSchema. Never throws; odd properties land in `problems`. */
export function formFromSchema(requestedSchema: unknown, message?: string): FormModel {
  const model: FormModel = { fields: [], problems: [], ...(message !== undefined ? { message } : {}) };
  const schema = asObject(requestedSchema);
  const props = asObject(own(schema, 'properties'));
  if (!schema || !props) {
    model.problems.push('requestedSchema has no "properties" object');
    return model;
  }
  const req = own(schema, 'required');
  const required = new Set(Array.isArray(req) ? req.filter((r) => typeof r === 'string') : []);
  for (const [name, raw] of Object.entries(props)) {
    const s = asObject(raw);
    if (!s) {
      model.problems.push(`property "${name}" is not a schema object`);
      continue;
    }
    const t = own(s, 'type');
    const title = own(s, 'title');
    const description = own(s, 'description');
    const field: FormField = { name, title: typeof title === 'string' ? title : name, type: 'string', required: required.has(name) };
    if (typeof description === 'string') field.description = description;
    const opts = options(s);
    if (t === 'array') {
      const items = options(asObject(own(s, 'items')));
      if (!items) {
        model.problems.push(`property "${name}" is an array without enum items (only multi-select arrays are allowed)`);
        continue;
      }
      Object.assign(field, { type: 'multi-enum', options: items });
      if (num(own(s, 'minItems')) !== undefined) field.minItems = num(own(s, 'minItems'));
      if (num(own(s, 'maxItems')) !== undefined) field.maxItems = num(own(s, 'maxItems'));
    } else if (opts && (t === 'string' || t === undefined)) {
      Object.assign(field, { type: 'enum', options: opts });
    } else if (t === 'string') {
      if (num(own(s, 'minLength')) !== undefined) field.minLength = num(own(s, 'minLength'));
      if (num(own(s, 'maxLength')) !== undefined) field.maxLength = num(own(s, 'maxLength'));
      const f = own(s, 'format');
      if (typeof f === 'string') field.format = f;
    } else if (t === 'number' || t === 'integer') {
      field.type = t;
      if (num(own(s, 'minimum')) !== undefined) field.minimum = num(own(s, 'minimum'));
      if (num(own(s, 'maximum')) !== undefined) field.maximum = num(own(s, 'maximum'));
    } else if (t === 'boolean') {
      field.type = 'boolean';
    } else {
      model.problems.push(`property "${name}" has type ${JSON.stringify(t) ?? 'undefined'}; a form holds only string, number, integer, boolean and enums`);
      continue;
    }
    const d = own(s, 'default');
    if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean' || (Array.isArray(d) && d.every((x) => typeof x === 'string'))) field.default = d as FormField['default'];
    model.fields.push(field);
  }
  return model;
}

/** The values a fresh form starts with: each field's default, when it has one. */
export function initialValues(model: FormModel): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  for (const f of model.fields) if (f.default !== undefined) out[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
  return out;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkFormat(format: string, v: string): string | undefined {
  switch (format) {
    case 'email': return EMAIL.test(v) ? undefined : 'must be an email address';
    case 'uri': try { new URL(v); return undefined; } catch { return 'must be a URI (with a scheme, e.g. https://…)'; }
    case 'date': return DATE.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'must be a date as YYYY-MM-DD';
    case 'date-time': return DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'must be a date and time as YYYY-MM-DDThh:mm:ssZ';
    default: return undefined;
  }
}

function checkField(f: FormField, v: FieldValue): { error?: string; value?: string | number | boolean | string[] } {
  switch (f.type) {
    case 'string': {
      if (typeof v !== 'string') return { error: 'must be text' };
      if (f.minLength !== undefined && [...v].length < f.minLength) return { error: `must be at least ${f.minLength} characters` };
      if (f.maxLength !== undefined && [...v].length > f.maxLength) return { error: `must be at most ${f.maxLength} characters` };
      const bad = f.format !== undefined ? checkFormat(f.format, v) : undefined;
      return bad ? { error: bad } : { value: v };
    }
    case 'number':
    case 'integer': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) return { error: 'must be a number' };
      if (f.type === 'integer' && !Number.isInteger(n)) return { error: 'must be a whole number' };
      if (f.minimum !== undefined && n < f.minimum) return { error: `must be at least ${f.minimum}` };
      if (f.maximum !== undefined && n > f.maximum) return { error: `must be at most ${f.maximum}` };
      return { value: n };
    }
    case 'boolean':
      if (typeof v === 'boolean') return { value: v };
      if (v === 'true' || v === 'false') return { value: v === 'true' };
      return { error: 'must be true or false' };
    case 'enum':
      if (typeof v === 'string' && f.options!.some((o) => o.value === v)) return { value: v };
      return { error: `must be one of ${f.options!.map((o) => o.value).join(', ')}` };
    case 'multi-enum': {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return { error: 'must be a list of choices' };
      const unknown = v.find((x) => !f.options!.some((o) => o.value === x));
      if (unknown !== undefined) return { error: `"${unknown}" is not one of ${f.options!.map((o) => o.value).join(', ')}` };
      if (new Set(v).size !== v.length) return { error: 'each choice may be picked once' };
      if (f.minItems !== undefined && v.length < f.minItems) return { error: `pick at least ${f.minItems}` };
      if (f.maxItems !== undefined && v.length > f.maxItems) return { error: `pick at most ${f.maxItems}` };
      return { value: [...v] };
    }
  }
}

/** Checks the values against the model: per-field errors, and the typed content to send. */
export function validateForm(model: FormModel, values: Record<string, FieldValue>): FormCheck {
  const errors: Record<string, string> = {};
  const content: FormCheck['content'] = {};
  for (const f of model.fields) {
    const v = Object.prototype.hasOwnProperty.call(values, f.name) ? values[f.name] : undefined;
    if (v === undefined || v === null || v === '') {
      if (f.required) errors[f.name] = `${f.title} is required`;
      continue;
    }
    const r = checkField(f, v);
    if (r.error !== undefined) errors[f.name] = `${f.title} ${r.error}`;
    else if (r.value !== undefined) content[f.name] = r.value;
  }
  return { ok: Object.keys(errors).length === 0, errors, content };
}

/** An ElicitResult: content only with accept (ts:3134-3149); URL-mode accept carries none. */
export function elicitResult(action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>): Record<string, unknown> {
  return action === 'accept' && content !== undefined ? { action, content: { ...content } } : { action };
}
