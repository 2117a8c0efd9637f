// "Serve as mock" (docs/guide.md, "Serve a capture as a mock"): the session on screen, with
// the answers the user edited, handed to the relay as a capture (the worker exports it as
// JSONL, edits applied, secrets removed), served as target mock-<name> with its answers as
// late as recorded or at once (the timing, as `mock --timing`), strict or not (as
// `mock --strict`); the mocks served now,
// each with its relay URL, summary and mismatches (re-read every MOCK_POLL_MS while the sheet
// is open); "Stop serving"; and the edited capture saved as JSONL or HAR.
//
// Edits belong to one session: showing another session starts a fresh set.
import type { MockTiming } from '../../worker/mock/http-answer.js';
import type { Analysis } from './analysis-client.js';
import { saveText } from './download.js';
import type { NoticeKind } from './notices.svelte.js';
import type { Sessions } from './sessions.svelte.js';

export const MOCKS_API = '/relay/api/mocks';
export const MOCK_POLL_MS = 1500;
const NONE: ReadonlyMap<string, string> = new Map();
/** The timing a mock is served with unless the user picks another: the CLI's default (a
 *  unit test holds the two equal). */
export const PAGE_MOCK_TIMING: MockTiming = 'recorded';

/** A mock the relay serves, as its page API lists it (server/relay/mock-host.ts). */
export interface MockInfo {
  name: string;
  targetId: string;
  source: string;
  timing: MockTiming;
  strict: boolean;
  relayUrl: string;
  summary: { calls: number; used: number; partlyUsed: { call: string; rounds: string }[]; unused: string[]; answered: number; mismatches: string[]; warnings: string[] };
  mismatches: { message: string; reason: string; closest: string | null; diff: string | null }[];
}

export interface MockServeHost {
  api(): Analysis | null;
  readonly sessions: Pick<Sessions, 'current' | 'exchanges'>;
  say(message: string, kind?: NoticeKind): void;
}

/** A mock name from a session's name: letters, digits, ".", "_" and "-", at most 40. */
export function mockNameFor(sessionName: string): string {
  const name = sessionName.toLowerCase().replace(/\.(har|jsonl|json|ndjson)$/, '').replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 40);
  return name || 'session';
}

async function errorOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    return text.slice(0, 300) || `HTTP ${res.status}`;
  }
}

export class MockServe {
  #open = $state(false);
  #mocks = $state.raw<MockInfo[]>([]);
  #name = $state('');
  #timing = $state<MockTiming>(PAGE_MOCK_TIMING);
  #strict = $state(false);
  #busy = $state(false);
  #error = $state<string | null>(null);
  #edits = $state.raw<ReadonlyMap<string, string>>(new Map());
  #editSession = $state<string | null>(null);
  #picked = $state<string | null>(null);
  #draft = $state('');
  #draftError = $state<string | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #host: MockServeHost;

  constructor(host: MockServeHost) {
    this.#host = host;
  }

  get isOpen(): boolean { return this.#open; }
  get mocks(): readonly MockInfo[] { return this.#mocks; }
  get name(): string { return this.#name; }
  /** When the next mock served answers: as late as recorded, or at once. */
  get timing(): MockTiming { return this.#timing; }
  /** Whether the next mock served refuses a retry that does not echo its token, or answers a
   *  key never asked (otherwise it serves it and counts a warning). */
  get strict(): boolean { return this.#strict; }
  get busy(): boolean { return this.#busy; }
  /** Why the last serve or stop failed, as the relay said it. */
  get error(): string | null { return this.#error; }
  /** Edited answers of the session on screen, by exchange id. */
  get edits(): ReadonlyMap<string, string> { return this.#stale ? NONE : this.#edits; }
  get picked(): string | null { return this.#stale ? null : this.#picked; }
  get draft(): string { return this.#stale ? '' : this.#draft; }
  get draftError(): string | null { return this.#stale ? null : this.#draftError; }

  // Read-only (getters run in templates): the edits held belong to another session.
  get #stale(): boolean { return this.#editSession !== (this.#host.sessions.current?.id ?? null); }

  setName(name: string): void { this.#name = name; }
  setTiming(timing: MockTiming): void { this.#timing = timing; }
  setStrict(strict: boolean): void { this.#strict = strict; }
  setDraft(text: string): void { this.#draft = text; this.#draftError = null; }

  open(): void {
    this.#sameSession();
    this.#name = mockNameFor(this.#host.sessions.current?.name ?? 'session');
    this.#error = null;
    this.#open = true;
    void this.#poll();
  }

  close(): void {
    this.#open = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Picks an exchange to edit: its edited answer, or the recorded one. */
  async pick(exchangeId: string): Promise<void> {
    const session = this.#sameSession();
    this.#picked = exchangeId || null;
    this.#draftError = null;
    if (!exchangeId || !session) return void (this.#draft = '');
    const edited = this.#edits.get(exchangeId);
    if (edited !== undefined) return void (this.#draft = edited);
    const got = await this.#host.api()?.transfer.answerOf(session, exchangeId);
    if (!got || this.#picked !== exchangeId) return;
    if (!got.ok) return void (this.#draftError = got.error.message);
    if ('error' in got.value) {
      this.#draft = '';
      this.#draftError = got.value.error;
    } else this.#draft = got.value.text;
  }

  /** Checks the draft and keeps it as the picked exchange's answer; false (with the error shown) when it does not check. */
  async applyEdit(): Promise<boolean> {
    const session = this.#sameSession();
    const id = this.#picked;
    if (!session || !id) return false;
    const got = await this.#host.api()?.transfer.checkEdit(session, id, this.#draft);
    if (!got) return false;
    const problem = got.ok ? got.value : got.error.message;
    if (problem !== null) {
      this.#draftError = problem;
      return false;
    }
    this.#edits = new Map([...this.#edits, [id, this.#draft]]);
    return true;
  }

  /** Drops the edit of one exchange (its recorded answer is served again). */
  undoEdit(exchangeId: string): void {
    const next = new Map(this.#edits);
    next.delete(exchangeId);
    this.#edits = next;
    if (this.#picked === exchangeId) void this.pick(exchangeId);
  }

  /** Serves the session on screen, with its edits, as mock-<name>. */
  async serve(): Promise<void> {
    const session = this.#sameSession();
    const api = this.#host.api();
    const s = this.#host.sessions.current;
    if (!session || !api || !s || this.#busy) return;
    this.#busy = true;
    this.#error = null;
    try {
      const got = await api.transfer.exportCapture(session, { format: 'jsonl', name: s.name, edits: this.#editList() });
      if (!got.ok) return void (this.#error = `The session could not be exported for the mock: ${got.error.message}`);
      const res = await fetch(MOCKS_API, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: this.#name, capture: got.value.text, source: s.name, timing: this.#timing, strict: this.#strict }) });
      if (!res.ok) return void (this.#error = res.status === 404 ? 'No relay here: "Serve as mock" needs the inspector server (npm start or mrtr-inspector).' : await errorOf(res));
      const { mock } = (await res.json()) as { mock: MockInfo };
      this.#host.say(`Serving "${s.name}"${this.#edits.size ? ` with ${this.#edits.size} edited answer(s)` : ''} as ${mock.targetId}.`, 'success');
      await this.refresh();
    } finally {
      this.#busy = false;
    }
  }

  /** Stops serving mock `name`. */
  async stop(name: string): Promise<void> {
    const res = await fetch(`${MOCKS_API}/${encodeURIComponent(name)}`, { method: 'DELETE' });
    this.#error = res.ok ? null : await errorOf(res);
    await this.refresh();
  }

  /** Saves the session on screen with its edits as HAR or JSONL (sanitised, as Export does). */
  async save(format: 'har' | 'jsonl'): Promise<void> {
    const session = this.#sameSession();
    const api = this.#host.api();
    const s = this.#host.sessions.current;
    if (!session || !api || !s) return;
    const got = await api.transfer.exportCapture(session, { format, name: `${s.name}-edited`, edits: this.#editList() });
    if (!got.ok) return this.#host.say(`Export failed: ${got.error.message}`, 'error');
    saveText(got.value.text, got.value.fileName, format === 'har' ? 'application/json' : 'application/x-ndjson');
  }

  /** Re-reads the served mocks. */
  async refresh(): Promise<void> {
    try {
      const res = await fetch(MOCKS_API, { cache: 'no-store' });
      if (res.ok) this.#mocks = ((await res.json()) as { mocks: MockInfo[] }).mocks;
    } catch {
      // The relay is gone: the list stays as it was, and the next poll tries again.
    }
  }

  async #poll(): Promise<void> {
    await this.refresh();
    if (this.#open) this.#timer = setTimeout(() => void this.#poll(), MOCK_POLL_MS);
  }

  #editList(): { exchange: string; text: string }[] {
    return [...this.#edits].map(([exchange, text]) => ({ exchange, text }));
  }

  // The session the edits belong to; another session on screen starts a fresh set.
  #sameSession(): string | null {
    const id = this.#host.sessions.current?.id ?? null;
    if (id !== this.#editSession) {
      this.#editSession = id;
      if (this.#edits.size) this.#edits = new Map();
      this.#picked = null;
      this.#draft = '';
      this.#draftError = null;
    }
    return id;
  }
}
