// The filter language's grammar: keys, negation, quoting, globs, comparisons, free text,
// and errors that say what is wrong and where.
import { describe, expect, it } from 'vitest';
import { parseFilter, type FilterTerm } from '../../../worker/query/index.js';

function terms(text: string): FilterTerm[] {
  const got = parseFilter(text);
  if (!got.ok) throw new Error(`${got.error.message} at ${got.error.at}`);
  return got.terms;
}

function error(text: string) {
  const got = parseFilter(text);
  if (got.ok) throw new Error(`expected an error for ${text}`);
  return got.error;
}

describe('parseFilter', () => {
  it('reads the design example into four terms with their offsets', () => {
    expect(terms('method:tools/call status:error rule:mrtr/* -name:echo')).toEqual([
      { kind: 'method', pattern: 'tools/call', negate: false, at: 0 },
      { kind: 'status', value: 'error', negate: false, at: 18 },
      { kind: 'rule', pattern: 'mrtr/*', negate: false, at: 31 },
      { kind: 'name', pattern: 'echo', negate: true, at: 43 },
    ]);
  });

  it('gives no terms for an empty or blank filter', () => {
    expect(terms('')).toEqual([]);
    expect(terms(' \t\n ')).toEqual([]);
  });

  it('reads every key', () => {
    const got = terms('method:a name:b status:abandoned rule:c severity:warning era:legacy has:state round:2 rounds:>=3 exchange:7 id:c9');
    expect(got.map((t) => t.kind)).toEqual(['method', 'name', 'status', 'rule', 'severity', 'era', 'has', 'rounds', 'rounds', 'exchange', 'id']);
  });

  it('accepts keys and enumerated values in any case', () => {
    expect(terms('STATUS:In-Progress Severity:INFO')).toEqual([
      { kind: 'status', value: 'in-progress', negate: false, at: 0 },
      { kind: 'severity', value: 'info', negate: false, at: 19 },
    ]);
  });

  it('reads every status, severity and has value', () => {
    for (const s of ['complete', 'error', 'abandoned', 'in-progress']) expect(terms(`status:${s}`)[0]).toMatchObject({ value: s });
    for (const s of ['error', 'warning', 'info']) expect(terms(`severity:${s}`)[0]).toMatchObject({ value: s });
    for (const s of ['state', 'findings', 'errors', 'legacy', 'ambiguous']) expect(terms(`has:${s}`)[0]).toMatchObject({ value: s });
  });

  it('maps the era spellings modern and 2026-07-28 to one era, legacy and 2025-11-25 to the other', () => {
    expect(terms('era:modern era:2026-07-28 era:legacy era:2025-11-25').map((t) => 'value' in t && t.value))
      .toEqual(['2026-07-28', '2026-07-28', 'legacy', 'legacy']);
  });

  it('reads comparisons, with a bare number meaning equal', () => {
    const got = terms('rounds:>2 rounds:>=2 rounds:<5 rounds:<=5 rounds:=3 round:4 exchange:>10');
    expect(got.map((t) => t.kind === 'rounds' || t.kind === 'exchange' ? `${t.kind}${t.op}${t.value}` : '')).toEqual([
      'rounds>2', 'rounds>=2', 'rounds<5', 'rounds<=5', 'rounds=3', 'rounds=4', 'exchange>10',
    ]);
  });

  it('negates any term with a leading dash, keyed or free text', () => {
    expect(terms('-has:state -timeout -"two words"')).toEqual([
      { kind: 'has', value: 'state', negate: true, at: 0 },
      { kind: 'text', text: 'timeout', negate: true, at: 11 },
      { kind: 'text', text: 'two words', negate: true, at: 20 },
    ]);
  });

  it('reads quoted values with spaces and escaped quotes and backslashes', () => {
    expect(terms('name:"my tool" "say \\"hi\\" \\\\ there"')).toEqual([
      { kind: 'name', pattern: 'my tool', negate: false, at: 0 },
      { kind: 'text', text: 'say "hi" \\ there', negate: false, at: 15 },
    ]);
  });

  it('keeps a colon inside quotes as free text, not a key', () => {
    expect(terms('"http://localhost:3000"')).toEqual([{ kind: 'text', text: 'http://localhost:3000', negate: false, at: 0 }]);
  });

  it('joins quoted and unquoted parts of one word, as a shell does', () => {
    expect(terms('name:my" "tool')[0]).toMatchObject({ kind: 'name', pattern: 'my tool' });
  });

  it('keeps globs in method, name, rule and id values verbatim', () => {
    expect(terms('method:tools/* name:*_action rule:mrtr/* id:c*').map((t) => 'pattern' in t && t.pattern))
      .toEqual(['tools/*', '*_action', 'mrtr/*', 'c*']);
  });

  it('reads bare words and quoted phrases as free text, case kept', () => {
    expect(terms('Timeout "Input Required"')).toEqual([
      { kind: 'text', text: 'Timeout', negate: false, at: 0 },
      { kind: 'text', text: 'Input Required', negate: false, at: 8 },
    ]);
  });

  it('searches for a negative number only when it is quoted', () => {
    expect(terms('"-32602"')[0]).toEqual({ kind: 'text', text: '-32602', negate: false, at: 0 });
    expect(terms('-32602')[0]).toEqual({ kind: 'text', text: '32602', negate: true, at: 0 });
  });

  it('treats a word that starts with a colon or digit as free text', () => {
    expect(terms(':x 1:2').map((t) => t.kind === 'text' && t.text)).toEqual([':x', '1:2']);
  });
});

describe('parseFilter errors', () => {
  it('rejects an unknown key at its offset and lists the known keys', () => {
    const e = error('status:error colour:red');
    expect(e.at).toBe(13);
    expect(e.message).toContain('"colour:"');
    for (const k of ['method', 'name', 'status', 'rule', 'severity', 'era', 'has', 'rounds', 'exchange', 'id']) expect(e.message).toContain(k);
  });

  it('points an unknown negated key at the key, after the dash', () => {
    expect(error('-foo:bar').at).toBe(1);
  });

  it('suggests quotes when an unquoted URL looks like a key', () => {
    expect(error('http://x').message).toMatch(/quotes/);
  });

  it('rejects a key with no value at the place the value should be', () => {
    expect(error('method:tools/call name:')).toMatchObject({ at: 23 });
    expect(error('name: echo').message).toMatch(/needs a value/);
  });

  it('rejects a status, severity, era or has value it does not know, at the value, listing the allowed ones', () => {
    expect(error('status:failed')).toEqual({ at: 7, message: expect.stringContaining('complete, error, abandoned, in-progress') });
    expect(error('x severity:fatal')).toEqual({ at: 11, message: expect.stringContaining('error, warning, info') });
    expect(error('era:2024')).toEqual({ at: 4, message: expect.stringContaining('modern') });
    expect(error('has:tokens')).toEqual({ at: 4, message: expect.stringContaining('state, findings, errors, legacy, ambiguous') });
  });

  it('rejects a comparison that is not a whole number, at the value', () => {
    for (const bad of ['rounds:>', 'rounds:two', 'rounds:>-1', 'rounds:2.5', 'exchange:<<3', 'rounds:99999999999999999999']) {
      const e = error(bad);
      expect(e.at, bad).toBe(bad.indexOf(':') + 1);
      expect(e.message, bad).toMatch(/whole number/);
    }
  });

  it('rejects an unclosed quote at the opening quote', () => {
    expect(error('name:echo "never closed')).toMatchObject({ at: 10, message: expect.stringMatching(/never closed/) });
    expect(error('name:"abc')).toMatchObject({ at: 5 });
  });

  it('rejects a lone dash at the dash', () => {
    expect(error('status:error - name:x')).toMatchObject({ at: 13 });
    expect(error('-')).toMatchObject({ at: 0 });
  });

  it('rejects empty quotes', () => {
    expect(error('a ""')).toMatchObject({ at: 2 });
  });

  it('reports a non-string input as an error rather than throwing', () => {
    expect(parseFilter(undefined as unknown as string)).toMatchObject({ ok: false });
  });
});
