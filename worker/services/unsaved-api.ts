// The capture service's side of exchanges storage refused (the quota was full): the page holds them in
// memory and hands them here, so they are listed, analysed and exported with their session
// like stored ones until "Retry saving" writes them. The page is the keeper: this worker
// can be restarted at any time, and the page sends its copies again.
//
// Race, written down: a session's model may be loading (a promise in `sessions`) while
// copies arrive. Copies go into `held` first, and the loader lays `heldOf(session)` over
// the model when its load finishes; copies that arrive after that are laid over directly.
// Both paths replace by id, so a copy applied twice is harmless.
import { PROTOCOL_VERSION } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import type { SessionModel, UnsavedExchange } from '../view/session-model.js';
import type { Answer } from '../view/types.js';

export interface UnsavedDeps {
  store: CaptureStore;
  sessions: Map<string, Promise<SessionModel>>;
  guard: <T>(fn: () => Promise<T>) => Promise<Answer<T>>;
}

/** The held copies, and the facade methods that add and release them. */
export function createUnsavedApi({ store, sessions, guard }: UnsavedDeps) {
  /** Per session, per id: the newest copy the page sent. */
  const held = new Map<string, Map<string, UnsavedExchange>>();

  const loaded = (session: string): Promise<SessionModel | null> | null =>
    sessions.get(session)?.catch(() => null) ?? null;

  return {
    /** What to lay over a session's model when it (re)loads. */
    heldOf(session: string): UnsavedExchange[] {
      return [...(held.get(session)?.values() ?? [])];
    },

    /** One held copy as a record (seq -1 when it was never stored), for raw-record reads. */
    heldRecord(id: string): StoredExchange | undefined {
      for (const bySession of held.values()) {
        const h = bySession.get(id);
        if (h) return { ...h, v: PROTOCOL_VERSION, seq: h.seq ?? -1 };
      }
      return undefined;
    },

    api: {
      /** Exchanges storage refused, held in the page's memory; the newest copy of an id wins. */
      async holdUnsaved(records: UnsavedExchange[]): Promise<void> {
        const bySession = new Map<string, UnsavedExchange[]>();
        for (const r of records) {
          let h = held.get(r.session);
          if (!h) held.set(r.session, (h = new Map()));
          h.set(r.id, r);
          bySession.set(r.session, [...(bySession.get(r.session) ?? []), r]);
        }
        for (const [session, list] of bySession) (await loaded(session))?.hold(list);
      },

      /**
       * Held exchanges that were written after all (or whose session was cleared): their
       * stored copies, when there are any, take their place in one change of the model.
       */
      releaseUnsaved(session: string, ids: string[]): Promise<Answer<void>> {
        return guard(async () => {
          const h = held.get(session);
          for (const id of ids) h?.delete(id);
          const model = await loaded(session);
          if (!model) return;
          const fresh = await Promise.all(ids.map((id) => store.getExchange(id)));
          model.put(fresh.filter((r): r is StoredExchange => !!r && r.session === session));
          model.release(ids);
        });
      },
    },
  };
}
