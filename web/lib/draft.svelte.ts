// Replay and edit-and-resend of a captured request, sent through the page's own fetch so
// the service worker taps it like any other call. A stand-in until the Console issue's
// editor lands: the draft is the raw request (url, headers, body) and is sent as written.
import type { StoredExchange } from '../../worker/storage/index.js';

export interface RequestDraft {
  url: string;
  method: string;
  headers: [string, string][];
  body: string;
  from: string;
}

// Headers the browser sets itself (fetch refuses or ignores them).
const BROWSER_OWNED = /^(host|content-length|connection|keep-alive|transfer-encoding|accept-encoding|cookie|origin|referer|user-agent|sec-.*|proxy-.*)$/i;

export class Draft {
  #draft = $state<RequestDraft | null>(null);
  #last = $state<string | null>(null);
  readonly #say: (msg: string) => void;

  constructor(say: (msg: string) => void) {
    this.#say = say;
  }

  get draft(): RequestDraft | null { return this.#draft; }
  get last(): string | null { return this.#last; }

  /** Starts editing a copy of a captured request. */
  edit(r: StoredExchange): void {
    this.#draft = {
      url: r.request.url, method: r.request.method,
      headers: r.request.headers.filter((h) => !BROWSER_OWNED.test(h.name)).map((h) => [h.name, h.value]),
      body: r.request.body ?? '', from: r.id,
    };
  }

  setBody(body: string): void {
    if (this.#draft) this.#draft.body = body;
  }

  cancel(): void { this.#draft = null; }

  /** Sends the request again, unchanged. */
  replay(r: StoredExchange): Promise<void> {
    this.edit(r);
    const d = this.#draft!;
    this.#draft = null;
    return this.#send(d);
  }

  /** Sends the edited draft. */
  async send(): Promise<void> {
    const d = this.#draft;
    if (!d) return;
    this.#draft = null;
    await this.#send(d);
  }

  async #send(d: RequestDraft): Promise<void> {
    this.#last = `${d.method} ${d.url} → …`;
    try {
      const res = await fetch(d.url, { method: d.method, headers: d.headers, ...(d.method === 'GET' || d.method === 'HEAD' ? {} : { body: d.body }) });
      await res.text();
      this.#last = `${d.method} ${d.url} → HTTP ${res.status}`;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.#last = `${d.method} ${d.url} → failed`;
      this.#say(`Re-send failed: ${why} (a server that sends no CORS headers must be watched via the relay).`);
    }
  }
}
