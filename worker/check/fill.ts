// Values that satisfy a JSON Schema, for the arguments of a tool (inputSchema) and the
// content of an accepted form (requestedSchema): every required property filled, optional
// ones only when they carry a default. The aim is a call the server takes as valid, not
// coverage of the schema: defaults first, then the first enum choice, then a plain value
// of the type that meets its bounds and format.
import { asObject, own } from '../decode/meta.js';

const MAX_DEPTH = 8;

/** A string meeting `format` and the length bounds. */
function stringFor(s: Record<string, unknown> | undefined): string {
  const format = own(s, 'format');
  const byFormat: Record<string, string> = {
    email: 'check@example.com', uri: 'https://example.com/', url: 'https://example.com/', 'uri-reference': 'https://example.com/',
    date: '2026-01-01', 'date-time': '2026-01-01T00:00:00Z', time: '00:00:00Z', uuid: '00000000-0000-4000-8000-000000000000',
    hostname: 'example.com', ipv4: '127.0.0.1', ipv6: '::1',
  };
  let v = typeof format === 'string' && byFormat[format] !== undefined ? byFormat[format] : 'check';
  const min = own(s, 'minLength');
  const max = own(s, 'maxLength');
  if (typeof min === 'number' && v.length < min) v = v.padEnd(min, 'x');
  if (typeof max === 'number' && v.length > max) v = v.slice(0, Math.max(0, max));
  return v;
}

/** A number inside the bounds (the minimum, else 1 when it fits, else the maximum). */
function numberFor(s: Record<string, unknown> | undefined, integer: boolean): number {
  const min = own(s, 'minimum');
  const xmin = own(s, 'exclusiveMinimum');
  const max = own(s, 'maximum');
  if (typeof min === 'number') return integer ? Math.ceil(min) : min;
  if (typeof xmin === 'number') return integer ? Math.floor(xmin) + 1 : xmin + 1;
  if (typeof max === 'number' && max < 1) return integer ? Math.floor(max) : max;
  return 1;
}

/** A value for one schema, or undefined when it has no type to go by. */
export function valueFor(schema: unknown, depth = 0): unknown {
  const s = asObject(schema);
  if (!s || depth > MAX_DEPTH) return undefined;
  if (own(s, 'default') !== undefined) return structuredClone(own(s, 'default'));
  if (own(s, 'const') !== undefined) return structuredClone(own(s, 'const'));
  const e = own(s, 'enum');
  if (Array.isArray(e) && e.length > 0) return structuredClone(e[0]);
  const choice = own(s, 'oneOf') ?? own(s, 'anyOf');
  if (Array.isArray(choice) && choice.length > 0) return valueFor(choice[0], depth + 1);
  let type = own(s, 'type');
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? type[0];
  switch (type) {
    case 'string': return stringFor(s);
    case 'integer': return numberFor(s, true);
    case 'number': return numberFor(s, false);
    case 'boolean': return true;
    case 'null': return null;
    case 'array': {
      const min = own(s, 'minItems');
      const n = typeof min === 'number' && min > 0 ? Math.min(min, 16) : 0;
      const item = valueFor(own(s, 'items'), depth + 1);
      return item === undefined ? [] : Array.from({ length: n || 1 }, () => structuredClone(item));
    }
    case 'object': return objectFor(s, depth);
    default: return asObject(own(s, 'properties')) ? objectFor(s, depth) : undefined;
  }
}

/** An object with every required property (and the defaulted optional ones). */
export function objectFor(schema: unknown, depth = 0): Record<string, unknown> {
  const s = asObject(schema);
  const out: Record<string, unknown> = {};
  const props = asObject(own(s, 'properties')) ?? {};
  const required = own(s, 'required');
  const need = new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : []);
  for (const [name, p] of Object.entries(props)) {
    if (!need.has(name) && own(asObject(p), 'default') === undefined) continue;
    const v = valueFor(p, depth + 1);
    if (v !== undefined) out[name] = v;
  }
  // A required name with no property schema still needs something.
  for (const name of need) if (!(name in out)) out[name] = 'check';
  return out;
}

/** A tool's arguments: built from its inputSchema, then the --args overrides laid over. */
export function argumentsFor(inputSchema: unknown, override?: Record<string, unknown>): Record<string, unknown> {
  return { ...objectFor(inputSchema), ...(override ?? {}) };
}
