// The Console's other tools as page state: edit-and-resend of a captured request (it
// replaces the stand-in editor), tamper tests, and session replay. The worker parses the
// draft, sends through the page's fetch, judges and diffs; these classes hold the views.
import type { Answer, DraftChange, DraftError, ReplayView, ResendView, TamperTest, TamperView } from '../../worker/facade.js';
import type { ConsoleHost } from './console-host.js';
import { saveText } from './download.js';

type Api = NonNullable<Awaited<ReturnType<ConsoleHost['api']>>>;

async function run(host: ConsoleHost, fn: (api: Api) => Promise<void>): Promise<void> {
  const api = await host.api();
  if (!api) return;
  try {
    await fn(api);
  } catch (err) {
    host.say(`Console: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Edit and re-send: the raw draft (headers + JSON body), its diff against the original, the answer. */
export class Resend {
  #draft = $state.raw<{ url: string; from: string; original: string } | null>(null);
  #ids = $state.raw<{ captured: string | number | null; fresh: string | number } | null>(null);
  #keepId = $state(false);
  #url = $state('');
  #viaRelay = $state(false);
  #text = $state('');
  #error = $state.raw<DraftError | null>(null);
  #changes = $state.raw<DraftChange[]>([]);
  #result = $state.raw<ResendView | null>(null);
  #busy = $state(false);
  #ticket = 0;
  readonly #host: ConsoleHost;

  constructor(host: ConsoleHost) { this.#host = host; }

  get draft() { return this.#draft; }
  /** Where the re-send goes (editable: point a captured round at a local server). */
  get url(): string { return this.#url; }
  get viaRelay(): boolean { return this.#viaRelay; }
  /** Whether the draft keeps the captured JSON-RPC id (off: a fresh id, as a real client sends). */
  get keepId(): boolean { return this.#keepId; }
  get ids() { return this.#ids; }
  setUrl(url: string): void { this.#url = url; }
  setViaRelay(on: boolean): void { this.#viaRelay = on; }

  /** Switches the draft's id between the captured one and the fresh one. */
  setKeepId(keep: boolean): Promise<void> {
    const ids = this.#ids;
    if (!ids || ids.captured === null) return Promise.resolve();
    return run(this.#host, async (api) => {
      const text = await api.console.resendWithId(this.#text, keep ? ids.captured! : ids.fresh);
      if (text === null) { this.#host.say('Fix the draft first: its body must parse before the id can be changed.'); return; }
      this.#keepId = keep;
      this.setText(text);
    });
  }
  get text(): string { return this.#text; }
  get error(): DraftError | null { return this.#error; }
  get changes(): DraftChange[] { return this.#changes; }
  get result(): ResendView | null { return this.#result; }
  get busy(): boolean { return this.#busy; }

  /** Opens a captured exchange for editing. */
  edit(exchangeId: string): Promise<void> {
    return run(this.#host, async (api) => {
      const got = await api.console.resendDraft(exchangeId);
      if (!got.ok) { this.#host.say(`Cannot edit: ${got.error.message}`); return; }
      const d = got.value;
      this.#draft = { url: d.url, from: d.from, original: d.original };
      this.#ids = d.ids;
      this.#keepId = false;
      this.#url = d.url;
      this.#viaRelay = false;
      this.#result = null;
      this.#error = null;
      this.#changes = [];
      this.setText(d.text);
    });
  }

  /** Each keystroke: parse and diff in the worker (the latest answer wins). */
  setText(text: string): void {
    this.#text = text;
    const d = this.#draft;
    if (!d) return;
    const ticket = ++this.#ticket;
    void run(this.#host, async (api) => {
      const c = await api.console.resendCheck(d.original, text);
      if (ticket !== this.#ticket) return;
      this.#error = c.error;
      this.#changes = c.changes;
    });
  }

  cancel(): void { this.#draft = null; this.#result = null; }

  /** Sends the draft as edited (Ctrl+Enter). */
  send(): Promise<void> {
    const d = this.#draft;
    if (!d || this.#busy) return Promise.resolve();
    this.#busy = true;
    return run(this.#host, async (api) => {
      // The captured URL is the capture's choice; one the user typed over it is theirs.
      const typed = this.#url.trim();
      const url = await this.#host.endpoint(typed, this.#viaRelay, typed === d.url);
      if (!url) return;
      const ids = this.#ids;
      // A URL changed by hand makes it an edit; the fresh id offered is rolled after each send.
      const target = { ...d, url, moved: this.#url.trim() !== d.url, ...(ids && !this.#keepId ? { fresh: ids.fresh } : {}) };
      const r = await api.console.resend(target, this.#text);
      if (!r.ok) { this.#error = r.error; return; }
      this.#result = r.value;
      const next = r.value.next;
      if (next && ids) {
        this.#ids = { ...ids, fresh: next.id };
        this.setText(next.text);
      }
      await this.#host.filed();
    }).finally(() => { this.#busy = false; });
  }

  /** `r`: sends a captured request again, unchanged but for a fresh JSON-RPC id (a new
   *  exchange derived from it; a real client never re-uses an id). */
  async replay(exchangeId: string): Promise<void> {
    await this.edit(exchangeId);
    if (!this.#draft) return;
    await this.send();
  }
}

type OtherTarget = { params: Record<string, unknown> };
type TamperSource = { kind: 'step'; round: number } | { kind: 'capture'; roundId: string; retryId: string | null };

/** Tamper tests on a round that carries a token. */
export class Tamper {
  #view = $state.raw<TamperView | null>(null);
  #busy = $state<string | null>(null);
  #error = $state<string | null>(null);
  #source: TamperSource | null = null;
  #other = $state.raw<OtherTarget | null>(null);
  /** The last plan asked for, settled once it is made and filed: the next one waits for it. */
  #planned: Promise<void> = Promise.resolve();
  readonly #host: ConsoleHost;

  constructor(host: ConsoleHost) { this.#host = host; }

  get view(): TamperView | null { return this.#view; }
  get busy(): string | null { return this.#busy; }
  get error(): string | null { return this.#error; }
  /** The other tool the token is presented on (and whose call gives another chain's token). */
  get other(): OtherTarget | null { return this.#other; }
  /** The other tool can be named now: nothing runs, or only a plan (the new plan waits for it). */
  get retargetable(): boolean { return this.#busy === null || this.#busy === 'planning'; }

  fromStep(round: number, other?: OtherTarget): Promise<void> {
    return this.#plan({ kind: 'step', round }, other);
  }
  fromCapture(roundId: string, retryId: string | null, other?: OtherTarget): Promise<void> {
    return this.#plan({ kind: 'capture', roundId, retryId }, other);
  }

  /**
   * Names the other tool of the same server (a captured round knows no catalog): plans the
   * tests again on the same round, so "another tool" and "another chain's token" can run.
   */
  retarget(name: string, argumentsJson: string): Promise<void> {
    const source = this.#source;
    if (!source) return Promise.resolve();
    let args: unknown;
    try {
      args = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
    } catch {
      args = null;
    }
    if (!name.trim() || !args || typeof args !== 'object' || Array.isArray(args)) {
      this.#error = !name.trim() ? 'Name the other tool to present the token on.' : 'The other tool\'s arguments must be a JSON object, e.g. {"action": "x"}.';
      return Promise.resolve();
    }
    return this.#plan(source, { params: { name: name.trim(), arguments: args } });
  }

  // One plan at a time, in the order asked: the worker runs the last plan it made, and the
  // other tool is often named while the round's first plan is still being filed (its tests
  // are on screen by then), so that plan must not land after the one naming the tool.
  #plan(source: TamperSource, other?: OtherTarget): Promise<void> {
    this.#source = source;
    this.#other = other ?? null;
    const made = this.#planned.then(() => this.#do('planning', async (api) => this.#take(source.kind === 'step'
      ? await api.tamper.fromStep(source.round, other)
      : await api.tamper.fromCapture(source.roundId, source.retryId, other))));
    this.#planned = made.catch(() => undefined);
    return made;
  }
  run(test: TamperTest, wait = false): Promise<void> {
    if (wait) {
      // The scheduled re-send waits in the worker; the list shows it waiting meanwhile.
      const v = this.#view;
      if (v) this.#view = { ...v, tests: v.tests.map((t) => (t.test === test ? { ...t, state: 'waiting' } : t)) };
      return run(this.#host, async (api) => { this.#view = await api.tamper.run(test, true); await this.#host.filed(); });
    }
    return this.#do(test, async (api) => { this.#view = await api.tamper.run(test); });
  }
  runAll(): Promise<void> {
    return this.#do('all', async (api) => { this.#view = await api.tamper.runAll(); });
  }
  exportReport(format: 'json' | 'md'): Promise<void> {
    return run(this.#host, async (api) => {
      const r = await api.tamper.export(format);
      if (r) saveText(r.text, r.fileName, format === 'json' ? 'application/json' : 'text/markdown');
    });
  }

  #take(v: Answer<TamperView>): void {
    if (!v.ok) { this.#error = v.error.message; return; }
    this.#error = null;
    this.#view = v.value;
  }

  async #do(label: string, fn: (api: Api) => Promise<void>): Promise<void> {
    this.#busy = label;
    try {
      await run(this.#host, fn);
      await this.#host.filed();
    } finally {
      this.#busy = null;
    }
  }
}

/** Session replay against a target, with an editable ignore list. */
export class Replay {
  #target = $state('/demo/mcp');
  #viaRelay = $state(false);
  #filtered = $state(false);
  #sendCredentials = $state(false);
  #ignore = $state('');
  #view = $state.raw<ReplayView | null>(null);
  /** The capture session the shown results were replayed from. */
  #source: string | null = null;
  #busy = $state(false);
  readonly #host: ConsoleHost;

  constructor(host: ConsoleHost) { this.#host = host; }

  get target(): string { return this.#target; }
  get viaRelay(): boolean { return this.#viaRelay; }
  get filtered(): boolean { return this.#filtered; }
  /** Whether captured credentials go to a target of another origin too (off by default). */
  get sendCredentials(): boolean { return this.#sendCredentials; }
  get ignore(): string { return this.#ignore; }
  get view(): ReplayView | null { return this.#view; }
  get busy(): boolean { return this.#busy; }

  setTarget(url: string): void { this.#target = url; }
  setViaRelay(on: boolean): void { this.#viaRelay = on; }
  setFiltered(on: boolean): void { this.#filtered = on; }
  setSendCredentials(on: boolean): void { this.#sendCredentials = on; }
  setIgnore(text: string): void { this.#ignore = text; }

  /** Fills the ignore list with the defaults (ids, tokens, timestamps) once. */
  async loadDefaults(): Promise<void> {
    if (this.#ignore !== '') return;
    await run(this.#host, async (api) => { this.#ignore = (await api.replay.defaults()).join('\n'); });
  }

  /** Replays the session on screen (or its filtered view) against the target. */
  async run(session: string | null, filter: string): Promise<void> {
    if (!session || this.#busy) return;
    this.#busy = true;
    try {
      await run(this.#host, async (api) => {
        const target = await this.#host.endpoint(this.#target, this.#viaRelay);
        if (!target) return;
        const ignore = this.#ignore.split('\n').map((s) => s.trim()).filter(Boolean);
        const opts: { target: string; ignore: string[]; filter?: string; sendCredentials: boolean } = { target, ignore, sendCredentials: this.#sendCredentials, ...(this.#filtered && filter.trim() ? { filter } : {}) };
        const got = await api.replay.run(session, opts);
        if (!got.ok) { this.#host.say(got.error.message); return; }
        this.#view = got.value;
        this.#source = session;
        await this.#host.filed();
      });
    } finally {
      this.#busy = false;
    }
  }

  /**
   * Drops the results when the page moves to another session: they describe the session
   * they were replayed from. Opening the replay's own session (Inspect) keeps them.
   */
  follow(session: string | null): void {
    const v = this.#view;
    if (v && session !== this.#source && session !== v.session?.id) this.#view = null;
  }

  /** Selects a replayed conversation's recorded call in the session it was replayed from. */
  showRecorded(conversation: string): Promise<void> {
    return this.#source ? this.#host.select(this.#source, conversation) : Promise.resolve();
  }

  /** Opens the replay's own capture session in the devtools. */
  inspect(): Promise<void> {
    const s = this.#view?.session;
    return s ? this.#host.show(s.id) : Promise.resolve();
  }
}
