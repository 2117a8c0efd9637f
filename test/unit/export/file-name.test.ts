// worker/export/file-name.ts
import { describe, expect, it } from 'vitest';
import { withoutCaptureExt } from '../../../worker/export/file-name.ts';

describe('export file names', () => {
  it('does not double the extension of a session named after its imported file', () => {
    expect(withoutCaptureExt('violations.har')).toBe('violations');
    expect(withoutCaptureExt('run.JSONL')).toBe('run');
    expect(withoutCaptureExt('big.har (first 50, cancelled)')).toBe('big (first 50, cancelled)');
    expect(withoutCaptureExt('Session 2')).toBe('Session 2');
  });
});
