// The page's composition root: it makes the state classes (capture status, watched targets,
// sessions, the devtools view, files in and out, held exchanges, notices), hands each the
// analysis worker and the service worker link, and routes the events between them. Views
// read the classes and call their verbs; this holds no state of its own but the last demo call.
//
// Capture sessions belong to the analysis worker: it hears the service worker's notices,
// runs the relay feed and stores the Console's sends, then tells this page which sessions
// changed (`capture.watch`). From the capture channel the page takes only what it keeps
// itself: exchanges storage refused (`held`) and storage errors.
//
// Faults (storage full, worker crashed): a dead analysis worker is replaced by the client
// (analysis-client.ts), and `#rebuild` gives the new one what only the page has (the held
// exchanges), then re-reads the lists. Calls that were waiting on the dead worker reject
// with AnalysisWorkerDied; they are dropped (sessions.svelte.ts), since the rebuild re-reads.
import { proxy } from 'comlink';
import { CaptureStore, type TargetRecord } from '../../worker/storage/index.js';
import { CAPTURE_CHANNEL, storedIds, type CaptureNotice } from '../sw/messages.js';
import { RELAY_FORWARD } from '../sw/watch-list.js';
import { AnalysisClient, type Analysis } from './analysis-client.js';
import { Capture } from './capture.svelte.js';
import { callTool, DEMO_ENDPOINT, TARGET_TOOL } from './demo-call.js';
import { DemoTools } from './demo-tools.svelte.js';
import { Devtools } from './devtools.svelte.js';
import { guarded } from './guarded.js';
import { HeldExchanges } from './held-exchanges.svelte.js';
import { MockServe } from './mock-serve.svelte.js';
import { Notices, type NoticeKind } from './notices.svelte.js';
import { Sessions } from './sessions.svelte.js';
import { SwLink } from './sw-link.js';
import { Targets } from './targets.svelte.js';
import { Transfer } from './transfer.svelte.js';

export class Inspector {
  #lastCall = $state<string | null>(null);
  readonly #store = new CaptureStore();
  readonly #analysis = new AnalysisClient({
    init: () => ({ demoServer: new URL(DEMO_ENDPOINT, location.href).href, capture: location.origin }),
    rebuild: (api) => this.#rebuild(api),
    say: (m) => this.say(m),
  });
  #channel: BroadcastChannel | null = null;
  #unguard: (() => void) | null = null;

  readonly notices = new Notices();
  readonly capture = new Capture({ store: this.#store, say: (m) => this.say(m) });
  readonly targets = new Targets({ store: this.#store, tellServiceWorker: () => this.capture.tell('targets-changed'), say: (m) => this.say(m) });
  readonly view = new Devtools(() => this.#analysis.api, () => this.sessions.viewing);
  readonly sessions: Sessions = new Sessions({ api: () => this.#analysis.api, view: this.view, say: (m) => this.say(m) });
  readonly transfer = new Transfer({ api: () => this.#analysis.api, sessions: this.sessions, view: this.view, say: (m, k) => this.say(m, k) });
  /** "Serve as mock": the session on screen served behind the relay, edits, served mocks. */
  readonly mocks = new MockServe({ api: () => this.#analysis.api, sessions: this.sessions, say: (m, k) => this.say(m, k) });
  /** The demo tool the toolbar calls, and the menu to choose it. */
  readonly demoTools = new DemoTools(async (body) => (await this.#analysis.api?.console.toolList(body)) ?? []);
  readonly held = new HeldExchanges({
    store: this.#store,
    api: () => this.#analysis.api,
    refresh: () => this.sessions.refresh(),
    nameOf: (id) => this.sessions.nameOf(id),
    say: (m) => this.say(m),
  });

  /** What the last toolbar or target call answered. */
  get lastCall(): string | null { return this.#lastCall; }
  /** The live analysis worker (a new object after each restart); null while one starts. */
  get api(): Analysis | null { return this.#analysis.api; }

  async start(): Promise<void> {
    this.#channel = new BroadcastChannel(CAPTURE_CHANNEL);
    this.#channel.onmessage = (e: MessageEvent<CaptureNotice>) => this.#onNotice(e.data);
    this.#unguard = this.held.guardUnload();
    try {
      const init = await this.#analysis.start();
      if (!init.ok) this.say(init.error.message);
      await this.#watchCapture(this.#analysis.api);
      // The list first: a relay backlog may be draining in the worker already, and each
      // read waits for its turn there, so the first screen does not wait behind the others.
      void this.sessions.show(await this.capture.loadSession());
      await this.capture.loadSettings();
      await this.sessions.load();
      await this.targets.start();
      void this.view.loadStatic();
      const { link, notice } = await SwLink.start({ onNotice: (m) => this.say(m) });
      this.capture.connected(link, notice);
    } catch (err) {
      this.capture.failed(err instanceof Error ? err.message : String(err));
    }
  }

  dispose(): void {
    this.targets.dispose();
    this.#unguard?.();
    this.#channel?.close();
    this.#analysis.terminate();
    this.#store.close();
  }

  // A restarted worker reads sessions and remembered keys from storage by itself, and the
  // client passed it this visit's keys; the held exchanges only the page has.
  async #rebuild(api: Analysis): Promise<void> {
    await this.#watchCapture(api);
    await this.held.resend(api);
    await this.sessions.load();
    void this.view.loadStatic().catch(() => undefined);
    await this.sessions.refresh();
  }

  // The worker tells us which sessions changed once it holds the change.
  async #watchCapture(api: Analysis | null): Promise<void> {
    await api?.capture.watch(proxy((sessions: string[]) => this.sessions.changed(sessions)));
  }

  /** POSTs a `tools/call` to the embedded demo server (the tool chosen in the toolbar), or to a watched target. */
  async call(target?: TargetRecord, tool: string = target ? TARGET_TOOL : this.demoTools.chosen): Promise<void> {
    const url = !target ? DEMO_ENDPOINT : target.viaRelay ? `${RELAY_FORWARD}${encodeURIComponent(target.id)}` : target.url;
    this.#lastCall = `${tool} → …`;
    // Viewing an import or a replay: the call is recorded into the capture session, not
    // the one on screen, so say where it goes rather than let it vanish.
    const shown = this.sessions.current;
    const into = this.sessions.list.find((s) => s.capturing);
    if (shown && !shown.capturing && into) this.say(`${tool} is sent to ${target ? target.url : 'the demo server'} and recorded in “${into.name}”, not in “${shown.name}” on screen.`, 'info');
    const got = await callTool(url, tool, async (body) => (await this.#analysis.api?.console.rpcError(body)) ?? null);
    if (got.taskOnly && !target) this.demoTools.markTaskOnly(tool);
    this.#lastCall = got.summary;
  }

  /**
   * Clear: with "preserve log" the current capture is kept as a session of its own and
   * recording continues into a new one; without it, the session on screen is emptied.
   */
  async clear(): Promise<void> {
    const api = this.#analysis.api;
    const id = this.sessions.viewing;
    if (!api || !id) return;
    if (this.capture.preserveLog) {
      await guarded((m) => this.say(m), async () => {
        const s = await this.capture.startSession(`Session ${this.sessions.list.length + 1}`);
        await this.sessions.load();
        await this.sessions.show(s);
      });
      return;
    }
    await guarded((m) => this.say(m), async () => {
      await this.#store.clearExchanges(id);
      api.sessions.forget(id);
      await this.held.drop(id);
      await this.sessions.emptied();
    });
  }

  /** A notice under the toolbar; unless told otherwise it is a warning (something went wrong). */
  say(message: string, kind?: NoticeKind): void {
    this.notices.say(message, kind);
  }

  // Only what the page keeps itself: the worker lays everything else into its sessions.
  #onNotice(n: CaptureNotice): void {
    if (n.type === 'exchange-unsaved') {
      // The whole record: it needs no read of storage, only the overlay and a refresh.
      this.held.take(n.record, n.error);
      if (this.sessions.viewing === this.capture.session) void this.sessions.refresh();
      return;
    }
    if (n.type === 'storage-error') return this.say(`Capture not saved: ${n.error.message}`);
    for (const id of storedIds(n)) void this.held.settled(id);
  }
}
