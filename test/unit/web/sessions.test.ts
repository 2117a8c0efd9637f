// web/lib/sessions.svelte.ts: the sessions, the one on screen, and its refresh, driven with a
// stub of the worker's `sessions` service and of the devtools view.
import { describe, expect, it } from 'vitest';
import type { ExchangeSummary, SessionInfo } from '../../../worker/facade.ts';
import { AnalysisWorkerDied } from '../../../web/lib/analysis-client.ts';
import { LIST_LIMIT, Sessions, type SessionsApi, type SessionsView } from '../../../web/lib/sessions.svelte.ts';

const info = (id: string, name = id): SessionInfo => ({ id, name, createdAt: 0, capturing: false });
const row = (id: string, over: Partial<ExchangeSummary> = {}): ExchangeSummary => ({ id, seq: 0, startedAt: 0, httpMethod: 'POST', url: '/mcp', method: 'tools/call', name: null, status: 200, state: 'complete', events: null, refused: null, ...over });

/** Resolves when told to, so a test can hold a read open. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((r) => { open = r; });
  return { wait, open };
}

function setup(opts: { sessions?: SessionInfo[]; place?: { conversation: string; round: number } | null; listFails?: string } = {}) {
  const log: string[] = [];
  const said: string[] = [];
  let hold: Promise<void> | null = null;
  let failWith: unknown = null;
  // The worker's pages, marked by session and version as the worker marks them; `since`s asked.
  const pages = new Map<string, { version: number; items: ExchangeSummary[] }>();
  const page = (session: string) => pages.get(session) ?? { version: 0, items: [row(`${session}-x`)] };
  const since: (string | null | undefined)[] = [];
  const api: SessionsApi = {
    sessions: {
      list: async () => (opts.listFails ? { ok: false as const, error: { kind: 'unavailable' as const, message: opts.listFails } } : { ok: true as const, value: opts.sessions ?? [] }),
      exchanges: async (session, range) => {
        log.push(`exchanges ${session} ${range?.offset}/${range?.limit}`);
        since.push(range?.since);
        if (failWith) throw failWith;
        const p = page(session);
        const mark = `${session}:${p.version}`;
        // Copies of the summaries, as a structured clone across the worker boundary makes.
        return { ok: true, value: { total: p.items.length, mark, items: range?.since === mark ? null : p.items.map((x) => ({ ...x })) } };
      },
      placeOfExchange: async () => ({ ok: true, value: opts.place ?? null }),
    },
  };
  const view: SessionsView = {
    reset: () => void log.push('reset'),
    reload: async () => {
      log.push('reload');
      if (hold) await hold;
    },
    reveal: (c, r) => void log.push(`reveal ${c} ${r}`),
    select: (c) => void log.push(`select ${c}`),
    setFocus: (f) => void log.push(`focus ${f}`),
  };
  const sessions = new Sessions({ api: () => api, view, say: (m) => void said.push(m) });
  /** The worker's records of `session` change: its page is now `items`. */
  const setPage = (session: string, items: ExchangeSummary[]) => void pages.set(session, { version: page(session).version + 1, items });
  return { sessions, log, said, since, setPage, holdReads: (p: Promise<void> | null) => { hold = p; }, failReads: (e: unknown) => { failWith = e; } };
}

describe('the session on screen', () => {
  it('showing another session starts the view over and reads its newest exchanges and view', async () => {
    const { sessions, log } = setup();
    await sessions.show('s1');
    expect(sessions.viewing).toBe('s1');
    // The list is asked first (its counts do not wait for the raw exchanges).
    expect(log).toEqual(['reset', 'reload', `exchanges s1 -${LIST_LIMIT}/${LIST_LIMIT}`]);
    expect(sessions.exchanges.map((e) => e.id)).toEqual(['s1-x']);
  });

  it('showing the session already on screen reads nothing again', async () => {
    const { sessions, log } = setup();
    await sessions.show('s1');
    log.length = 0;
    await sessions.show('s1');
    expect(log).toEqual([]);
  });

  it('knows the session on screen by its id once the list holds it, and names unknown sessions "capture"', async () => {
    const { sessions } = setup({ sessions: [info('s1', 'Session 1')] });
    await sessions.show('s1');
    expect(sessions.current).toBeNull();
    await sessions.load();
    expect(sessions.current?.name).toBe('Session 1');
    expect(sessions.nameOf('s1')).toBe('Session 1');
    expect(sessions.nameOf('gone')).toBe('capture');
  });

  it('a failed read of the session list is said, and the list kept', async () => {
    const { sessions, said } = setup({ listFails: 'storage is closed' });
    await sessions.load();
    expect(said).toEqual(['storage is closed']);
    expect(sessions.list).toEqual([]);
  });

  it('a new session (an import) is shown even before the worker lists it', async () => {
    const { sessions } = setup({ sessions: [info('s1')] });
    await sessions.showNew(info('imp', 'file.har'));
    expect(sessions.list.map((s) => s.id)).toEqual(['s1', 'imp']);
    expect(sessions.viewing).toBe('imp');
  });

  it('"Show it" selects the conversation and round holding the exchange', async () => {
    const { sessions, log } = setup({ place: { conversation: 'c1', round: 2 } });
    await sessions.showExchange('s1', 'x9');
    expect(log.at(-1)).toBe('reveal c1 2');
  });

  it('"Show it" on an exchange no conversation holds shows only its session', async () => {
    const { sessions, log } = setup({ place: null });
    await sessions.showExchange('s1', 'x9');
    expect(sessions.viewing).toBe('s1');
    expect(log.some((l) => l.startsWith('reveal'))).toBe(false);
  });

  it('a conversation shown from the Console is selected with the list focused', async () => {
    const { sessions, log } = setup();
    await sessions.showConversation('s2', 'c7');
    expect(log.slice(-2)).toEqual(['select c7', 'focus list']);
  });

  it('emptying the session on screen starts the view over and re-reads it', async () => {
    const { sessions, log } = setup();
    await sessions.show('s1');
    log.length = 0;
    await sessions.emptied();
    expect(log[0]).toBe('reset');
    expect(log).toContain('reload');
  });
});

describe('refreshing the session on screen', () => {
  it('a change to a session not on screen re-reads nothing', async () => {
    const { sessions, log } = setup();
    await sessions.show('s1');
    log.length = 0;
    sessions.changed(['s2']);
    await sessions.refresh();
    // Only the refresh called here ran: one read of each.
    expect(log.filter((l) => l === 'reload')).toHaveLength(1);
  });

  it('changes during a refresh run exactly one more refresh after it, not one per change', async () => {
    const { sessions, log, holdReads } = setup();
    await sessions.show('s1');
    log.length = 0;
    const g = gate();
    holdReads(g.wait);
    sessions.changed(['s1']); // starts a refresh, held open
    sessions.changed(['s1']);
    sessions.changed(['s1', 's2']);
    const first = sessions.refresh();
    expect(log.filter((l) => l === 'reload')).toHaveLength(1);
    holdReads(null);
    g.open();
    await first;
    await new Promise((r) => setTimeout(r, 0)); // lets the one scheduled after it finish
    expect(log.filter((l) => l === 'reload')).toHaveLength(2);
  });

  it('a refresh whose worker died is dropped without an error (the restart refreshes again)', async () => {
    const { sessions, failReads } = setup();
    await sessions.show('s1');
    failReads(new AnalysisWorkerDied('gone'));
    await expect(sessions.refresh()).resolves.toBeUndefined();
  });

  it('any other failure of a refresh is not swallowed', async () => {
    const { sessions, failReads } = setup();
    await sessions.show('s1');
    failReads(new Error('bug'));
    await expect(sessions.refresh()).rejects.toThrow('bug');
  });
});

describe('the raw exchanges kept across refreshes', () => {
  it('a refresh hands the worker the mark of its copy, and an unchanged answer keeps the copy as it is', async () => {
    const { sessions, since } = setup();
    await sessions.show('s1');
    const copy = sessions.exchanges;
    await sessions.refresh();
    expect(since).toEqual([null, 's1:0']);
    expect(sessions.exchanges).toBe(copy);
  });

  it('a changed page keeps the rows that did not change as the same objects, and takes the new and changed ones', async () => {
    const { sessions, setPage } = setup();
    setPage('s1', [row('a'), row('b', { state: 'pending', status: null })]);
    await sessions.show('s1');
    const [a, b] = sessions.exchanges;
    setPage('s1', [row('a'), row('b'), row('c')]);
    await sessions.refresh();
    expect(sessions.exchanges.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(sessions.exchanges[0]).toBe(a);
    expect(sessions.exchanges[1]).not.toBe(b);
    expect(sessions.exchanges[1]!.state).toBe('complete');
  });

  it('showing another session reads its page whole, whatever the copy before', async () => {
    const { sessions, since } = setup();
    await sessions.show('s1');
    await sessions.show('s2');
    expect(since).toEqual([null, null]);
    expect(sessions.exchanges.map((x) => x.id)).toEqual(['s2-x']);
  });

  it('emptying the session on screen reads its page whole again', async () => {
    const { sessions, since } = setup();
    await sessions.show('s1');
    await sessions.emptied();
    expect(since).toEqual([null, null]);
    expect(sessions.exchanges.map((x) => x.id)).toEqual(['s1-x']);
  });

  it("an answer for a session no longer on screen is not taken (the new session's refresh follows)", async () => {
    const { sessions, holdReads, setPage } = setup();
    await sessions.show('s1');
    setPage('s1', [row('s1-y')]); // so the held answer carries rows
    const g = gate();
    holdReads(g.wait);
    const old = sessions.refresh();
    const shown = sessions.show('s2');
    // The refresh for s2 (run after the held one) is held too, until the first is looked at.
    const g2 = gate();
    holdReads(g2.wait);
    g.open();
    await old;
    expect(sessions.exchanges).toEqual([]);
    g2.open();
    await shown;
    await new Promise((r) => setTimeout(r, 0));
    expect(sessions.exchanges.map((x) => x.id)).toEqual(['s2-x']);
  });
});
