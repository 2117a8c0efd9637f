import { describe, expect, it } from 'vitest';
import { argumentsFor, objectFor, valueFor } from '../../../worker/check/fill.js';

describe('values built from a JSON Schema', () => {
  it('fills every required property and leaves optional ones without a default out', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'string' } }, required: ['a', 'b'] };
    expect(objectFor(schema)).toEqual({ a: 'check', b: 1 });
  });

  it('prefers a default, then a const, then the first enum choice', () => {
    expect(valueFor({ type: 'string', default: 'd', enum: ['x'] })).toBe('d');
    expect(valueFor({ const: 7 })).toBe(7);
    expect(valueFor({ type: 'string', enum: ['small', 'large'] })).toBe('small');
  });

  it('meets string formats and length bounds', () => {
    expect(valueFor({ type: 'string', format: 'email' })).toBe('check@example.com');
    expect(valueFor({ type: 'string', format: 'date-time' })).toBe('2026-01-01T00:00:00Z');
    expect(valueFor({ type: 'string', minLength: 10 })).toHaveLength(10);
    expect(valueFor({ type: 'string', maxLength: 3 })).toBe('che');
  });

  it('keeps numbers inside their bounds', () => {
    expect(valueFor({ type: 'integer', minimum: 5 })).toBe(5);
    expect(valueFor({ type: 'integer', exclusiveMinimum: 5 })).toBe(6);
    expect(valueFor({ type: 'number', maximum: 0.5 })).toBe(0.5);
  });

  it('builds nested objects and arrays of at least minItems', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', enum: ['t'] }, minItems: 2 }, where: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }, required: ['tags', 'where'] };
    expect(objectFor(schema)).toEqual({ tags: ['t', 't'], where: { city: 'check' } });
  });

  it('lays --args overrides over the built arguments', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a', 'b'] };
    expect(argumentsFor(schema, { b: 42, extra: true })).toEqual({ a: 'check', b: 42, extra: true });
  });
});
