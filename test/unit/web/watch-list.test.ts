// What the capture service worker records for a call through the relay's forwarder
// (web/sw/watch-list.ts): the target's own URL, so records, keys and findings name the
// server, never /relay/api/forward/<id>.
import { describe, expect, it } from 'vitest';
import { RELAY_FORWARD, WatchList } from '../../../web/sw/watch-list.js';
import type { CaptureStore } from '../../../worker/storage/index.js';

const ORIGIN = 'http://127.0.0.1:5173';
const targets = [
  { id: 'a1b2', url: 'http://127.0.0.1:3000/mcp', viaRelay: true },
  { id: 'c3d4', url: 'http://127.0.0.1:4000/mcp', viaRelay: false },
];
const store = { listTargets: async () => targets, getSetting: async () => undefined } as unknown as CaptureStore;

describe('the URL a tapped request is recorded with', () => {
  it('is the target\'s own URL for a call through the relay\'s forwarder', async () => {
    const w = new WatchList(store, ORIGIN);
    await w.load();
    expect(w.recordedUrl(`${ORIGIN}${RELAY_FORWARD}a1b2`)).toBe('http://127.0.0.1:3000/mcp');
    expect(w.match(new URL(`${ORIGIN}${RELAY_FORWARD}a1b2`))).toBe(true);
  });

  it('is the URL as sent for anything else: a direct call, an unknown or not-relayed id, another origin', async () => {
    const w = new WatchList(store, ORIGIN);
    await w.load();
    for (const url of ['http://127.0.0.1:4000/mcp', `${ORIGIN}${RELAY_FORWARD}c3d4`, `${ORIGIN}${RELAY_FORWARD}nope`, `http://evil.test${RELAY_FORWARD}a1b2`, 'not a url'])
      expect(w.recordedUrl(url)).toBe(url);
  });
});
