// Which answers auto mode may keep at rest. Remembered answers outlive a reload in IndexedDB
// settings, and nothing secret may be stored there: a form field that looks secret (by its
// schema, or by its name or title) is kept in memory for this visit only, and asked again
// after a reload. When in doubt a field counts as secret: asking twice is cheap, a stored
// PIN is not.
import { asObject, own } from '../decode/meta.js';
import type { InputRequest } from './types.js';

/** Words in a field's name or title that mark it secret (compared word by word, any case); "api key" too. */
export const SECRET_WORDS: readonly string[] = ['pin', 'password', 'passwd', 'passcode', 'passphrase', 'secret', 'token', 'otp', 'apikey'];

// "apiKey", "API_KEY", "api key" all split to the words api + key.
function words(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** True when a name or title reads as a secret: one of SECRET_WORDS, or "api" followed by "key". */
export function looksSecret(text: string): boolean {
  const w = words(text);
  return w.some((x, i) => SECRET_WORDS.includes(x) || (x === 'api' && w[i + 1] === 'key'));
}

/**
 * The fields of an elicitation form that must not be stored: `format: "password"`,
 * `writeOnly: true`, or a name or title that looks secret. Other kinds of request have none.
 */
export function secretFields(request: InputRequest | undefined): string[] {
  if (request?.method !== 'elicitation/create') return [];
  const props = asObject(own(asObject(own(request.params, 'requestedSchema')), 'properties')) ?? {};
  return Object.entries(props).filter(([name, p]) => {
    const s = asObject(p);
    const title = own(s, 'title');
    return own(s, 'format') === 'password' || own(s, 'writeOnly') === true || looksSecret(name) || (typeof title === 'string' && looksSecret(title));
  }).map(([name]) => name);
}

/** A form answer with the named fields taken out of its content (a copy; others unchanged). */
export function withoutFields(response: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const content = asObject(own(response, 'content'));
  if (!content || fields.length === 0) return structuredClone(response);
  const kept = Object.fromEntries(Object.entries(content).filter(([k]) => !fields.includes(k)));
  return { ...structuredClone(response), content: structuredClone(kept) };
}

/** True when an answer read back from storage lacks a field it withheld (so it cannot be sent as is). */
export function missingWithheld(response: Record<string, unknown>, withheld: readonly string[] | undefined): string[] {
  if (!withheld?.length) return [];
  const content = asObject(own(response, 'content')) ?? {};
  return withheld.filter((f) => !Object.prototype.hasOwnProperty.call(content, f));
}
