// How every Console send leaves and is kept, shared by the console, tasks, tamper and replay
// services. Sends go out through the page's fetch (registered once as a comlink-proxied
// transport), so the service worker taps them like any traffic.
//
// Each send is stored once, never a second copy beside the tapped one, and nothing waits
// for the tap. Before a send leaves, its record is saved as `pending` under its link id (in
// the session the link names) and shown at once. The tap reads the link header and fills
// in that same record (storage fillExchange: same id, same seq); the transport says the
// send was taken (`tapped`). `keep` then lays the Console's own finished copy into the
// worker's session (it shows as soon as the answer is in) and writes it to storage only
// when the tap did not take the send. Step-through, forks, edit-and-resend, tamper tests
// and the catalog go to the capture session, as any traffic to a watched server; a replay
// to a session of its own.
//
// Race, written down: the tap's copy and ours share one id, so they can never be two. An
// untaken send's copy is merged (an unknown id is added, a `pending` or `streaming` one is
// superseded, a final one stands); the tap, when it took the send after all (its answer
// could not be marked), never changes a record that is already final, so its events are
// never folded in twice. The tap's final copy, once written, replaces ours in the session
// held here (services/capture-owner.ts). A service worker stopped mid-send leaves a taken
// send `pending` in storage (the session here still shows our finished copy until reload).
import { PROTOCOL_VERSION, type ExchangeRecord } from '../protocol.js';
import type { CaptureStore, StoredExchange } from '../storage/index.js';
import { newRecordId, originOfLink, type SendLink, type Transport } from '../console/index.js';

/** What the link needs: storage, and the owner that lays records into the worker's sessions. */
export interface ConsoleLinkDeps {
  store: CaptureStore;
  /** Lays records into the worker's sessions (services/capture-owner.ts). */
  apply: (records: readonly StoredExchange[]) => Promise<void>;
}

/** The Console's way out (`send`, `sender`) and back in (`keep`), and its one transport. */
export type ConsoleLink = ReturnType<typeof createConsoleLink>;

/** One link per worker: every Console service sends and keeps through it. */
export function createConsoleLink({ store, apply }: ConsoleLinkDeps) {
  let transport: Transport | null = null;
  // Where each linked send was filed, its seq, and whether the tap took it, until `keep` reads it.
  const filed = new Map<string, { session: string; seq: number; tapped: boolean }>();
  const captureSession = async () => (await store.currentSession()).id;

  // The record a send is filed under, saved before it leaves; null when storage refused it
  // (the send still goes, and `keep` tries to store the finished copy).
  async function savePending(req: Parameters<Transport>[0], link: SendLink & { session: string }): Promise<number> {
    const origin = originOfLink(link);
    const pending: ExchangeRecord = {
      v: PROTOCOL_VERSION, id: link.id, seq: 0, source: 'console', startedAt: Date.now(), state: 'pending',
      request: { method: req.method, url: req.url, headers: req.headers.map((h) => ({ ...h })), body: req.body },
      ...(link.derivedFrom !== undefined ? { derivedFrom: link.derivedFrom } : {}),
      ...(origin !== undefined ? { origin } : {}),
    };
    try {
      const [stored] = await store.mergeExchanges(link.session, [pending]);
      if (stored) await apply([stored]);
      return stored?.seq ?? 0;
    } catch {
      return 0;
    }
  }

  /** The page's transport for one kind of send: links each request into `session()`. */
  function sender(session: () => Promise<string>): Transport {
    return async (req) => {
      if (!transport) throw new Error('the page has not registered its transport (console.transport)');
      const link = { ...(req.link ?? { id: newRecordId() }) };
      const into = link.session ?? (await session());
      link.session = into;
      // Noted before sending: a send whose transport throws is still kept, in its session.
      const seq = await savePending(req, { ...link, session: into });
      filed.set(link.id, { session: into, seq, tapped: false });
      const res = await transport({ ...req, link });
      if (res.tapped?.id === link.id) filed.set(link.id, { session: into, seq, tapped: true });
      return { ...res, recordId: link.id };
    };
  }
  const send = sender(captureSession);

  /** Files Console records (see above); resolves to the session of the last one. */
  async function keep(records: readonly ExchangeRecord[]): Promise<string | null> {
    const groups = new Map<string, { own: ExchangeRecord[]; taken: StoredExchange[] }>();
    let last: string | null = null;
    for (const r of records) {
      const f = filed.get(r.id);
      filed.delete(r.id);
      const session = f?.session ?? (await captureSession());
      const g = groups.get(session) ?? { own: [], taken: [] };
      groups.set(session, g);
      if (f?.tapped) g.taken.push({ ...r, v: PROTOCOL_VERSION, seq: f.seq, session });
      else g.own.push(r);
      last = session;
    }
    for (const [session, g] of groups) {
      // Taken by the tap: storage gets its copy; the session here shows ours meanwhile.
      if (g.taken.length) await apply(g.taken);
      if (g.own.length) await apply(await store.mergeExchanges(session, g.own));
    }
    return last;
  }

  let consoleIds = 0;

  return {
    send,
    sender,
    keep,
    /** The page's fetch as the Console's transport (a comlink proxy). */
    setTransport(t: Transport): void {
      transport = t;
    },
    /** A fresh base for the JSON-RPC ids of the next call (step-through and tasks share it). */
    nextIdBase(): number {
      return ++consoleIds * 1000;
    },
  };
}
