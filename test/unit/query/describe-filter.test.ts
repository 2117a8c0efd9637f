// The status bar's reading of a filter.
import { describe, expect, it } from 'vitest';
import { describeFilter, parseFilter } from '../../../worker/query/index.js';

function describeText(text: string): string {
  const got = parseFilter(text);
  if (!got.ok) throw new Error(got.error.message);
  return describeFilter(got.terms);
}

describe('describeFilter', () => {
  it('reads the brief example as "method is tools/call, not name echo"', () => {
    expect(describeText('method:tools/call -name:echo')).toBe('method is tools/call, not name echo');
  });

  it('says "matches" for globs and quotes values with spaces', () => {
    expect(describeText('rule:mrtr/* name:"my tool"')).toBe('rule matches mrtr/*, name is "my tool"');
  });

  it('describes every kind of term', () => {
    expect(describeText('status:error -era:legacy severity:warning -severity:error has:state -has:ambiguous rounds:>2 -exchange:4 id:c9 timeout -"bad gateway"'))
      .toBe('status is error, not era legacy, has warning findings, no error findings, has state, no ambiguous rounds, '
        + 'rounds > 2, not exchange = 4, id is c9, contains "timeout", without "bad gateway"');
  });

  it('gives an empty string for an empty filter', () => {
    expect(describeFilter([])).toBe('');
  });
});
