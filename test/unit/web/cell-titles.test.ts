import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../worker/facade.ts';
import { findingsTitle, nameTitle, roundsTitle } from '../../../web/lib/cell-titles.ts';

const base = { id: 'c', method: 'tools/call', name: 'setup_wizard', era: 'mrtr', rounds: 11, status: 'complete', findings: { error: 3, warning: 1, info: 0 },
  firstSeq: 0, startedAt: 0, durationMs: 10, hasState: true, ambiguous: false, httpStatus: 200 } as unknown as ConversationSummary;

describe('list cell titles', () => {
  it('spell out every tag a narrow Rounds cell may cut, the branch count included', () => {
    expect(roundsTitle({ ...base, branches: 3, ambiguous: true })).toBe(
      '11 (11 rounds) · 3 (3 branches: forks, edits or re-used tokens) · state (carries requestState) · ? (a round was linked ambiguously)');
    expect(roundsTitle({ ...base, rounds: 1, hasState: false })).toBe('1 (1 round)');
  });

  it('repeat each severity badge as drawn, then in words', () => {
    expect(findingsTitle(base)).toBe('✖ 3 (3 errors) · ▲ 1 (1 warning)');
    expect(findingsTitle({ ...base, findings: { error: 0, warning: 0, info: 0 } })).toBe('');
  });

  it('name the Console origin and a legacy era beside the tool', () => {
    expect(nameTitle(base)).toBe('setup_wizard');
    expect(nameTitle({ ...base, name: null, era: 'legacy', origin: 'fork' } as ConversationSummary)).toBe('fork (sent by the Console) · tools/call · legacy (2025-11-25)');
  });
});
