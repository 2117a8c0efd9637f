// A session of an imported file is a finished capture: the page reads it as the CLI does
// (final), so a call left waiting is abandoned there too; a live capture is not over yet.
// A row linked ambiguously carries why, so the list can explain its "?".
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import type { StoredExchange } from '../../../worker/storage/index.js';
import { SessionModel } from '../../../worker/view/session-model.js';
import { listOf } from '../../../worker/view/session-list.js';
import { ask, capture, reply } from '../../support/capture-builder.js';

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

  it('gives a row whose first round is ambiguous the tied candidates and the reason', async () => {
    const b = capture();
    const confirm = { ok: ask.form('Sure?', { ok: { type: 'boolean' } }) };
    const first = b.call('tools/call', { name: 'confirm', arguments: {} }).inputRequired(confirm);
    b.call('tools/call', { name: 'confirm', arguments: {} }).inputRequired(confirm);
    b.retry(first, { ok: reply.accept({ ok: true }) });
    const built = await new SessionModel(b.build().map((r) => ({ ...r, session: 's1' }))).built(noKeys, 0);
    const row = built.rows.find((r) => r.ambiguous);
    expect(row?.ambiguity?.candidates).toEqual(['c0', 'c1']);
    expect(row?.ambiguity?.reason).toMatch(/no token tells them apart/);
    expect(built.rows.filter((r) => !r.ambiguous).every((r) => r.ambiguity === undefined)).toBe(true);
  });

  it('checks on a read only what the read\'s own changes queued: the backlog is left to checkMore', async () => {
    const b = capture();
    for (let i = 0; i < 6; i++) b.call('tools/call', { name: 'book', arguments: {} }).inputRequired({ seat: ask.form('Which seat?', { seat: { type: 'string' } }) }, `T${i}`);
    const all = b.build().map((r) => ({ ...r, session: 's1' }));
    let budget = 0;
    let tick = 0;
    const model = new SessionModel(all.slice(0, 5), { checkMs: () => budget, engine: { checkChunk: 1, now: () => tick++ } });
    const listed = await model.built(noKeys, 0);
    const backlog = listed.unchecked;
    expect(backlog).toBeGreaterThan(0);
    // A live record comes: the read checks its conversation (a budget of plenty: had it gone
    // on, the backlog would be checked too). Its exchange waits, as every exchange does while
    // a conversation is unchecked (exchange rules read what the conversations' pass read).
    budget = 1000;
    model.put([all[5]!]);
    const read = await model.built(noKeys, 0);
    expect(read.unchecked).toBe(backlog + 1);
    // A read with nothing new checks nothing; checkMore goes on with the backlog.
    model.put([]);
    expect((await model.built(noKeys, 0)).unchecked).toBe(backlog + 1);
    const more = await model.checkMore(noKeys, 0);
    expect(more.unchecked).toBe(0);
  });

  it('logs what a deferring slice checked only when a later build publishes it: a read between carries its own rows', async () => {
    const b = capture();
    for (let i = 0; i < 10; i++) b.call('tools/call', { name: 'book', arguments: {} }).inputRequired({ seat: ask.form('Which seat?', { seat: { type: 'string' } }) }, `T${i}`);
    const all = b.build().map((r) => ({ ...r, session: 's1' }));
    let tick = 0;
    // A clock that moves a tick at each reading, a budget of two ticks: about one conversation a build.
    const model = new SessionModel(all.slice(0, 8), { checkMs: () => 2, engine: { checkChunk: 1, now: () => tick++ } });
    const listed = await model.built(noKeys, 0);
    expect(listed.unchecked).toBeGreaterThan(3);
    const deferred = await model.checkMore(noKeys, 0, { defer: true });
    expect(deferred.changed.size).toBeGreaterThan(0);
    expect(deferred.changesSince(listed.epoch)!.changed.size).toBe(0);
    expect(model.unpublished).toBe(deferred.changed.size);
    // A live record: the read logs its own conversation, not the rows the slice checked.
    model.put([all[8]!]);
    const read = await model.built(noKeys, 0);
    const seen = read.changesSince(listed.epoch)!.changed;
    expect(seen).toEqual(new Set(read.changed));
    expect(seen.size).toBe(1);
    for (const id of deferred.changed) expect(seen.has(id)).toBe(false);
    // A slice that does not defer (the page is told of it) publishes them, with its own.
    const told = await model.checkMore(noKeys, 0);
    const published = told.changesSince(read.epoch)!.changed;
    expect(published).toEqual(new Set([...deferred.changed, ...told.changed]));
    expect(model.unpublished).toBe(0);
    // A deferring slice that lays a record in is logged at once (a new row never waits).
    model.put([all[9]!]);
    const laid = await model.checkMore(noKeys, 0, { defer: true });
    expect(laid.changesSince(told.epoch)!.changed).toEqual(new Set(laid.changed));
    expect(model.unpublished).toBe(0);
    // Deferring to the end: the build that ends the checks logs everything they changed.
    const checked = new Set<string>();
    let last = laid;
    while (model.unchecked > 0) {
      last = await model.checkMore(noKeys, 0, { defer: true });
      for (const id of last.changed) checked.add(id);
    }
    expect(checked.size).toBeGreaterThan(1);
    expect(last.changesSince(laid.epoch)!.changed).toEqual(checked);
    expect(model.unpublished).toBe(0);
  });

  it('checks everything on a whole check, whatever budget the host gives each build', async () => {
    const b = capture();
    for (let i = 0; i < 6; i++) b.call('tools/call', { name: 'book', arguments: {} }).inputRequired({ seat: ask.form('Which seat?', { seat: { type: 'string' } }) }, `T${i}`);
    const records = b.build().map((r) => ({ ...r, session: 's1' }));
    // A clock that moves a tick at each reading, a budget of two ticks: about a chunk a build.
    let tick = 0;
    const model = new SessionModel(records, { checkMs: () => 2, engine: { checkChunk: 1, now: () => tick++ } });
    const listed = await model.built(noKeys, 0);
    expect(listed.unchecked).toBeGreaterThan(0);
    const whole = await model.checkMore(noKeys, 0, { whole: true });
    expect(whole.unchecked).toBe(0);
    expect(whole.analysis.findings).toEqual((await analyze(records, { final: false })).findings);
  });
});
