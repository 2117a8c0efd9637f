// Form elicitation must not collect secrets; those go through URL mode.
import type { ExchangeRule } from '../../rule.js';
import { asObject, own } from '../../../decode/meta.js';
import { show } from '../support.js';
import { embeddedRequests } from '../support-input.js';

// Whole words of a field name (split on case, _, -, ., space), so "shipping" is not "pin"
// and "max_tokens" is not a secret field.
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'cvv', 'cvc', 'ssn', 'pin', 'iban', 'otp']);
const SECRET_PAIRS = new Set(['api key', 'access key', 'private key', 'card number', 'credit card', 'security code']);

// Field names repeat across a capture's forms: remember verdicts (bounded).
const verdicts = new Map<string, boolean>();

function looksSecret(name: string): boolean {
  let v = verdicts.get(name);
  if (v === undefined) {
    v = secretWords(name);
    if (verdicts.size >= 4096) verdicts.clear();
    verdicts.set(name, v);
  }
  return v;
}

function secretWords(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  for (let i = 0; i + 1 < words.length; i++) if (SECRET_PAIRS.has(`${words[i]} ${words[i + 1]}`)) return true;
  return false;
}

/** elic:30-33. A heuristic on property names for a MUST NOT, hence a warning. */
export const elicitSecretField: ExchangeRule = {
  id: 'elicit/secret-field',
  tier: 2,
  severity: 'warning',
  clause: 'elic:30-33',
  title: 'a form field asks for a secret',
  scope: 'exchange',
  check(d, _record, _ctx, report) {
    for (const { key, params } of embeddedRequests(d, 'elicitation/create')) {
      if (own(params, 'mode') === 'url') continue;
      const props = asObject(own(asObject(own(params, 'requestedSchema')), 'properties'));
      let names: string[] | undefined;
      for (const name of props ? Object.keys(props) : []) if (looksSecret(name)) (names ??= []).push(name);
      if (names === undefined) continue;
      report({
        exchange: d.seq,
        message: `form elicitation inputRequests[${show(key)}] asks for ${names.map(show).join(', ')}, which looks like a secret; servers must not collect passwords, API keys, tokens or payment details in a form: use URL mode`,
      });
    }
  },
};
