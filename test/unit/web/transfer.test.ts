// web/lib/transfer.svelte.ts: what the user reads after an import.
import { describe, expect, it } from 'vitest';
import { importReport } from '../../../web/lib/transfer.svelte.ts';

const session = { id: 's', name: 'file.har', createdAt: 0, capturing: false };

describe('the import notice', () => {
  it('a clean import is a success that says how many came in, with the reader\'s notes', () => {
    expect(importReport({ session, count: 12, skipped: [], notes: ['Bodies over 1 MiB were cut.'] }, 'file.har'))
      .toEqual({ text: 'Imported 12 exchanges from file.har. Bodies over 1 MiB were cut.', kind: 'success' });
  });

  it('an import that skipped entries is a warning naming the first three and why', () => {
    const skipped = [1, 2, 3, 4].map((i) => ({ where: `entry ${i}`, message: 'no request' }));
    expect(importReport({ session, count: 2, skipped, notes: [] }, 'f.jsonl')).toEqual({
      text: 'Imported 2 exchanges from f.jsonl; skipped 4: entry 1 (no request); entry 2 (no request); entry 3 (no request).',
      kind: 'warning',
    });
  });
});
