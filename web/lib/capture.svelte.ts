// Capture status: whether capture runs (the service worker link is up), the record and
// preserve-log switches (kept in storage's settings, read by the service worker), and which
// session new traffic is recorded into. The service worker owns the recording itself; this
// only keeps the switches and tells it when they changed.
import type { CaptureStore } from '../../worker/storage/index.js';
import { guarded } from './guarded.js';
import type { SwLink } from './sw-link.js';

export type CaptureStatus = 'starting' | 'capturing' | 'failed';
/** The part of the service worker link this needs (the link itself is started by the page's root). */
export type ServiceWorkerLink = Pick<SwLink, 'ask'>;

export interface CaptureDeps {
  store: Pick<CaptureStore, 'currentSession' | 'getSetting' | 'setSetting' | 'createSession' | 'setCurrentSession'>;
  say: (message: string) => void;
}

export class Capture {
  #status = $state<CaptureStatus>('starting');
  #recording = $state(true);
  #preserveLog = $state(false);
  #session = $state<string | null>(null);
  #link: ServiceWorkerLink | null = null;
  readonly #deps: CaptureDeps;

  constructor(deps: CaptureDeps) {
    this.#deps = deps;
  }

  get status(): CaptureStatus { return this.#status; }
  get recording(): boolean { return this.#recording; }
  get preserveLog(): boolean { return this.#preserveLog; }
  /** The session new traffic is recorded into. */
  get session(): string | null { return this.#session; }

  /** Reads the session being captured into; answers its id. */
  async loadSession(): Promise<string> {
    const current = await this.#deps.store.currentSession();
    this.#session = current.id;
    return current.id;
  }

  /** Reads the switches: recording on and preserve log off unless the user changed them. */
  async loadSettings(): Promise<void> {
    this.#recording = (await this.#deps.store.getSetting('recording')) ?? true;
    this.#preserveLog = (await this.#deps.store.getSetting('preserveLog')) ?? false;
  }

  /** The service worker controls the page and passed the handshake: capture runs. */
  connected(link: ServiceWorkerLink, notice: string | null): void {
    this.#link = link;
    if (notice) this.#deps.say(notice);
    this.#status = 'capturing';
  }

  /** Capture could not start; the user reads why. */
  failed(message: string): void {
    this.#status = 'failed';
    this.#deps.say(message);
  }

  /** Tells the service worker a setting it reads changed; resolves once it re-read it (at once before it is linked). */
  async tell(type: 'targets-changed' | 'session-changed'): Promise<void> {
    await this.#link?.ask({ type });
  }

  /** The record toggle: the service worker stops (or resumes) recording watched traffic. */
  async setRecording(on: boolean): Promise<void> {
    const ok = await guarded(this.#deps.say, async () => {
      await this.#deps.store.setSetting('recording', on);
      await this.tell('targets-changed');
    });
    if (ok) this.#recording = on;
  }

  async setPreserveLog(on: boolean): Promise<void> {
    if (await guarded(this.#deps.say, () => this.#deps.store.setSetting('preserveLog', on))) this.#preserveLog = on;
  }

  /**
   * Records into a new session named `name` from now on (Clear with preserve log); answers
   * its id. A storage failure throws: the caller says it and keeps the screen as it was.
   */
  async startSession(name: string): Promise<string> {
    const s = await this.#deps.store.createSession(name);
    await this.#deps.store.setCurrentSession(s.id);
    await this.tell('session-changed');
    this.#session = s.id;
    return s.id;
  }
}
