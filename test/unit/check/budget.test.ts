import { describe, expect, it } from 'vitest';
import { budgeted } from '../../../worker/check/budget.js';
import type { ConsoleRequest, ConsoleResponse } from '../../../worker/console/types.js';

const req: ConsoleRequest = { url: 'http://127.0.0.1:1/mcp', method: 'POST', headers: [], body: '{}' };

describe('the check budget', () => {
  it('refuses requests past the call budget as unsent failures and says why', async () => {
    let sent = 0;
    const b = budgeted(async () => (sent++, { status: 200, headers: [] }), { maxCalls: 2 });
    const rs = await Promise.all([b.send(req), b.send(req), b.send(req)]);
    expect(sent).toBe(2);
    expect(rs[2]).toMatchObject({ status: 0, error: 'not sent: the budget of 2 requests is spent' });
    expect(b.exhausted).toMatch(/budget of 2 requests/);
    expect(b.calls).toBe(2);
  });

  it('sends nothing once its signal is aborted (the page\'s Stop), and says so', async () => {
    let sent = 0;
    const stop = new AbortController();
    const b = budgeted(async () => (sent++, { status: 200, headers: [] }), { signal: stop.signal });
    expect((await b.send(req)).status).toBe(200);
    stop.abort();
    expect(await b.send(req)).toMatchObject({ status: 0, error: 'not sent: stopped by the user' });
    expect(sent).toBe(1);
    expect(b.exhausted).toBe('stopped by the user');
  });

  it('refuses requests once the time budget is spent', async () => {
    let t = 0;
    const b = budgeted(async () => ({ status: 200, headers: [] }), { maxTimeMs: 1000, now: () => t });
    expect((await b.send(req)).status).toBe(200);
    t = 1000;
    expect((await b.send(req)).error).toMatch(/time budget of 1 s/);
  });

  it('never has more than `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const b = budgeted(() => new Promise<ConsoleResponse>((resolve) => {
      most = Math.max(most, ++inFlight);
      release.push(() => (inFlight--, resolve({ status: 200, headers: [] })));
    }), { concurrency: 2 });
    const all = Promise.all(Array.from({ length: 5 }, () => b.send(req)));
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 5));
      release.shift()?.();
    }
    await all;
    expect(most).toBe(2);
  });
});
