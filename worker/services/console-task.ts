// The Console's task driving, held in the analysis worker: one task driver at a time over
// the page's transport, turned into a view the page renders without parsing anything (the
// outstanding requests as the same question cards MRTR rounds use). Its records are handed
// to `persist`, which files them where the sends were linked to (the capture session).
import type { ExchangeRecord } from '../protocol.js';
import {
  buildRequest, capabilitiesFrom, createTaskDriver, summarize, withTasksExtension, KEY_TEST_LABELS,
  type KeyTestKind, type TaskDriver, type TaskDriverState, type Transport,
} from '../console/index.js';
import { questionView, refuseAnswers } from './console-step.js';
import type { CallSpec, TaskView } from '../view/console-types.js';

export class ConsoleTask {
  #driver: TaskDriver | null = null;
  #url = '';
  #session: string | null = null;
  #persisted = new Set<string>();
  readonly #persist: (records: ExchangeRecord[]) => Promise<string | null>;

  constructor(persist: (records: ExchangeRecord[]) => Promise<string | null>) {
    this.#persist = persist;
  }

  /** Calls the tool as a task: the extension is declared in this request's clientCapabilities. */
  async start(spec: CallSpec, send: Transport, id: number): Promise<TaskView> {
    if (spec.method !== 'tools/call') return { ...this.view(), message: 'Only tools/call can run as a task (tasks:85-91): pick a tool.' };
    const client = { clientInfo: spec.setup.clientInfo, capabilities: capabilitiesFrom(spec.setup.toggles) };
    let next = id;
    this.#url = spec.url;
    this.#driver = createTaskDriver({ send, url: spec.url, client, ids: () => ++next });
    const call = buildRequest({
      method: 'tools/call', params: spec.params, id, clientInfo: client.clientInfo, capabilities: withTasksExtension(client.capabilities),
      ...(spec.inputSchema !== undefined ? { inputSchema: spec.inputSchema } : {}),
    });
    return this.#after(await this.#driver.start(call));
  }

  async poll(untilSettled: boolean): Promise<TaskView> {
    const d = this.#need();
    return this.#after(await (untilSettled ? d.pollUntilSettled() : d.poll()));
  }

  answer(key: string, response: Record<string, unknown>): Promise<TaskView> {
    const d = this.#need();
    const refused = refuseAnswers(d.state.outstanding, { [key]: response });
    if (refused) return Promise.resolve({ ...this.view(), message: refused });
    return this.#after(d.answer(key, response));
  }

  async submit(): Promise<TaskView> {
    return this.#after(await this.#need().submit());
  }

  async cancel(): Promise<TaskView> {
    return this.#after(await this.#need().cancel());
  }

  async keyTest(kind: KeyTestKind): Promise<TaskView> {
    return this.#after(await this.#need().keyTest(kind));
  }

  view(): TaskView {
    return toView(this.#driver?.state ?? null, this.#url, this.#session);
  }

  #need(): TaskDriver {
    if (!this.#driver) throw new Error('no task started: call a tool as a task first');
    return this.#driver;
  }

  async #after(s: TaskDriverState): Promise<TaskView> {
    const fresh = s.sends.map((x) => x.record).filter((r) => !this.#persisted.has(r.id));
    if (fresh.length) {
      for (const r of fresh) this.#persisted.add(r.id);
      this.#session = (await this.#persist(fresh)) ?? this.#session;
    }
    return this.view();
  }
}

function toView(s: TaskDriverState | null, url: string, session: string | null): TaskView {
  if (!s) return { phase: 'idle', rounds: 0, url, taskId: null, status: null, pollIntervalMs: null, timeline: [], polls: 0, questions: [], staged: [], answered: [], reusedKeys: [], sends: [], keyTests: [], session };
  return {
    phase: s.phase, rounds: s.rounds, url, taskId: s.taskId, status: s.status, pollIntervalMs: s.pollIntervalMs, timeline: s.timeline, polls: s.polls, session,
    ...(s.statusMessage !== undefined ? { statusMessage: s.statusMessage } : {}),
    questions: Object.entries(s.outstanding).map(([k, req]) => questionView(k, req, s.staged[k])),
    staged: Object.keys(s.staged),
    answered: Object.entries(s.answered).map(([key, answer]) => ({ key, answer: JSON.stringify(answer) })),
    reusedKeys: s.reusedKeys,
    ...(s.result ? { result: JSON.stringify(s.result, null, 2) } : {}),
    ...(s.error ? { error: `${s.error.code}: ${s.error.message}` } : {}),
    sends: s.sends.map((x) => ({ kind: x.kind, id: typeof x.id === 'string' || typeof x.id === 'number' ? x.id : null, method: methodOf(x.request.body), summary: summarize(x.reading), recordId: x.record.id })),
    keyTests: s.keyTests.map((t) => ({ ...t, label: KEY_TEST_LABELS[t.kind] })),
    ...(s.message !== undefined ? { message: s.message } : {}),
  };
}

function methodOf(body: string): string {
  try {
    const m = (JSON.parse(body) as { method?: unknown }).method;
    return typeof m === 'string' ? m : '';
  } catch {
    return '';
  }
}
