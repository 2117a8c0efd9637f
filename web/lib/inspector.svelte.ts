// The page's state: the service worker link, watched targets, capture sessions (live and
// imported), the record / preserve-log switches, and the devtools view of the session on
// screen. Views read the getters and call the verbs.
//
// Capture sessions belong to the analysis worker: it hears the service worker's notices,
// runs the relay feed and stores the Console's sends, then tells this page which sessions
// changed (`capture.watch`). The page only re-reads the view on screen: one refresh at a
// time, and a change during a refresh schedules exactly one more. From the capture channel
// it takes only what it keeps itself: exchanges storage refused (`held`) and storage errors.
//
// Faults (storage full, worker crashed): exchanges storage refused are held in memory (`held`); a dead analysis
// worker is replaced by the client (analysis-client.ts), and `#rebuild` gives the new one
// what only the page has (the held exchanges), then re-reads the lists. Calls that were
// waiting on the dead worker reject with AnalysisWorkerDied; they are dropped here, since
// the rebuild re-reads everything.
import { proxy } from 'comlink';
import type { ExchangeSummary, Imported, SessionInfo } from '../../worker/facade.js';
import { CaptureStore, StorageError, type TargetRecord } from '../../worker/storage/index.js';
import { CAPTURE_CHANNEL, type CaptureNotice } from '../sw/messages.js';
import { RELAY_FORWARD } from '../sw/watch-list.js';
import { AnalysisClient, AnalysisWorkerDied, type Analysis } from './analysis-client.js';
import { callTool, DEMO_ENDPOINT, TARGET_TOOL } from './demo-call.js';
import { DemoTools } from './demo-tools.svelte.js';
import { Devtools } from './devtools.svelte.js';
import { HeldExchanges } from './held-exchanges.svelte.js';
import { Notices, type Notice, type NoticeKind } from './notices.svelte.js';
import { SwLink } from './sw-link.js';
import { Transfer } from './transfer.svelte.js';

export type CaptureStatus = 'starting' | 'capturing' | 'failed';
const LIST_LIMIT = 200;
const RELAY_TARGETS = '/relay/api/targets';
/** Targets given to `mrtr-inspector --target` (server/serve/start-targets.ts). */
const START_TARGETS = '/relay/api/start-targets';
/** How often the page re-reads the relay's attached stdio servers (they come and go with `wrap --serve`). */
const STDIO_POLL_MS = 1500;

/** A stdio server attached to the relay (`wrap --serve --name <name>`), reached at `url`. */
export interface StdioTarget { id: string; name: string; url: string }

export class Inspector {
  #status = $state<CaptureStatus>('starting');
  readonly #notices = new Notices();
  #targets = $state.raw<TargetRecord[]>([]);
  #exchanges = $state.raw<ExchangeSummary[]>([]);
  #sessions = $state.raw<SessionInfo[]>([]);
  #capturing = $state<string | null>(null);
  #viewing = $state<string | null>(null);
  #recording = $state(true);
  #preserveLog = $state(false);
  #lastCall = $state<string | null>(null);
  #stdio = $state.raw<StdioTarget[]>([]);
  #stdioTimer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;

  readonly #store = new CaptureStore();
  #link: SwLink | null = null;
  readonly #analysis = new AnalysisClient({
    init: () => ({ demoServer: new URL(DEMO_ENDPOINT, location.href).href, capture: location.origin }),
    rebuild: (api) => this.#rebuild(api),
    say: (m) => this.say(m),
  });
  #channel: BroadcastChannel | null = null;
  #refreshing: Promise<void> | null = null;
  #again = false;

  readonly view = new Devtools(() => this.#analysis.api, () => this.#viewing);
  readonly transfer = new Transfer(this);
  /** The demo tool the toolbar calls, and the menu to choose it. */
  readonly demoTools = new DemoTools(async (body) => (await this.#analysis.api?.console.toolNames(body)) ?? []);
  readonly held = new HeldExchanges({
    store: this.#store,
    api: () => this.#analysis.api,
    refresh: () => this.refresh(),
    nameOf: (id) => this.#sessions.find((s) => s.id === id)?.name ?? 'capture',
    say: (m) => this.say(m),
  });
  #unguard: (() => void) | null = null;

  get status(): CaptureStatus { return this.#status; }
  get notices(): readonly Notice[] { return this.#notices.items; }
  get targets(): readonly TargetRecord[] { return this.#targets; }
  get exchanges(): readonly ExchangeSummary[] { return this.#exchanges; }
  get sessions(): readonly SessionInfo[] { return this.#sessions; }
  get viewing(): string | null { return this.#viewing; }
  get session(): SessionInfo | null { return this.#sessions.find((s) => s.id === this.#viewing) ?? null; }
  get recording(): boolean { return this.#recording; }
  get preserveLog(): boolean { return this.#preserveLog; }
  get lastCall(): string | null { return this.#lastCall; }
  /** Stdio servers attached to the relay right now (re-read every STDIO_POLL_MS). */
  get stdioTargets(): readonly StdioTarget[] { return this.#stdio; }
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
      const current = await this.#store.currentSession();
      this.#capturing = current.id;
      this.#viewing = current.id;
      // The list first: a relay backlog may be draining in the worker already, and each
      // read waits for its turn there, so the first screen does not wait behind the others.
      void this.refresh();
      this.#recording = (await this.#store.getSetting('recording')) ?? true;
      this.#preserveLog = (await this.#store.getSetting('preserveLog')) ?? false;
      await this.loadSessions();
      this.#targets = await this.#store.listTargets();
      void this.view.loadStatic();
      void this.#syncRelay(this.#targets);
      void this.#addStartTargets();
      void this.#pollStdio();
      const { link, notice } = await SwLink.start({ onNotice: (m) => this.say(m) });
      this.#link = link;
      if (notice) this.say(notice);
      this.#status = 'capturing';
    } catch (err) {
      this.#status = 'failed';
      this.say(err instanceof Error ? err.message : String(err));
    }
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#stdioTimer) clearTimeout(this.#stdioTimer);
    this.#stdioTimer = null;
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
    await this.loadSessions();
    void this.view.loadStatic().catch(() => undefined);
    await this.refresh();
  }

  // The worker tells us which sessions changed once it holds the change.
  async #watchCapture(api: Analysis | null): Promise<void> {
    await api?.capture.watch(proxy((sessions: string[]) => {
      if (this.#viewing !== null && sessions.includes(this.#viewing)) void this.refresh();
    }));
  }

  async loadSessions(): Promise<void> {
    const got = await this.#analysis.api?.sessions.list();
    if (got?.ok) this.#sessions = got.value;
    else if (got) this.say(got.error.message);
  }

  /** Shows another session (live or imported). */
  async viewSession(id: string): Promise<void> {
    if (id === this.#viewing) return;
    this.#viewing = id;
    this.view.reset();
    this.#exchanges = [];
    await this.refresh();
  }

  /**
   * Shows the session and selects the conversation and round holding exchange `id` (the
   * Console's "Show it"); only the session when no conversation holds it.
   */
  async showExchange(session: string, id: string): Promise<void> {
    await this.viewSession(session);
    const got = await this.#analysis.api?.sessions.placeOfExchange(session, id);
    if (!got?.ok || !got.value || this.#viewing !== session) return;
    this.view.reveal(got.value.conversation, got.value.round);
  }

  /** Shows the session with conversation `id` selected. */
  async showConversation(session: string, id: string): Promise<void> {
    await this.viewSession(session);
    if (this.#viewing !== session) return;
    this.view.select(id);
    this.view.setFocus('list');
  }

  /** Shows a session that was just created (an import), after re-reading the session list. */
  async showNewSession(s: SessionInfo): Promise<void> {
    await this.loadSessions();
    if (!this.#sessions.some((x) => x.id === s.id)) this.#sessions = [...this.#sessions, s];
    await this.viewSession(s.id);
  }

  async addTarget(url: string, viaRelay = false): Promise<boolean> {
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    } catch {
      this.say(`"${url}" is not an http(s) URL; enter the MCP endpoint, e.g. http://localhost:3000/mcp.`);
      return false;
    }
    return this.#guard(async () => {
      await this.#store.addTarget({ url: parsed.href, viaRelay });
      await this.#targetsChanged();
    });
  }

  removeTarget(id: string): Promise<boolean> {
    return this.#guard(async () => {
      await this.#store.removeTarget(id);
      await this.#targetsChanged();
    });
  }

  /** POSTs a `tools/call` to the embedded demo server (the tool chosen in the toolbar), or to a watched target. */
  async call(target?: TargetRecord, tool: string = target ? TARGET_TOOL : this.demoTools.chosen): Promise<void> {
    const url = !target ? DEMO_ENDPOINT : target.viaRelay ? `${RELAY_FORWARD}${encodeURIComponent(target.id)}` : target.url;
    this.#lastCall = `${tool} → …`;
    this.#lastCall = (await callTool(url, tool)).summary;
  }

  /** The record toggle: the service worker stops (or resumes) recording watched traffic. */
  async setRecording(on: boolean): Promise<void> {
    const ok = await this.#guard(async () => {
      await this.#store.setSetting('recording', on);
      await this.#link?.ask({ type: 'targets-changed' });
    });
    if (ok) this.#recording = on;
  }

  async setPreserveLog(on: boolean): Promise<void> {
    if (await this.#guard(() => this.#store.setSetting('preserveLog', on))) this.#preserveLog = on;
  }

  /**
   * Clear: with "preserve log" the current capture is kept as a session of its own and
   * recording continues into a new one; without it, the session on screen is emptied.
   */
  async clear(): Promise<void> {
    const api = this.#analysis.api;
    if (!api || !this.#viewing) return;
    if (this.#preserveLog) {
      await this.#guard(async () => {
        const s = await this.#store.createSession(`Session ${this.#sessions.length + 1}`);
        await this.#store.setCurrentSession(s.id);
        await this.#link?.ask({ type: 'session-changed' });
        this.#capturing = s.id;
        await this.loadSessions();
        await this.viewSession(s.id);
      });
      return;
    }
    const id = this.#viewing;
    await this.#guard(async () => {
      await this.#store.clearExchanges(id);
      api.sessions.forget(id);
      await this.held.drop(id);
      this.view.reset();
      this.#exchanges = [];
      await this.refresh();
    });
  }

  dismiss(id: number): void {
    this.#notices.dismiss(id);
  }

  /** A notice under the toolbar; unless told otherwise it is a warning (something went wrong). */
  say(message: string, kind?: NoticeKind): void {
    this.#notices.say(message, kind);
  }

  /** Shows the outcome of an import. */
  reportImport(a: Imported, fileName: string): void {
    const skipped = a.skipped.length ? `; skipped ${a.skipped.length}: ${a.skipped.slice(0, 3).map((s) => `${s.where} (${s.message})`).join('; ')}` : '';
    this.say(`Imported ${a.count} exchanges from ${fileName}${skipped}.${a.notes.length ? ' ' + a.notes.join(' ') : ''}`, a.skipped.length ? 'warning' : 'success');
  }

  /** Re-reads the lists from the analysis worker. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    // A worker that died mid-refresh is restarted, and the restart refreshes again.
    const once = this.#refreshOnce().catch((err: unknown) => {
      if (!(err instanceof AnalysisWorkerDied)) throw err;
    });
    this.#refreshing = once.finally(() => {
      this.#refreshing = null;
      if (this.#again) {
        this.#again = false;
        void this.refresh();
      }
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<void> {
    const api = this.#analysis.api;
    const session = this.#viewing;
    if (!api || !session) return;
    // Both reads at once: the list (and its counts) does not wait for the raw exchanges.
    const [ex] = await Promise.all([api.sessions.exchanges(session, { offset: -LIST_LIMIT, limit: LIST_LIMIT }), this.view.reload()]);
    if (ex.ok) this.#exchanges = ex.value.items;
    else this.say(ex.error.message);
  }

  // Only what the page keeps itself: the worker lays everything else into its sessions.
  #onNotice(n: CaptureNotice): void {
    if (n.type === 'exchange-unsaved') {
      // The whole record: it needs no read of storage, only the overlay and a refresh.
      this.held.take(n.record, n.error);
      if (this.#viewing === this.#capturing) void this.refresh();
      return;
    }
    if (n.type === 'storage-error') this.say(`Capture not saved: ${n.error.message}`);
    else if (n.id) void this.held.settled(n.id);
  }

  async #targetsChanged(): Promise<void> {
    const targets = await this.#store.listTargets();
    this.#targets = targets;
    // Wait for the worker to re-read its list, so a call made right after is tapped.
    await this.#link?.ask({ type: 'targets-changed' });
    await this.#syncRelay(targets);
  }

  // The relay forwards only to targets it was told about. Best effort: a static build
  // served without the dev server has no relay, and direct calls need none.
  async #syncRelay(targets: readonly TargetRecord[]): Promise<void> {
    try {
      const res = await fetch(RELAY_TARGETS, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(targets.map((t) => ({ id: t.id, url: t.url }))),
      });
      if (!res.ok && res.status !== 404 && targets.some((t) => t.viaRelay)) {
        this.say(`The relay refused the target list (HTTP ${res.status}): ${(await res.text()).slice(0, 300)}`);
      }
    } catch {
      // No relay reachable: only "via relay" targets need it, and their calls will say so.
    }
  }

  // Targets given on the command line (`mrtr-inspector --target URL`) become watched ones
  // when the page opens; a server without any (`vite dev`, a static host) answers 404.
  async #addStartTargets(): Promise<void> {
    try {
      const res = await fetch(START_TARGETS, { cache: 'no-store' });
      if (!res.ok) return;
      const body = (await res.json()) as { targets?: { url?: unknown }[] };
      for (const t of body.targets ?? []) {
        if (typeof t.url === 'string' && !this.#targets.some((w) => w.url === t.url)) await this.addTarget(t.url);
      }
    } catch {
      // No start targets to add.
    }
  }

  // Reads the attached stdio servers, then again after STDIO_POLL_MS. A page without a relay
  // (static build: 404) stops asking; a relay that is briefly unreachable is asked again.
  async #pollStdio(): Promise<void> {
    let again = true;
    try {
      const res = await fetch(RELAY_TARGETS, { cache: 'no-store' });
      if (res.status === 404) again = false;
      const body = res.ok ? ((await res.json()) as { stdio?: unknown }) : {};
      const next = Array.isArray(body.stdio) ? body.stdio.filter(isStdioTarget) : [];
      const same = next.length === this.#stdio.length && next.every((t, i) => t.id === this.#stdio[i].id && t.url === this.#stdio[i].url);
      if (!same) this.#stdio = next;
    } catch {
      if (this.#stdio.length) this.#stdio = [];
    }
    if (again && !this.#disposed) this.#stdioTimer = setTimeout(() => void this.#pollStdio(), STDIO_POLL_MS);
  }

  async #guard(fn: () => Promise<void>): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (err) {
      this.say(err instanceof StorageError ? err.message : `Unexpected error: ${String(err)}`);
      return false;
    }
  }
}

function isStdioTarget(v: unknown): v is StdioTarget {
  const t = v as Partial<StdioTarget> | null;
  return typeof t === 'object' && t !== null && typeof t.id === 'string' && typeof t.name === 'string' && typeof t.url === 'string';
}
