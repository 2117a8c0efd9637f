// Properties of the filter language over arbitrary input: parsing is total, matching is
// total, and what parses describes and re-matches without throwing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Conversation, Finding } from '../../../worker/protocol.js';
import { describeFilter, matchesFilter, parseFilter, type FilterTerm } from '../../../worker/query/index.js';
import { conversation, round } from './subjects.js';

// Filter-ish text: mostly the language's own pieces, so parsing goes deep, plus anything.
const piece = fc.oneof(
  fc.constantFrom('method:', 'name:', 'status:', 'rule:', 'severity:', 'era:', 'has:', 'rounds:', 'round:', 'exchange:', 'id:', 'nope:',
    '-', '"', '\\"', '\\', '*', '>', '>=', '<', '=', ' ', '\t', '\n', 'error', 'state', 'legacy', '2', 'tools/call', ':'),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const filterText = fc.oneof(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), fc.string({ unit: 'binary' }));

// One well-formed keyed term, so every key's negation is exercised, not just free text.
const keyedTerm = fc.tuple(
  fc.constantFrom('', '-'),
  fc.constantFrom('method:', 'name:', 'rule:', 'id:', 'status:', 'severity:', 'era:', 'has:', 'rounds:', 'exchange:'),
  fc.constantFrom('*', 'tools/*', 'error', 'complete', 'warning', 'info', 'legacy', 'modern', 'state', 'findings', 'errors', 'ambiguous', '2', '>1', '<=3', 'c*'),
).map((p) => p.join(''));

const anyString = fc.oneof(fc.string(), fc.constantFrom('*', '', '**', 'tools/*', 'error', 'state', 'legacy', '2026-07-28'));
const term: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('text', 'method', 'name', 'rule', 'id', 'status', 'severity', 'era', 'has', 'rounds', 'exchange', 'bogus'),
    negate: fc.oneof(fc.boolean(), fc.constant(undefined)),
    at: fc.integer(),
    text: anyString, pattern: anyString,
    value: fc.oneof(anyString, fc.integer(), fc.double(), fc.constant(null)),
    op: fc.oneof(fc.constantFrom('<', '<=', '=', '>=', '>'), fc.string()),
  }, { requiredKeys: ['kind'] }),
  fc.anything(),
);

const subjectArb = fc.record({
  status: fc.constantFrom('complete', 'error', 'abandoned', 'in-progress'),
  name: fc.option(fc.string(), { nil: null }),
  era: fc.constantFrom('2026-07-28', 'legacy'),
  rounds: fc.integer({ min: 0, max: 4 }),
  exchanges: fc.array(fc.nat(50), { maxLength: 4 }),
  rules: fc.array(fc.tuple(fc.string(), fc.constantFrom('error', 'warning', 'info')), { maxLength: 3 }),
  text: fc.string(),
}).map((s) => {
  const c: Conversation = conversation({
    status: s.status as Conversation['status'], name: s.name, era: s.era as Conversation['era'], exchanges: s.exchanges,
    rounds: Array.from({ length: s.rounds }, (_, i) => round({ stateIssued: i % 2 ? 'v1.x' : null, link: i === 2 ? 'ambiguous' : null })),
  });
  const findings: Finding[] = s.rules.map(([rule, severity]) => ({ rule, severity: severity as Finding['severity'], exchange: 0, conversation: c.id, message: '', clause: '' }));
  return { conversation: c, findings, text: () => s.text };
});

describe('filter language properties', () => {
  it('parseFilter never throws, and errors point inside the text', () => {
    fc.assert(fc.property(filterText, (text) => {
      const got = parseFilter(text);
      if (!got.ok) {
        expect(got.error.at).toBeGreaterThanOrEqual(0);
        expect(got.error.at).toBeLessThanOrEqual(text.length);
        expect(got.error.message.length).toBeGreaterThan(0);
      } else {
        for (const t of got.terms) expect(t.at).toBeLessThan(text.length);
      }
    }), { numRuns: 2000 });
  });

  it('matchesFilter never throws on arbitrary terms', () => {
    fc.assert(fc.property(fc.array(term, { maxLength: 5 }), subjectArb, (terms, s) => {
      expect(typeof matchesFilter(terms as FilterTerm[], s)).toBe('boolean');
    }), { numRuns: 2000 });
  });

  it('whatever parses can be matched and described without throwing', () => {
    fc.assert(fc.property(filterText, subjectArb, (text, s) => {
      const got = parseFilter(text);
      if (!got.ok) return;
      expect(typeof matchesFilter(got.terms, s)).toBe('boolean');
      expect(typeof describeFilter(got.terms)).toBe('string');
    }), { numRuns: 2000 });
  });

  it('a negated term selects exactly the complement of the term', () => {
    fc.assert(fc.property(fc.oneof(filterText, keyedTerm), subjectArb, (text, s) => {
      const got = parseFilter(text);
      if (!got.ok || got.terms.length !== 1) return;
      const [t] = got.terms;
      expect(matchesFilter([{ ...t, negate: !t.negate }], s)).toBe(!matchesFilter([t], s));
    }), { numRuns: 4000 });
  });
});
