// Which form fields auto mode never stores (worker/console/secret-fields.ts).
import { describe, expect, it } from 'vitest';
import { looksSecret, missingWithheld, secretFields, withoutFields } from '../../../worker/console/secret-fields.js';
import type { InputRequest } from '../../../worker/console/types.js';

const form = (properties: Record<string, unknown>): InputRequest => ({ method: 'elicitation/create', params: { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties } } });

describe('secret-looking form fields', () => {
  it('marks fields by password format, writeOnly, name or title, and leaves the rest', () => {
    const req = form({
      account: { type: 'string' },
      pin: { type: 'string' },
      word: { type: 'string', format: 'password' },
      hidden: { type: 'string', writeOnly: true },
      code: { type: 'string', title: 'One-time code (OTP)' },
      apiKey: { type: 'string' },
      plan: { type: 'string', title: 'Plan' },
    });
    expect(secretFields(req)).toEqual(['pin', 'word', 'hidden', 'code', 'apiKey']);
  });

  it('reads names word by word, so "pinned" and "spinner" are not secrets but "API_KEY" and "accessToken" are', () => {
    for (const s of ['PIN', 'user_password', 'Passcode', 'client secret', 'accessToken', 'API_KEY', 'api key', 'otp', 'passphrase']) expect(looksSecret(s), s).toBe(true);
    for (const s of ['pinned', 'spinner', 'name', 'tokens_used_later', 'capital', 'keyboard']) expect(looksSecret(s), s).toBe(false);
  });

  it('finds none in requests that are not forms', () => {
    expect(secretFields({ method: 'sampling/createMessage', params: { messages: [] } })).toEqual([]);
    expect(secretFields(undefined)).toEqual([]);
  });

  it('takes the fields out of a copy of the answer, and tells which are missing when read back', () => {
    const answer = { action: 'accept', content: { account: 'alice', pin: '4321' } };
    const kept = withoutFields(answer, ['pin']);
    expect(kept).toEqual({ action: 'accept', content: { account: 'alice' } });
    expect(answer.content.pin).toBe('4321');
    expect(missingWithheld(kept, ['pin'])).toEqual(['pin']);
    expect(missingWithheld(answer, ['pin'])).toEqual([]);
  });
});
