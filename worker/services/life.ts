// The worker's own life: its start (`init`), the Web Lock that lets the page see a death
// that fires no event (`lifeline`), and the protocol version it speaks.
import { BACKLOG_CHANNEL, CAPTURE_CHANNEL, type CaptureNotice } from '../capture/notices.js';
import { BacklogLock } from '../capture/backlog-lock.js';
import { PushWriter } from '../capture/push-writer.js';
import { RelayFeed } from '../capture/relay-feed.js';
import { DEMO_STATE_KEY } from '../demo-key.js';
import { PROTOCOL_VERSION } from '../protocol.js';
import type { Answer, KeyInfo } from '../view/types.js';
import type { ServiceContext } from './context.js';

export function createLifeService({ store, keyring, owner, guard, listed, reading, loadedModel, arriving, cleared }: Pick<ServiceContext, 'store' | 'keyring' | 'owner' | 'guard' | 'listed' | 'reading' | 'loadedModel' | 'arriving' | 'cleared'>) {
  let feed: RelayFeed | null = null;

  return {
    protocolVersion(): number {
      return PROTOCOL_VERSION;
    },

    /**
     * Called once by the page: `demoServer` is the embedded demo's endpoint (origin + path),
     * whose key is known; remembered keys are loaded from settings. With `capture` (the page's
     * origin), this worker starts owning capture: it hears the service worker's notices and
     * runs the relay feed, both for as long as it lives.
     */
    async init(opts: { demoServer: string; capture?: string }): Promise<Answer<KeyInfo[]>> {
      keyring.set(opts.demoServer, DEMO_STATE_KEY, { builtIn: true });
      if (opts.capture !== undefined && !feed && typeof BroadcastChannel === 'function') {
        // A relay push is written by one tab only (capture/push-writer.ts), and the backlog
        // drained by one tab at a time (capture/backlog-lock.ts); the others list what it
        // stored from its notices, which the feed hears too.
        owner.hear(new BroadcastChannel(CAPTURE_CHANNEL), (n) => feed?.heard(n));
        // Another tab's backlog copies come on a channel of their own (no page listens there).
        const backlog = new BroadcastChannel(BACKLOG_CHANNEL);
        backlog.onmessage = (e: MessageEvent<CaptureNotice>) => {
          owner.notice(e.data);
          feed?.heard(e.data);
        };
        const announce = (n: CaptureNotice) => {
          if (n.type !== 'backlog-laid') return owner.announce(n);
          try {
            backlog.postMessage(n);
          } catch {
            // A closed channel (the worker is going away): the waiting tab lists the stored copies instead.
          }
        };
        if (typeof EventSource === 'function') {
          const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
          feed = new RelayFeed({
            writer: new PushWriter(locks),
            drainLock: new BacklogLock(locks),
            store, base: opts.capture, openEvents: (url) => new EventSource(url),
            // Laying in is awaited by the checks too: the session may be loaded first.
            laid: (records) => arriving(owner.apply(records, { unstored: true })),
            stored: (records) => void owner.stored(records),
            collided: (session) => owner.reload(session),
            quiet: listed,
            reading,
            arriving,
            known: (session) => {
              const model = loadedModel(session);
              return model ? (id) => model.records.get(id) : null;
            },
            announce,
          });
          const started = feed;
          cleared.hear((session) => started.forgetNumbers(session));
          feed.start();
        }
      }
      return guard(async () => {
        for (const k of (await store.getSetting('tokenKeys')) ?? []) keyring.set(k.server, k.text, { remembered: true });
        return keyring.list();
      });
    },

    /**
     * Resolves once this worker holds the Web Lock `name` for the rest of its life. The page
     * then queues for the same lock: it is granted when this worker is gone, however it died
     * (closed, crashed, out of memory), and a busy worker never looks dead. False without
     * Web Locks.
     */
    async lifeline(name: string): Promise<boolean> {
      const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
      if (!locks) return false;
      await new Promise<void>((held) => {
        void locks.request(name, () => {
          held();
          return new Promise<never>(() => undefined);
        });
      });
      return true;
    },
  };
}
