// web/lib/capture.svelte.ts: capture status and the record / preserve-log switches, driven
// with an in-memory settings store and a stub service worker link.
import { describe, expect, it } from 'vitest';
import { StorageError, type SessionRecord } from '../../../worker/storage/index.ts';
import { Capture, type CaptureDeps, type ServiceWorkerLink } from '../../../web/lib/capture.svelte.ts';

function setup(opts: { settings?: Record<string, unknown>; refuse?: boolean } = {}) {
  const settings = new Map<string, unknown>(Object.entries(opts.settings ?? {}));
  const log: string[] = [];
  const said: string[] = [];
  let current: SessionRecord = { id: 's1', name: 'Session 1', createdAt: 0, nextSeq: 0 };
  const refuse = (): void => {
    if (opts.refuse) throw new StorageError('quota', 'Storage is full.');
  };
  const store: CaptureDeps['store'] = {
    currentSession: async () => current,
    getSetting: (async (key: string) => settings.get(key)) as CaptureDeps['store']['getSetting'],
    setSetting: (async (key: string, value: unknown) => {
      refuse();
      log.push(`set ${key}=${String(value)}`);
      settings.set(key, value);
    }) as CaptureDeps['store']['setSetting'],
    createSession: async (name) => {
      refuse();
      log.push(`create ${name}`);
      return { id: 's2', name, createdAt: 1, nextSeq: 0 };
    },
    setCurrentSession: async (id) => {
      log.push(`current ${id}`);
      current = { ...current, id };
    },
  };
  const link: ServiceWorkerLink = { ask: async (req) => { log.push(`told ${req.type}`); return { type: 'ack' }; } };
  const c = new Capture({ store, say: (m) => void said.push(m) });
  return { c, log, said, link };
}

describe('capture status', () => {
  it('starts, and is capturing once the service worker link is up, saying what the link had to say', () => {
    const { c, said, link } = setup();
    expect(c.status).toBe('starting');
    c.connected(link, 'A new capture service worker took over.');
    expect(c.status).toBe('capturing');
    expect(said).toEqual(['A new capture service worker took over.']);
  });

  it('a start that failed says why and stays failed', () => {
    const { c, said } = setup();
    c.failed('This browser has no service workers.');
    expect(c.status).toBe('failed');
    expect(said).toEqual(['This browser has no service workers.']);
  });

  it('reads the session captured into', async () => {
    const { c } = setup();
    expect(await c.loadSession()).toBe('s1');
    expect(c.session).toBe('s1');
  });
});

describe('the switches', () => {
  it('record on and preserve log off until the user changed them', async () => {
    const fresh = setup();
    await fresh.c.loadSettings();
    expect([fresh.c.recording, fresh.c.preserveLog]).toEqual([true, false]);
    const changed = setup({ settings: { recording: false, preserveLog: true } });
    await changed.c.loadSettings();
    expect([changed.c.recording, changed.c.preserveLog]).toEqual([false, true]);
  });

  it('turning recording off is saved and told to the service worker before it shows', async () => {
    const { c, log, link } = setup();
    c.connected(link, null);
    await c.setRecording(false);
    expect(log).toEqual(['set recording=false', 'told targets-changed']);
    expect(c.recording).toBe(false);
  });

  it('a switch storage refused stays as it was, and the refusal is said', async () => {
    const { c, said } = setup({ refuse: true });
    await c.setRecording(false);
    await c.setPreserveLog(true);
    expect([c.recording, c.preserveLog]).toEqual([true, false]);
    expect(said).toEqual(['Storage is full.', 'Storage is full.']);
  });

  it('preserve log is saved without troubling the service worker', async () => {
    const { c, log, link } = setup();
    c.connected(link, null);
    await c.setPreserveLog(true);
    expect(c.preserveLog).toBe(true);
    expect(log).toEqual(['set preserveLog=true']);
  });
});

describe('a new capture session', () => {
  it('is made current, told to the service worker, and captured into from then on', async () => {
    const { c, log, link } = setup();
    c.connected(link, null);
    await c.loadSession();
    expect(await c.startSession('Session 2')).toBe('s2');
    expect(log).toEqual(['create Session 2', 'current s2', 'told session-changed']);
    expect(c.session).toBe('s2');
  });

  it('one storage refused throws to the caller and leaves the session captured into as it was', async () => {
    const { c } = setup({ refuse: true });
    await c.loadSession();
    await expect(c.startSession('Session 2')).rejects.toThrow('Storage is full.');
    expect(c.session).toBe('s1');
  });
});
