// The check loop of the analysis worker: what builds left unchecked is checked a slice at a
// time, the page told of the progress at most every interval, records on their way in laid
// in before the next slice, and a record laid in ends the run. The slices between two
// notices defer their changes; the slice the page is told of publishes them.
import { describe, expect, it } from 'vitest';
import { CheckSlices, type CheckSlicesDeps } from '../../../worker/services/check-slices.js';

/** A model with `left` subjects to check, one per slice while `open()`; each slice takes
 *  `sliceMs` on the clock. Logs each slice and whether it deferred its changes. */
function fakeModel(left: number, clock: { t: number }, sliceMs: number, log: string[], open: () => boolean = () => true) {
  return {
    version: 0,
    unchecked: left,
    async checkMore(opts: { defer: boolean }) {
      log.push(`slice v${this.version}${opts.defer ? ' deferred' : ''}`);
      clock.t += sliceMs;
      if (open()) this.unchecked -= 1;
    },
  };
}

function loop(clock: { t: number }, log: string[], over: Partial<CheckSlicesDeps> = {}) {
  return new CheckSlices({
    open: () => true,
    tell: (s) => log.push(`tell ${s}`),
    arriving: () => null,
    turn: async () => undefined,
    now: () => clock.t,
    tellEveryMs: 250,
    ...over,
  });
}

describe('check slices', () => {
  it('checks until nothing is left, telling the page at most every 250 ms and once after the last slice', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const model = fakeModel(12, clock, 100, log);
    await loop(clock, log).run('s1', model);
    expect(model.unchecked).toBe(0);
    expect(log.filter((l) => l.startsWith('slice'))).toHaveLength(12);
    // A slice that starts 250 ms or more after the last notice is told of: slices 1, 5 and 9
    // (starting at 0, 400 and 800 ms), then the last (it ends the checks).
    const tellsAfter = log.flatMap((l, i) => (l === 'tell s1' ? [log.slice(0, i).filter((x) => x.startsWith('slice')).length] : []));
    expect(tellsAfter).toEqual([1, 5, 9, 12]);
    // Those publish (the last as the build that ends the checks); the others defer.
    const published = log.filter((l) => l.startsWith('slice')).flatMap((l, i) => (l.endsWith('deferred') ? [] : [i + 1]));
    expect(published).toEqual([1, 5, 9]);
  });

  it('lays in records on their way in before the next slice, which then builds them', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const model = fakeModel(3, clock, 10, log);
    let land: () => void = () => undefined;
    let inFlight: Promise<void> | null = new Promise<void>((r) => { land = r; });
    const run = loop(clock, log, { arriving: () => inFlight }).run('s1', model);
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual([]); // no slice while a pushed record is being numbered
    model.version += 1; // laid in
    log.push('laid');
    inFlight = null;
    land();
    await run;
    expect(log.slice(0, 2)).toEqual(['laid', 'slice v1']); // told: the first of its interval
    expect(model.unchecked).toBe(0);
  });

  it('ends the run, untold, when records are laid in during a slice (their change tells the page)', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const model = fakeModel(5, clock, 10, log);
    const slice = model.checkMore.bind(model);
    model.checkMore = async (opts) => {
      await slice(opts);
      model.version += 1;
    };
    await loop(clock, log).run('s1', model);
    expect(log).toEqual(['slice v0']);
    expect(model.unchecked).toBe(4);
    // The next run's first slice is the first of its interval: it publishes (the change that
    // ends it again tells the page).
    await loop(clock, log).run('s1', model);
    expect(log).toEqual(['slice v0', 'slice v1']);
  });

  it('tells what was checked when the gate shuts between slices', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    let open = true;
    const model = fakeModel(5, clock, 10, log, () => open);
    const turn = async () => { if (log.length >= 3) open = false; };
    await loop(clock, log, { open: () => open, turn }).run('s1', model);
    // Told after the first slice (the first of its interval); the second deferred, then
    // published by a slice that checks nothing once the gate shut, and told.
    expect(log).toEqual(['slice v0', 'tell s1', 'slice v0 deferred', 'slice v0', 'tell s1']);
    expect(model.unchecked).toBe(3);
  });
});
