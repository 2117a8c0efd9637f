// A session of an imported file is a finished capture: the page reads it as the CLI does
// (final), so a call left waiting is abandoned there too; a live capture is not over yet.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { listOf, SessionModel } from '../../../worker/view/session-model.js';
import { ask, capture } from '../../support/capture-builder.js';

/** One tools/call answered with an input request and never retried. */
function unanswered(): StoredExchange[] {
  const b = capture();
  b.call('tools/call', { name: 'book', arguments: {} }).inputRequired({ seat: ask.form('Which seat?', { seat: { type: 'string' } }) }, 'T1');
  return b.build().map((r) => ({ ...r, session: 's1' }));
}

const noKeys = () => [];

describe('the session model', () => {
  it('reads an imported capture as finished: a call left waiting is abandoned, as the CLI says, and status:abandoned finds it', async () => {
    const records = unanswered();
    expect((await analyze(records)).conversations[0].status).toBe('abandoned'); // what the CLI reads
    const built = await new SessionModel(records, { final: true }).built(noKeys, 0);
    expect(built.rows.map((r) => r.status)).toEqual(['abandoned']);
    expect(listOf(built, 'status:abandoned').items).toHaveLength(1);
  });

  it('keeps a live capture open: the same waiting call stays in progress', async () => {
    const built = await new SessionModel(unanswered()).built(noKeys, 0);
    expect(built.rows.map((r) => r.status)).toEqual(['in-progress']);
    expect(listOf(built, 'status:abandoned').items).toHaveLength(0);
  });
});
