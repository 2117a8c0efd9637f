// The page's state: the service worker link, watched targets, and the live lists that
// the analysis worker computes. Views read the getters and call the verbs.
//
// Race, written down: capture notices can arrive before the first list load finishes,
// and several arrive per exchange. Ids are collected into a set and flushed by one
// refresh at a time; a notice during a refresh schedules exactly one more.
import type { ConversationSummary, ExchangeSummary } from '../../worker/facade.js';
import { CaptureStore, StorageError, type SessionRecord, type TargetRecord } from '../../worker/storage/index.js';
import { CAPTURE_CHANNEL, type CaptureNotice } from '../sw/messages.js';
import { startAnalysisWorker, type Analysis } from './analysis-client.js';
import { callTool, DEMO_ENDPOINT, DEMO_TOOL } from './demo-call.js';
import { SwLink } from './sw-link.js';
import { RELAY_FORWARD } from '../sw/watch-list.js';

export type CaptureStatus = 'starting' | 'capturing' | 'failed';
const LIST_LIMIT = 200;
const RELAY_TARGETS = '/relay/api/targets';

export class Inspector {
  #status = $state<CaptureStatus>('starting');
  #notices = $state<string[]>([]);
  #targets = $state.raw<TargetRecord[]>([]);
  #exchanges = $state.raw<ExchangeSummary[]>([]);
  #conversations = $state.raw<ConversationSummary[]>([]);
  #session = $state.raw<SessionRecord | null>(null);
  #lastCall = $state<string | null>(null);

  readonly #store = new CaptureStore();
  #link: SwLink | null = null;
  #analysis: { api: Analysis; terminate: () => void } | null = null;
  #channel: BroadcastChannel | null = null;
  #pending = new Set<string>();
  #refreshing: Promise<void> | null = null;
  #again = false;

  get status(): CaptureStatus { return this.#status; }
  get notices(): readonly string[] { return this.#notices; }
  get targets(): readonly TargetRecord[] { return this.#targets; }
  get exchanges(): readonly ExchangeSummary[] { return this.#exchanges; }
  get conversations(): readonly ConversationSummary[] { return this.#conversations; }
  get session(): SessionRecord | null { return this.#session; }
  get lastCall(): string | null { return this.#lastCall; }

  async start(): Promise<void> {
    this.#analysis = startAnalysisWorker();
    this.#channel = new BroadcastChannel(CAPTURE_CHANNEL);
    this.#channel.onmessage = (e: MessageEvent<CaptureNotice>) => this.#onNotice(e.data);
    try {
      this.#session = await this.#store.currentSession();
      this.#targets = await this.#store.listTargets();
      void this.refresh();
      void this.#syncRelay(this.#targets);
      const { link, notice } = await SwLink.start();
      this.#link = link;
      if (notice) this.#say(notice);
      this.#status = 'capturing';
    } catch (err) {
      this.#status = 'failed';
      this.#say(err instanceof Error ? err.message : String(err));
    }
  }

  dispose(): void {
    this.#channel?.close();
    this.#analysis?.terminate();
    this.#store.close();
  }

  async addTarget(url: string, viaRelay = false): Promise<boolean> {
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    } catch {
      this.#say(`"${url}" is not an http(s) URL; enter the MCP endpoint, e.g. http://localhost:3000/mcp.`);
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

  /** POSTs a `tools/call` to the embedded demo server, or to a watched target. */
  async call(target?: TargetRecord, tool: string = DEMO_TOOL): Promise<void> {
    const url = !target ? DEMO_ENDPOINT : target.viaRelay ? `${RELAY_FORWARD}${encodeURIComponent(target.id)}` : target.url;
    this.#lastCall = `${tool} → …`;
    this.#lastCall = (await callTool(url, tool)).summary;
  }

  dismiss(index: number): void {
    this.#notices = this.#notices.filter((_, i) => i !== index);
  }

  /** Re-reads the lists from the analysis worker, folding in noticed changes. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#refreshOnce().finally(() => {
      this.#refreshing = null;
      if (this.#again) {
        this.#again = false;
        void this.refresh();
      }
    });
    return this.#refreshing;
  }

  async #refreshOnce(): Promise<void> {
    const api = this.#analysis?.api;
    const session = this.#session?.id;
    if (!api || !session) return;
    const ids = [...this.#pending];
    this.#pending.clear();
    if (ids.length) {
      const c = await api.changed(session, ids);
      if (!c.ok) this.#say(c.error.message);
    }
    const ex = await api.exchanges(session, { offset: -LIST_LIMIT, limit: LIST_LIMIT });
    if (ex.ok) this.#exchanges = ex.value.items;
    else this.#say(ex.error.message);
    const conv = await api.conversations(session);
    if (conv.ok) this.#conversations = conv.value;
    else this.#say(conv.error.message);
  }

  #onNotice(n: CaptureNotice): void {
    if (n.type === 'storage-error') this.#say(`Capture not saved: ${n.error.message}`);
    if (n.id) this.#pending.add(n.id);
    void this.refresh();
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
        this.#say(`The relay refused the target list (HTTP ${res.status}): ${(await res.text()).slice(0, 300)}`);
      }
    } catch {
      // No relay reachable: only "via relay" targets need it, and their calls will say so.
    }
  }

  async #guard(fn: () => Promise<void>): Promise<boolean> {
    try {
      await fn();
      return true;
    } catch (err) {
      this.#say(err instanceof StorageError ? err.message : `Unexpected error: ${String(err)}`);
      return false;
    }
  }

  #say(message: string): void {
    this.#notices = [...this.#notices, message];
  }
}
