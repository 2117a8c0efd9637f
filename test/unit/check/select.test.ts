import { describe, expect, it } from 'vitest';
import { changesData, globMatch, isOneTime, skipReason } from '../../../worker/check/select.js';

describe('which targets the check calls', () => {
  it('matches whole names with * and ?', () => {
    expect(globMatch('get_*', 'get_weather')).toBe(true);
    expect(globMatch('get_*', 'forget_it')).toBe(false);
    expect(globMatch('a?c', 'abc')).toBe(true);
    expect(globMatch('a.c', 'abc')).toBe(false);
  });

  it('skips a tool not marked readOnlyHint, and one marked destructive, unless allowed', () => {
    expect(skipReason('t', {}, { annotations: undefined })).toMatch(/not annotated readOnlyHint: true/);
    expect(skipReason('t', {}, { annotations: { readOnlyHint: true, destructiveHint: true } })).toMatch(/destructiveHint: true/);
    expect(skipReason('t', {}, { annotations: { readOnlyHint: true } })).toBeUndefined();
    expect(skipReason('t', { allowDestructive: true }, { annotations: undefined })).toBeUndefined();
  });

  it('lets the page tick single tools in, and ends the reason with how to, in the caller\'s words', () => {
    expect(skipReason('deploy', { allow: ['deploy'] }, { annotations: { destructiveHint: true } })).toBeUndefined();
    expect(skipReason('other', { allow: ['deploy'] }, { annotations: { destructiveHint: true } })).toBe('annotated destructiveHint: true: may change data; run with --allow-destructive or name it with --tool');
    expect(skipReason('other', {}, { annotations: {} }, 'tick it')).toBe('not annotated readOnlyHint: true: may change data; tick it');
    expect(changesData({ readOnlyHint: true })).toBeUndefined();
    expect(changesData({ readOnlyHint: true, destructiveHint: true })).toBe('annotated destructiveHint: true');
  });

  it('runs a destructive tool named by --tool, and only the named ones', () => {
    expect(skipReason('drop_db', { tools: ['drop_*'] }, { annotations: { destructiveHint: true } })).toBeUndefined();
    expect(skipReason('other', { tools: ['drop_*'] }, { annotations: { readOnlyHint: true } })).toBe('not named by --tool');
  });

  it('lets --skip win over everything', () => {
    expect(skipReason('drop_db', { tools: ['*'], skip: ['drop_*'], allowDestructive: true }, { annotations: {} })).toBe('matches --skip');
  });

  it('treats a destructive or explicitly non-idempotent tool as one-time, a read-only one never', () => {
    expect(isOneTime({ destructiveHint: true })).toBe(true);
    expect(isOneTime({ idempotentHint: false })).toBe(true);
    expect(isOneTime({})).toBe(false);
    expect(isOneTime({ readOnlyHint: true, idempotentHint: false })).toBe(false);
  });
});
