// Matching conversations against parsed filters: every key's meaning, negation, AND, globs,
// comparisons, and free text read lazily.
import { describe, expect, it } from 'vitest';
import { globMatch, matchesFilter, parseFilter, type FilterTerm } from '../../../worker/query/index.js';
import type { Conversation, Finding } from '../../../worker/protocol.js';
import { conversation, finding, round, subject } from './subjects.js';

function terms(text: string): FilterTerm[] {
  const got = parseFilter(text);
  if (!got.ok) throw new Error(got.error.message);
  return got.terms;
}

function passes(filter: string, c: Conversation, findings: Finding[] = [], text = ''): boolean {
  return matchesFilter(terms(filter), subject(c, findings, text));
}

describe('matchesFilter', () => {
  it('passes everything through an empty filter', () => {
    expect(passes('', conversation())).toBe(true);
  });

  it('matches method exactly, case-insensitively, or by glob', () => {
    const c = conversation({ method: 'tools/call' });
    expect(passes('method:tools/call', c)).toBe(true);
    expect(passes('method:TOOLS/CALL', c)).toBe(true);
    expect(passes('method:tools/*', c)).toBe(true);
    expect(passes('method:*/call', c)).toBe(true);
    expect(passes('method:tools', c)).toBe(false);
    expect(passes('method:prompts/*', c)).toBe(false);
  });

  it('matches name, and a conversation with no name matches no name: term but every -name: term', () => {
    expect(passes('name:"my tool"', conversation({ name: 'my tool' }))).toBe(true);
    expect(passes('name:*', conversation({ name: null }))).toBe(false);
    expect(passes('-name:echo', conversation({ name: null }))).toBe(true);
    expect(passes('-name:echo', conversation({ name: 'echo' }))).toBe(false);
    expect(passes('-name:ec*', conversation({ name: 'echo' }))).toBe(false);
  });

  it('matches status exactly', () => {
    for (const status of ['complete', 'error', 'abandoned', 'in-progress'] as const) {
      expect(passes(`status:${status}`, conversation({ status }))).toBe(true);
      expect(passes(`-status:${status}`, conversation({ status }))).toBe(false);
    }
    expect(passes('status:error', conversation({ status: 'complete' }))).toBe(false);
  });

  it('matches rule when any finding about the conversation has a matching rule id', () => {
    const f = [finding('state/long-ttl', 'warning'), finding('mrtr/state-modified')];
    expect(passes('rule:mrtr/*', conversation(), f)).toBe(true);
    expect(passes('rule:mrtr/state-modified', conversation(), f)).toBe(true);
    expect(passes('rule:*ttl', conversation(), f)).toBe(true);
    expect(passes('rule:http/*', conversation(), f)).toBe(false);
    expect(passes('-rule:mrtr/*', conversation(), f)).toBe(false);
    expect(passes('-rule:mrtr/*', conversation(), [])).toBe(true);
  });

  it('matches severity when any finding has exactly that severity', () => {
    const f = [finding('a', 'warning')];
    expect(passes('severity:warning', conversation(), f)).toBe(true);
    expect(passes('severity:error', conversation(), f)).toBe(false);
    expect(passes('severity:info', conversation(), f)).toBe(false);
    expect(passes('-severity:error', conversation(), f)).toBe(true);
  });

  it('matches era, with modern meaning 2026-07-28', () => {
    expect(passes('era:modern', conversation())).toBe(true);
    expect(passes('era:2026-07-28', conversation())).toBe(true);
    expect(passes('era:legacy', conversation())).toBe(false);
    expect(passes('era:legacy', conversation({ era: 'legacy' }))).toBe(true);
  });

  it('matches has:state when any round sent or was issued a requestState', () => {
    expect(passes('has:state', conversation())).toBe(false);
    expect(passes('has:state', conversation({ rounds: [round({ stateIssued: 'v1.x' })] }))).toBe(true);
    expect(passes('has:state', conversation({ rounds: [round(), round({ stateSent: 'v1.x' })] }))).toBe(true);
  });

  it('matches has:findings and has:errors from findings, and has:errors from an error answer too', () => {
    expect(passes('has:findings', conversation(), [finding('x', 'info')])).toBe(true);
    expect(passes('has:findings', conversation(), [])).toBe(false);
    expect(passes('has:errors', conversation(), [finding('x', 'warning')])).toBe(false);
    expect(passes('has:errors', conversation(), [finding('x', 'error')])).toBe(true);
    expect(passes('has:errors', conversation({ rounds: [round({ outcome: 'error' })] }))).toBe(true);
  });

  it('matches has:legacy for legacy conversations and for rounds with legacy server requests', () => {
    expect(passes('has:legacy', conversation({ era: 'legacy' }))).toBe(true);
    const legacy = [{ exchange: 0, stream: 'post-sse' as const, id: 1, method: 'elicitation/create', t: 0 }];
    expect(passes('has:legacy', conversation({ rounds: [round({ legacy })] }))).toBe(true);
    expect(passes('has:legacy', conversation())).toBe(false);
  });

  it('matches has:ambiguous when any round was linked ambiguously', () => {
    expect(passes('has:ambiguous', conversation({ rounds: [round(), round({ link: 'ambiguous' })] }))).toBe(true);
    expect(passes('has:ambiguous', conversation({ rounds: [round(), round({ link: 'match' })] }))).toBe(false);
  });

  it('compares the number of rounds', () => {
    const c = conversation({ rounds: [round(), round(), round()] });
    expect(['rounds:>2', 'rounds:>=3', 'rounds:3', 'rounds:=3', 'rounds:<=3', 'rounds:<4', 'round:3'].every((f) => passes(f, c))).toBe(true);
    expect(['rounds:>3', 'rounds:>=4', 'rounds:2', 'rounds:<3', 'rounds:<=2', '-rounds:3'].some((f) => passes(f, c))).toBe(false);
  });

  it('matches exchange when the conversation claims a seq that compares true', () => {
    const c = conversation({ exchanges: [3, 4, 9] });
    expect(passes('exchange:4', c)).toBe(true);
    expect(passes('exchange:5', c)).toBe(false);
    expect(passes('exchange:>8', c)).toBe(true);
    expect(passes('exchange:<3', c)).toBe(false);
    expect(passes('-exchange:4', c)).toBe(false);
  });

  it('matches id exactly or by glob', () => {
    expect(passes('id:c1', conversation())).toBe(true);
    expect(passes('id:c', conversation())).toBe(false);
    expect(passes('id:c*', conversation())).toBe(true);
    expect(passes('-id:c1', conversation())).toBe(false);
  });

  it('ANDs terms together', () => {
    const c = conversation({ status: 'error' });
    expect(passes('method:tools/call status:error', c)).toBe(true);
    expect(passes('method:tools/call status:complete', c)).toBe(false);
    expect(passes('method:tools/call status:error -name:echo', c)).toBe(false);
  });

  it('matches free text as a case-insensitive substring of the subject text', () => {
    const body = '{"result":{"content":[{"type":"text","text":"Deployed To Staging"}]}}';
    expect(passes('staging', conversation(), [], body)).toBe(true);
    expect(passes('"deployed to"', conversation(), [], body)).toBe(true);
    expect(passes('DEPLOYED -production', conversation(), [], body)).toBe(true);
    expect(passes('-staging', conversation(), [], body)).toBe(false);
    expect(passes('production', conversation(), [], body)).toBe(false);
  });

  it('treats * in free text literally', () => {
    expect(passes('"a*b"', conversation(), [], 'xa*by')).toBe(true);
    expect(passes('"a*b"', conversation(), [], 'axxb')).toBe(false);
  });

  it('reads the subject text only when a free-text term exists, once, and after the other terms pass', () => {
    const s = subject(conversation(), [], 'hello world');
    expect(matchesFilter(terms('method:tools/call status:complete'), s)).toBe(true);
    expect(s.reads).toBe(0);
    expect(matchesFilter(terms('hello world -bye'), s)).toBe(true);
    expect(s.reads).toBe(1);
    expect(matchesFilter(terms('hello status:error'), s)).toBe(false);
    expect(s.reads).toBe(1);
  });

  it('never matches with a malformed term, even negated', () => {
    const bad = [{ kind: 'colour', value: 'red', negate: true, at: 0 }] as unknown as FilterTerm[];
    expect(matchesFilter(bad, subject(conversation()))).toBe(false);
    const wrongType = [{ kind: 'rounds', op: '>', value: '2', negate: true, at: 0 }] as unknown as FilterTerm[];
    expect(matchesFilter(wrongType, subject(conversation()))).toBe(false);
  });
});

describe('globMatch', () => {
  it('matches * against any run of characters, including none', () => {
    expect(globMatch('mrtr/*', 'mrtr/')).toBe(true);
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('a*b*c', 'aXXbYYc')).toBe(true);
    expect(globMatch('a*b*c', 'aXXbYY')).toBe(false);
    expect(globMatch('**a', 'bba')).toBe(true);
    expect(globMatch('', 'x')).toBe(false);
  });

  it('treats regular expression characters literally', () => {
    expect(globMatch('a.b', 'axb')).toBe(false);
    expect(globMatch('(x)+[y]', '(x)+[y]')).toBe(true);
  });

  it('stays fast on a pattern that would make a backtracking regex explode', () => {
    const t0 = performance.now();
    expect(globMatch('*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
