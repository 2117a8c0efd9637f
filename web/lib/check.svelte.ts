// "Check this server" as page state: the tools the check leaves out unless ticked, the ticks,
// the running check's progress, Stop, the report, and its downloads. The worker runs the
// check (services/check.ts, the CLI's engine) over the Console's link; this class only holds
// what the panel shows.
import { proxy } from 'comlink';
import type { CatalogTool, CheckFormat, CheckGuardedTool, CheckProgressView, CheckView } from '../../worker/facade.js';
import type { ConsoleHost } from './console-host.js';
import { saveText } from './download.js';

export class CheckState {
  #guarded = $state.raw<CheckGuardedTool[]>([]);
  #allowed = $state.raw<ReadonlySet<string>>(new Set());
  #progress = $state.raw<CheckProgressView | null>(null);
  #view = $state.raw<CheckView | null>(null);
  #running = $state(false);
  #stopping = $state(false);
  #budget = $state.raw<{ maxCalls: number; maxTimeMs: number; concurrency: number; maxWaitMs: number } | null>(null);
  /** The catalog the ticks were made for: a new connect starts them over. */
  #forTools: readonly CatalogTool[] | null = null;
  readonly #host: ConsoleHost;

  constructor(host: ConsoleHost) { this.#host = host; }

  /** Tools not marked read-only: skipped unless ticked. */
  get guarded(): CheckGuardedTool[] { return this.#guarded; }
  isAllowed(name: string): boolean { return this.#allowed.has(name); }
  get progress(): CheckProgressView | null { return this.#progress; }
  get view(): CheckView | null { return this.#view; }
  get running(): boolean { return this.#running; }
  get stopping(): boolean { return this.#stopping; }
  /** The budget every check runs with (the CLI's defaults), once read. */
  get budget() { return this.#budget; }

  /** Reads which of the connected server's tools need a tick (once per catalog). */
  async prepare(tools: readonly CatalogTool[]): Promise<void> {
    if (tools === this.#forTools) return;
    this.#forTools = tools;
    this.#allowed = new Set();
    const api = await this.#host.api();
    if (!api) return;
    this.#budget ??= await api.check.defaults();
    this.#guarded = await api.check.guarded(tools.map((t) => ({ name: t.name, ...(t.annotations ? { annotations: t.annotations } : {}) })));
  }

  allow(name: string, on: boolean): void {
    const next = new Set(this.#allowed);
    if (on) next.add(name);
    else next.delete(name);
    this.#allowed = next;
  }

  /** Runs the check against the Console's endpoint; the traffic goes to the capture session. */
  async start(endpoint: string): Promise<void> {
    if (this.#running) return;
    const api = await this.#host.api();
    if (!api) return;
    this.#running = true;
    this.#stopping = false;
    this.#view = null;
    this.#progress = { calls: 0, maxCalls: this.#budget?.maxCalls ?? 0, target: 'server/discover' };
    try {
      const got = await api.check.start(endpoint, { allow: [...this.#allowed] }, proxy((p: CheckProgressView) => { if (this.#running) this.#progress = p; }));
      if (!got.ok) { this.#host.say(`Check: ${got.error.message}`); return; }
      this.#view = got.value;
      await this.#host.filed();
    } catch (err) {
      this.#host.say(`Check: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.#running = false;
      this.#stopping = false;
      this.#progress = null;
    }
  }

  /** Stops sending; the check ends with what it has. */
  async stop(): Promise<void> {
    const api = await this.#host.api();
    if (!api || !this.#running) return;
    this.#stopping = true;
    await api.check.stop();
  }

  /** Saves the report as the CLI writes it. */
  async download(format: CheckFormat): Promise<void> {
    const api = await this.#host.api();
    const r = await api?.check.export(format);
    if (r) saveText(r.text, r.fileName, r.type);
  }
}
