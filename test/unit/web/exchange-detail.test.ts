// web/lib/exchange-detail.svelte.ts: the detail pane's exchange and tabs, on a stub worker.
import { describe, expect, it } from 'vitest';
import { ExchangeDetail, TABS } from '../../../web/lib/exchange-detail.svelte.ts';
import { stubWorker } from './view-stub.ts';

function setup() {
  const w = stubWorker();
  const reports: string[] = [];
  const detail = new ExchangeDetail({ api: () => w.api, session: () => 's1', report: (e) => void reports.push(e) });
  return { w, detail, reports };
}

describe('the detail pane', () => {
  it('opens an exchange of the session on screen', async () => {
    const { w, detail } = setup();
    await detail.load('x1', false);
    expect(detail.exchange?.id).toBe('x1');
    expect(w.calls).toEqual(['exchange s1 x1']);
  });

  it('"Show all" reads the open exchange again with its bodies uncut, and does nothing with none open', async () => {
    const { w, detail } = setup();
    detail.showAll();
    expect(w.calls).toEqual([]);
    await detail.load('x1', false);
    detail.showAll();
    expect(w.calls).toEqual(['exchange s1 x1', 'exchange s1 x1 full']);
  });

  it('an answer for a round no longer selected is dropped', async () => {
    const { w, detail } = setup();
    const open = w.hold('exchangeView');
    const slow = detail.load('x1', false);
    await detail.load('x2', false);
    open();
    await slow;
    expect(detail.exchange?.id).toBe('x2');
  });

  it('a reset drops the answer on its way; a blank does not (the next load decides)', async () => {
    const a = setup();
    let open = a.w.hold('exchangeView');
    let pending = a.detail.load('x1', false);
    a.detail.reset();
    open();
    await pending;
    expect(a.detail.exchange).toBeNull();
    const b = setup();
    open = b.w.hold('exchangeView');
    pending = b.detail.load('x1', false);
    b.detail.blank();
    expect(b.detail.exchange).toBeNull();
    open();
    await pending;
    expect(b.detail.exchange?.id).toBe('x1');
  });

  it('a failed read is reported and leaves the exchange shown', async () => {
    const { w, detail, reports } = setup();
    await detail.load('x1', false);
    w.fail.exchangeView = 'no such exchange';
    await detail.load('x2', false);
    expect(detail.exchange?.id).toBe('x1');
    expect(reports).toEqual(['no such exchange']);
  });

  it('tabs cycle both ways and wrap around', () => {
    const { detail } = setup();
    expect(detail.tab).toBe('headers');
    detail.cycleTab(-1);
    expect(detail.tab).toBe(TABS.at(-1));
    detail.cycleTab(1);
    detail.cycleTab(1);
    expect(detail.tab).toBe('request');
    detail.selectTab('timing');
    expect(detail.tab).toBe('timing');
  });
});
