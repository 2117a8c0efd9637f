// Session replay: a capture's conversations sent again to another target, into a session of
// its own, compared with what the capture got.
import { DEFAULT_IGNORE } from '../console/index.js';
import type { ReplayView } from '../view/console-types.js';
import { searchedList, withBodies } from '../view/body-reads.js';
import type { Answer } from '../view/types.js';
import { replaySession } from './console-runs.js';
import type { ServiceContext } from './context.js';

export function createReplayService({ store, link, guard, checkedOf }: Pick<ServiceContext, 'store' | 'link' | 'guard' | 'checkedOf'>) {
  const { sender, keep } = link;
  return {
    /** The fields a replay ignores when it compares answers, unless the user says otherwise. */
    defaults(): string[] { return [...DEFAULT_IGNORE]; },
    /** Replays the session (or its filtered conversations) against `target`; the replay is a session of its own. */
    run(session: string, opts: { target: string; ignore: string[]; filter?: string; sendCredentials?: boolean }): Promise<Answer<ReplayView>> {
      return guard(async () => {
        const b = await checkedOf(session);
        const conversations = opts.filter ? (await searchedList(b, opts.filter)).items.map((c) => c.id) : undefined;
        // The replay's session is made at its first send (the link names it), so a replay
        // that sends nothing leaves no empty session behind.
        let made: Promise<{ id: string; name: string }> | null = null;
        const own = () => (made ??= store.createSession(`Replay → ${opts.target}`));
        const replaySend = sender(async () => (await own()).id);
        return replaySession(await withBodies(b), { target: opts.target, ignore: opts.ignore, send: replaySend, sendCredentials: opts.sendCredentials === true, ...(conversations ? { conversations } : {}) },
          async (records) => {
            await keep(records);
            const s = await own();
            return { id: s.id, name: s.name };
          });
      });
    },
  };
}
