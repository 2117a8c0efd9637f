// A stub of the worker's calls the devtools view makes (web/lib/devtools.svelte.ts and its
// parts), for the page's state tests. Answers come from small fixtures; a call can be held
// open (`hold`) to play out what happens when answers arrive out of order.
import type { ConversationList, ConversationSummary, ConversationView, ExchangeView, ListStats, ListUpdate } from '../../../worker/facade.ts';
import type { Answer } from '../../../worker/protocol.ts';
import type { DevtoolsApi } from '../../../web/lib/devtools.svelte.ts';

const stats: ListStats = { conversations: 0, exchanges: 0, errors: 0, warnings: 0, totalConversations: 0, expected: 0, filtered: false, checking: 0 };

export function row(id: string, firstSeq: number): ConversationSummary {
  return { id, firstSeq } as ConversationSummary; // the page's state reads only these
}

export function whole(epoch: number, ...items: ConversationSummary[]): ListUpdate {
  const list: ConversationList = { items, stats: { ...stats, conversations: items.length, totalConversations: items.length }, filter: { ok: true } };
  return { kind: 'whole', epoch, list };
}

/** A thread whose rounds carried exchanges `${id}-r0`, `${id}-r1`…; `failed` marks rounds that failed. */
export function delta(epoch: number, since: number, changed: ConversationSummary[], removed: string[] = []): ListUpdate {
  return { kind: 'delta', epoch, since, changed, removed, stats, filter: { ok: true } };
}

export function thread(id: string, rounds: number, failed: number[] = []): ConversationView {
  const rs = Array.from({ length: rounds }, (_, i) => ({ index: i, exchangeId: `${id}-r${i}`, outcome: failed.includes(i) ? 'error' : 'complete', findings: 0 }));
  return { id, rounds: rs } as unknown as ConversationView;
}

export function exchange(id: string, full = false): ExchangeView {
  return { id, full } as unknown as ExchangeView;
}

type Call = 'conversationsSince' | 'conversation' | 'exchangeView';

export interface StubWorker {
  api: DevtoolsApi;
  /** Every call made, as `name args…`. */
  calls: string[];
  /** Answers of conversationsSince, in order; the last one repeats. */
  lists: Answer<ListUpdate>[];
  threads: Map<string, ConversationView>;
  fail: Partial<Record<Call, string>>;
  /** Holds the next answer of `call` until the returned function is called. */
  hold(call: Call): () => void;
}

export function stubWorker(): StubWorker {
  const held = new Map<Call, Promise<void>>();
  const s: StubWorker = {
    calls: [],
    lists: [],
    threads: new Map(),
    fail: {},
    hold(call) {
      let open = (): void => undefined;
      held.set(call, new Promise<void>((r) => { open = r; }));
      return () => open();
    },
    api: {
      sessions: {
        async conversationsSince(session, filter, since) {
          s.calls.push(`list ${session} "${filter}" ${since}`);
          // The answer as of the call: a held call answers what the worker had when asked.
          const answer = s.lists.length > 1 ? s.lists.shift()! : s.lists[0];
          const failed = s.fail.conversationsSince;
          await wait('conversationsSince');
          if (failed) return { ok: false, error: { kind: 'invalid', message: failed } };
          return answer;
        },
        async conversation(session, id) {
          s.calls.push(`thread ${session} ${id}`);
          await wait('conversation');
          if (s.fail.conversation) return { ok: false, error: { kind: 'not-found', message: s.fail.conversation } };
          return { ok: true, value: s.threads.get(id) ?? null };
        },
        async exchangeView(session, id, full) {
          s.calls.push(`exchange ${session} ${id}${full ? ' full' : ''}`);
          await wait('exchangeView');
          if (s.fail.exchangeView) return { ok: false, error: { kind: 'not-found', message: s.fail.exchangeView } };
          return { ok: true, value: exchange(id, full) };
        },
      },
      findings: { rules: async () => [] },
      keys: { list: async () => [] },
    },
  };
  async function wait(call: Call): Promise<void> {
    const h = held.get(call);
    held.delete(call);
    if (h) await h;
  }
  return s;
}

/** Lets every answer already given land. */
export const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
