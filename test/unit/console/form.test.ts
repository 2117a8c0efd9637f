// Elicitation forms from requestedSchema, their validation, and the ElicitResult.
import { describe, expect, it } from 'vitest';
import { elicitResult, formFromSchema, initialValues, validateForm } from '../../../worker/console/form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    age: { type: 'integer', minimum: 0, maximum: 120 },
    ratio: { type: 'number', minimum: 0.5, default: 1.5 },
    ok: { type: 'boolean', default: false },
    plan: { type: 'string', enum: ['free', 'pro'] },
    legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
    color: { type: 'string', oneOf: [{ const: '#f00', title: 'Red' }, { const: '#0f0', title: 'Green' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] }, minItems: 1, maxItems: 2, default: ['x'] },
    titledTags: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
    nested: { type: 'object', properties: {} },
  },
  required: ['name', 'plan', 'age'],
};

describe('elicitation forms', () => {
  const model = formFromSchema(schema, 'Tell me');

  it('models every primitive type, enums (plain, legacy enumNames, titled oneOf, multi-select), required and defaults', () => {
    const by = Object.fromEntries(model.fields.map((f) => [f.name, f]));
    expect(by.name).toMatchObject({ type: 'string', title: 'Name', required: true, minLength: 2, maxLength: 5 });
    expect(by.email).toMatchObject({ type: 'string', format: 'email', required: false });
    expect(by.age).toMatchObject({ type: 'integer', minimum: 0, maximum: 120, required: true });
    expect(by.ratio).toMatchObject({ type: 'number', minimum: 0.5, default: 1.5 });
    expect(by.ok).toMatchObject({ type: 'boolean', default: false });
    expect(by.plan.options).toEqual([{ value: 'free', label: 'free' }, { value: 'pro', label: 'pro' }]);
    expect(by.legacy.options).toEqual([{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }]);
    expect(by.color).toMatchObject({ type: 'enum', options: [{ value: '#f00', label: 'Red' }, { value: '#0f0', label: 'Green' }] });
    expect(by.tags).toMatchObject({ type: 'multi-enum', minItems: 1, maxItems: 2, default: ['x'] });
    expect(by.titledTags.options).toEqual([{ value: 'p', label: 'P' }]);
    expect(by.nested).toBeUndefined();
    expect(model.problems).toEqual([expect.stringContaining('"nested"')]);
    expect(model.message).toBe('Tell me');
    expect(initialValues(model)).toEqual({ ratio: 1.5, ok: false, tags: ['x'] });
  });

  it('reports each missing required field', () => {
    const r = validateForm(model, {});
    expect(r.ok).toBe(false);
    expect(Object.keys(r.errors).sort()).toEqual(['age', 'name', 'plan']);
    expect(r.errors.name).toBe('Name is required');
  });

  it('checks types, lengths, formats, enums and bounds per field', () => {
    const r = validateForm(model, { name: 'x', email: 'nope', day: '2026-13-45', age: '12.5', ratio: 0.1, ok: 'maybe', plan: 'gold', color: '#00f', tags: ['x', 'y', 'z'] });
    expect(r.errors).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'email must be an email address',
      day: 'day must be a date as YYYY-MM-DD',
      age: 'age must be a whole number',
      ratio: 'ratio must be at least 0.5',
      ok: 'ok must be true or false',
      plan: 'plan must be one of free, pro',
      color: 'color must be one of #f00, #0f0',
      tags: 'tags pick at most 2',
    });
    expect(validateForm(model, { name: 'x', age: 121, plan: 'pro' }).errors.age).toBe('age must be at most 120');
    expect(validateForm(model, { name: 'x', age: 'abc', plan: 'pro' }).errors.age).toBe('age must be a number');
  });

  it('gives typed content when everything is valid (numbers typed as text become numbers)', () => {
    const r = validateForm(model, { name: 'Ann', age: '42', plan: 'pro', ok: 'true', tags: ['y'], email: 'a@b.co', day: '2026-11-30', color: '#0f0' });
    expect(r).toEqual({ ok: true, errors: {}, content: { name: 'Ann', age: 42, plan: 'pro', ok: true, tags: ['y'], email: 'a@b.co', day: '2026-11-30', color: '#0f0' } });
    expect(elicitResult('accept', r.content)).toEqual({ action: 'accept', content: r.content });
  });

  it('sends content only with accept', () => {
    expect(elicitResult('decline', { a: 1 })).toEqual({ action: 'decline' });
    expect(elicitResult('cancel')).toEqual({ action: 'cancel' });
    expect(elicitResult('accept')).toEqual({ action: 'accept' });
  });

  it('says what is wrong with a schema it cannot use, without throwing', () => {
    expect(formFromSchema(null).problems).toEqual(['requestedSchema has no "properties" object']);
    expect(formFromSchema({ type: 'object', properties: { a: 5 } }).problems).toEqual(['property "a" is not a schema object']);
  });
});
