// The Console's page state: which tab is open, the connection (URL, via relay, capability
// toggles, clientInfo), the server's catalog, the call being built, and the step-through
// view. Every answer from the worker is replaced wholesale ($state.raw); nothing here
// reads traffic: the worker builds requests, forms and previews.
import type { CallSpec, ClientSetup, FieldValue, FormModel, QuestionView, ServerCatalog, StepView, TaskView } from '../../worker/facade.js';
import type { ConsoleHost } from './console-host.js';

/** Validates an elicitation form in the worker; with no errors, the ElicitResult to send. */
export type FormChecker = (form: FormModel, values: Record<string, FieldValue>) => Promise<{ ok: boolean; errors: Record<string, string>; result?: Record<string, unknown> }>;

export type ConsoleTab = 'call' | 'edit' | 'tamper' | 'check' | 'replay' | 'traffic';
export type Target = { method: 'tools/call'; name: string } | { method: 'prompts/get'; name: string } | { method: 'resources/read'; uri: string };

export class ConsoleState {
  #tab = $state<ConsoleTab>('traffic');
  #url = $state('/demo/mcp');
  #viaRelay = $state(false);
  #endpoint = $state<string | null>(null);
  #setup = $state<ClientSetup>({
    toggles: { elicitationForm: true, elicitationUrl: true, sampling: true, samplingTools: false, roots: true },
    clientInfo: { name: 'mrtr-inspector-console', version: '0.1.0' },
  });
  #catalog = $state.raw<ServerCatalog | null>(null);
  #target = $state.raw<Target | null>(null);
  #values = $state<Record<string, FieldValue>>({});
  #raw = $state<string | null>(null);
  #argErrors = $state.raw<Record<string, string>>({});
  #step = $state.raw<StepView | null>(null);
  #fork = $state.raw<{ round: number; questions: QuestionView[]; answers: Record<string, Record<string, unknown>> } | null>(null);
  #task = $state.raw<TaskView | null>(null);
  #busy = $state<string | null>(null);
  readonly #host: ConsoleHost;

  constructor(host: ConsoleHost) {
    this.#host = host;
  }

  get tab(): ConsoleTab { return this.#tab; }
  get url(): string { return this.#url; }
  get viaRelay(): boolean { return this.#viaRelay; }
  get endpoint(): string | null { return this.#endpoint; }
  get setup(): ClientSetup { return this.#setup; }
  get catalog(): ServerCatalog | null { return this.#catalog; }
  get target(): Target | null { return this.#target; }
  get values(): Record<string, FieldValue> { return this.#values; }
  get raw(): string | null { return this.#raw; }
  get argErrors(): Record<string, string> { return this.#argErrors; }
  get step(): StepView | null { return this.#step; }
  get fork(): { round: number; questions: QuestionView[]; answers: Record<string, Record<string, unknown>> } | null { return this.#fork; }
  get busy(): string | null { return this.#busy; }
  /** The task the Console drives (tasks extension), if one was started. */
  get task(): TaskView | null { return this.#task; }
  /** Auto mode (kept by the worker across calls). */
  get auto(): boolean { return this.#step?.auto ?? false; }
  get tool() { const t = this.#target; return t?.method === 'tools/call' ? this.#catalog?.tools.find((x) => x.name === t.name) ?? null : null; }

  show(tab: ConsoleTab): void { this.#tab = tab; }
  setUrl(url: string): void { this.#url = url; }
  setViaRelay(on: boolean): void { this.#viaRelay = on; }
  toggle(name: keyof ClientSetup['toggles'], on: boolean): void { this.#setup.toggles[name] = on; }
  setClientInfo(field: 'name' | 'version', value: string): void { this.#setup.clientInfo[field] = value; }

  /** Connect: `server/discover` and the lists. */
  async connect(): Promise<void> {
    await this.#run('connecting', async (api) => {
      const endpoint = await this.#host.endpoint(this.#url, this.#viaRelay);
      if (!endpoint) return;
      this.#endpoint = endpoint;
      this.#catalog = await api.console.catalog(endpoint, $state.snapshot(this.#setup));
      const first = this.#catalog.tools[0];
      if (first && !this.#target) this.choose({ method: 'tools/call', name: first.name });
    });
  }

  /** Picks what to call; a tool's argument form starts from its defaults. */
  choose(t: Target): void {
    this.#target = t;
    this.#raw = null;
    this.#argErrors = {};
    this.#values = t.method === 'tools/call' ? { ...(this.#catalog?.tools.find((x) => x.name === t.name)?.values ?? {}) } : {};
  }

  setValue(name: string, v: FieldValue): void { this.#values[name] = v; }
  setRaw(text: string | null): void { this.#raw = text; }

  /** Switches the arguments between the form and raw JSON (filled from the form). */
  toggleRaw(): void {
    if (this.#raw !== null) { this.#raw = null; return; }
    const clean = Object.fromEntries(Object.entries(this.#values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
    this.#raw = JSON.stringify(clean, null, 2);
  }

  /** Starts the call; it pauses at each input_required. */
  async start(): Promise<void> {
    await this.#call('calling', async (api, spec) => {
      this.#fork = null;
      this.#step = await api.console.start(spec);
    });
  }

  /** Calls the tool as a task (the tasks extension declared in this request's clientCapabilities). */
  async startTask(): Promise<void> {
    await this.#call('calling as a task', async (api, spec) => {
      // The task is the call now: a step-through left paused above it would be answered by mistake.
      this.#step = null;
      this.#fork = null;
      this.#task = await api.tasks.start(spec);
    });
  }
  /** One poll, or polls until the task asks for input or ends. */
  taskPoll(untilSettled: boolean): Promise<void> {
    return this.#run('polling', async (api) => { this.#task = await api.tasks.poll(untilSettled); });
  }
  taskAnswer(key: string, response: Record<string, unknown>): Promise<void> {
    return this.#run(null, async (api) => { this.#task = await api.tasks.answer(key, response); });
  }
  /** Sends the answers given so far in one tasks/update. */
  taskSubmit(): Promise<void> {
    return this.#run('updating', async (api) => { this.#task = await api.tasks.submit(); });
  }
  taskCancel(): Promise<void> {
    return this.#run('cancelling', async (api) => { this.#task = await api.tasks.cancel(); });
  }
  taskKeyTest(kind: 'twice' | 'unknown' | 'reuse'): Promise<void> {
    return this.#run('key test', async (api) => { this.#task = await api.tasks.keyTest(kind); });
  }

  // The call as the form and target stand: shared by a plain call and a call as a task.
  async #call(label: string, go: (api: NonNullable<Awaited<ReturnType<ConsoleHost['api']>>>, spec: CallSpec) => Promise<void>): Promise<void> {
    const t = this.#target;
    const endpoint = this.#endpoint;
    if (!t || !endpoint) { this.#host.say('Connect to a server and pick a tool, prompt or resource first.'); return; }
    await this.#run(label, async (api) => {
      const args = await this.#arguments(api);
      if (args === null) return;
      const params: Record<string, unknown> = t.method === 'resources/read' ? { uri: t.uri } : { name: t.name, arguments: args };
      const tool = this.tool;
      const spec: CallSpec = { url: endpoint, method: t.method, params, setup: $state.snapshot(this.#setup), ...(tool?.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}) };
      await go(api, spec);
    });
  }

  answer(key: string, response: Record<string, unknown>): Promise<void> {
    return this.#run(null, async (api) => { this.#step = await api.console.answer(key, response); });
  }
  editPreview(text: string): Promise<void> {
    return this.#run(null, async (api) => { this.#step = await api.console.editPreview(text); });
  }
  /** Sends the previewed retry (Ctrl+Enter). */
  send(): Promise<void> {
    if (!this.#step?.preview) return Promise.resolve();
    return this.#run('sending', async (api) => { this.#step = await api.console.send(); });
  }
  setAuto(on: boolean): Promise<void> {
    return this.#run(null, async (api) => { this.#step = await api.console.auto(on); });
  }
  /** Forgets the answers auto mode remembered (this visit's, and those kept across reloads). */
  forgetAnswers(): Promise<void> {
    return this.#run(null, async (api) => { this.#step = await api.console.forgetAnswers(); });
  }

  /** Opens the fork editor on retry `round`: its questions, pre-filled with what it sent. */
  openFork(round: number): Promise<void> {
    return this.#run(null, async (api) => {
      const questions = await api.console.forkQuestions(round);
      const answers: Record<string, Record<string, unknown>> = {};
      for (const q of questions) if (q.answer) answers[q.key] = q.answer;
      this.#fork = { round, questions, answers };
    });
  }
  forkAnswer(key: string, response: Record<string, unknown>): void {
    if (this.#fork) this.#fork = { ...this.#fork, answers: { ...this.#fork.answers, [key]: response } };
  }
  cancelFork(): void { this.#fork = null; }
  sendFork(): Promise<void> {
    const f = this.#fork;
    if (!f) return Promise.resolve();
    return this.#run('forking', async (api) => {
      this.#step = await api.console.fork(f.round, f.answers);
      // A refused fork (e.g. an invalid roots list) comes back with a message: keep the editor open to fix it.
      if (this.#step.message === undefined) this.#fork = null;
    });
  }

  async #arguments(api: NonNullable<Awaited<ReturnType<ConsoleHost['api']>>>): Promise<Record<string, unknown> | null> {
    if (this.#raw !== null) {
      try {
        const v = JSON.parse(this.#raw) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch { /* reported below */ }
      this.#argErrors = { _raw: 'the arguments must be a JSON object' };
      return null;
    }
    const form = this.tool?.form;
    if (!form) return this.#target?.method === 'prompts/get' ? Object.fromEntries(Object.entries(this.#values).filter(([, v]) => typeof v === 'string' && v !== '')) : {};
    const check = await api.console.checkForm(form, $state.snapshot(this.#values));
    this.#argErrors = check.errors;
    return check.ok ? check.content : null;
  }

  async #run(label: string | null, fn: (api: NonNullable<Awaited<ReturnType<ConsoleHost['api']>>>) => Promise<void>): Promise<void> {
    const api = await this.#host.api();
    if (!api) return;
    if (label) this.#busy = label;
    try {
      await fn(api);
      if (label) await this.#host.filed();
    } catch (err) {
      this.#host.say(`Console: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      if (label) this.#busy = null;
    }
  }
}
