// web/lib/targets.svelte.ts: watched targets, driven with an in-memory store, a stub service
// worker and a stubbed fetch standing in for the relay.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StorageError, type TargetRecord } from '../../../worker/storage/index.ts';
import { RELAY_TARGETS, START_TARGETS, STDIO_POLL_MS, Targets, type TargetsDeps } from '../../../web/lib/targets.svelte.ts';

type Relay = (url: string, init?: RequestInit) => Response | Promise<Response>;

function setup(relay: Relay, opts: { stored?: TargetRecord[]; refuse?: boolean } = {}) {
  const log: string[] = [];
  const said: string[] = [];
  let targets = [...(opts.stored ?? [])];
  const store: TargetsDeps['store'] = {
    listTargets: async () => [...targets],
    addTarget: async (t) => {
      if (opts.refuse) throw new StorageError('quota', 'Storage is full: export and clear old sessions.');
      log.push(`store ${t.url}`);
      const r = { id: `t${targets.length + 1}`, url: t.url, viaRelay: t.viaRelay ?? false, addedAt: 0 };
      targets.push(r);
      return r;
    },
    removeTarget: async (id) => {
      log.push(`remove ${id}`);
      targets = targets.filter((t) => t.id !== id);
    },
  };
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    log.push(`${init?.method ?? 'GET'} ${url}`);
    return relay(url, init);
  }));
  const t = new Targets({ store, tellServiceWorker: async () => void log.push('service worker told'), say: (m) => void said.push(m) });
  return { t, log, said };
}

const notFound = (): Response => new Response('', { status: 404 });
const json = (v: unknown): Response => new Response(JSON.stringify(v), { status: 200 });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('watched targets', () => {
  it('refuses a URL that is not http(s), says what to enter, and stores nothing', async () => {
    const { t, log, said } = setup(notFound);
    expect(await t.add('ftp://example.com/mcp')).toBe(false);
    expect(await t.add('localhost:3000')).toBe(false);
    expect(said[0]).toMatch(/"ftp:\/\/example.com\/mcp" is not an http\(s\) URL; enter the MCP endpoint/);
    expect(log).toEqual([]);
  });

  it('stores a new target, waits for the service worker to re-read its list, then tells the relay', async () => {
    const { t, log } = setup(notFound);
    expect(await t.add('http://localhost:3000/mcp', true)).toBe(true);
    expect(t.list.map((x) => [x.url, x.viaRelay])).toEqual([['http://localhost:3000/mcp', true]]);
    expect(log).toEqual(['store http://localhost:3000/mcp', 'service worker told', `PUT ${RELAY_TARGETS}`]);
  });

  it('a target storage refuses is said in storage\'s words and not listed', async () => {
    const { t, said } = setup(notFound, { refuse: true });
    expect(await t.add('http://localhost:3000/mcp')).toBe(false);
    expect(said).toEqual(['Storage is full: export and clear old sessions.']);
    expect(t.list).toEqual([]);
  });

  it('removing a target re-reads the list and tells the service worker', async () => {
    const { t, log } = setup(notFound, { stored: [{ id: 'a', url: 'http://a/mcp', viaRelay: false, addedAt: 0 }] });
    expect(await t.remove('a')).toBe(true);
    expect(t.list).toEqual([]);
    expect(log.slice(0, 2)).toEqual(['remove a', 'service worker told']);
  });

  it('says the relay refused the list only when a target goes via the relay', async () => {
    const refusing = (): Response => new Response('bad list', { status: 400 });
    const direct = setup(refusing);
    await direct.t.add('http://localhost:3000/mcp', false);
    expect(direct.said).toEqual([]);
    const relayed = setup(refusing);
    await relayed.t.add('http://localhost:3000/mcp', true);
    expect(relayed.said).toEqual(['The relay refused the target list (HTTP 400): bad list']);
  });

  it('a page without a relay (404, or none reachable) adds targets without a word', async () => {
    const gone = setup(() => { throw new TypeError('fetch failed'); });
    expect(await gone.t.add('http://localhost:3000/mcp', true)).toBe(true);
    expect(gone.said).toEqual([]);
  });
});

describe('on start', () => {
  it('adds the command line\'s start targets, skipping those already watched and malformed entries', async () => {
    const stored: TargetRecord[] = [{ id: 'a', url: 'http://a/mcp', viaRelay: false, addedAt: 0 }];
    const { t } = setup((url, init) => {
      if (url === START_TARGETS) return json({ targets: [{ url: 'http://a/mcp' }, { url: 'http://b/mcp' }, { url: 7 }] });
      return init?.method === 'PUT' ? new Response('', { status: 204 }) : notFound();
    }, { stored });
    await t.start();
    await vi.waitFor(() => expect(t.list.map((x) => x.url)).toEqual(['http://a/mcp', 'http://b/mcp']));
  });

  it('lists the stdio servers attached to the relay, leaving out malformed entries, and asks again', async () => {
    vi.useFakeTimers();
    let stdio: unknown[] = [{ id: 's1', name: 'files', url: '/relay/stdio/s1' }, { id: 's2' }];
    const { t, log } = setup((url, init) => (url === RELAY_TARGETS && !init?.method ? json({ stdio }) : notFound()));
    await t.start();
    await vi.waitFor(() => expect(t.stdio.map((s) => s.name)).toEqual(['files']));
    stdio = [];
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS);
    expect(t.stdio).toEqual([]);
    const polls = log.filter((l) => l === `GET ${RELAY_TARGETS}`).length;
    t.dispose();
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS * 3);
    expect(log.filter((l) => l === `GET ${RELAY_TARGETS}`).length).toBe(polls);
  });

  it('lists the mocks the relay serves beside the stdio servers, and drops a stopped one', async () => {
    vi.useFakeTimers();
    let mocks: unknown[] = [{ id: 'mock-wizard', name: 'wizard', url: '/relay/api/forward/mock-wizard' }, { id: 'mock-bad' }];
    const { t } = setup((url, init) => (url === RELAY_TARGETS && !init?.method ? json({ stdio: [], mocks }) : notFound()));
    await t.start();
    await vi.waitFor(() => expect(t.mocks.map((m) => m.id)).toEqual(['mock-wizard']));
    expect(t.stdio).toEqual([]);
    mocks = [];
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS);
    expect(t.mocks).toEqual([]);
    t.dispose();
  });

  it('stops asking for stdio servers when there is no relay (404)', async () => {
    vi.useFakeTimers();
    const { t, log } = setup(notFound);
    await t.start();
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS * 3);
    expect(log.filter((l) => l === `GET ${RELAY_TARGETS}`)).toHaveLength(1);
    t.dispose();
  });

  it('keeps asking a relay that is briefly unreachable, with an empty list meanwhile', async () => {
    vi.useFakeTimers();
    let up = true;
    const { t, log } = setup((url, init) => {
      if (!up) throw new TypeError('fetch failed');
      return url === RELAY_TARGETS && !init?.method ? json({ stdio: [{ id: 's1', name: 'files', url: '/x' }] }) : notFound();
    });
    await t.start();
    await vi.waitFor(() => expect(t.stdio).toHaveLength(1));
    up = false;
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS);
    expect(t.stdio).toEqual([]);
    up = true;
    await vi.advanceTimersByTimeAsync(STDIO_POLL_MS);
    expect(t.stdio).toHaveLength(1);
    expect(log.filter((l) => l === `GET ${RELAY_TARGETS}`).length).toBeGreaterThanOrEqual(3);
    t.dispose();
  });
});
