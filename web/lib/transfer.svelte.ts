// Files in and out: import by picker or drop (a damaged file asks before importing the
// readable part), export of the session or the filtered view (HAR / JSONL, sanitised unless
// the user keeps secrets), findings as SARIF, an exchange copied as cURL or fetch, and the
// token keys. The worker does every bit of reading and writing; this only moves text.
//
// Import streams: the worker reads the File in pieces and stores batches as it goes; the
// page only shows progress (a bar with Cancel), shows a large file's session as soon as its
// first batch is stored, and re-reads the lists at the end. Cancel keeps what was stored
// (the worker names the session "(first N, cancelled)") and says so.
import { proxy } from 'comlink';
import type { Imported, ImportProgress, KeyInfo } from '../../worker/facade.js';
import type { Analysis } from './analysis-client.js';
import type { NoticeKind } from './notices.svelte.js';
import type { Sessions } from './sessions.svelte.js';
import { saveText } from './download.js';

/** A file that could not be imported whole, waiting for the user's answer. */
export interface PartialImport {
  fileName: string;
  file: Blob;
  message: string;
  skipped: { where: string; message: string }[];
  readable: number;
}

export type ExportScope = 'session' | 'filtered';

/** What the transfer state needs of the page: the worker, the sessions, the devtools view and the notices. */
export interface TransferHost {
  api(): Analysis | null;
  readonly sessions: Pick<Sessions, 'current' | 'viewing' | 'load' | 'refresh' | 'showNew'>;
  readonly view: { readonly rows: { readonly filter: string }; setKeys(keys: KeyInfo[]): void; reload(): Promise<void> };
  say(message: string, kind?: NoticeKind): void;
}

/** What the user reads after an import: how many came in, and the first few entries skipped and why. */
export function importReport(a: Imported, fileName: string): { text: string; kind: NoticeKind } {
  const skipped = a.skipped.length ? `; skipped ${a.skipped.length}: ${a.skipped.slice(0, 3).map((s) => `${s.where} (${s.message})`).join('; ')}` : '';
  return { text: `Imported ${a.count} exchanges from ${fileName}${skipped}.${a.notes.length ? ' ' + a.notes.join(' ') : ''}`, kind: a.skipped.length ? 'warning' : 'success' };
}

export class Transfer {
  #partial = $state.raw<PartialImport | null>(null);
  #busy = $state(false);
  #copied = $state.raw<{ kind: string; text: string } | null>(null);
  #keyError = $state<string | null>(null);
  #progress = $state.raw<(ImportProgress & { fileName: string; job: string }) | null>(null);
  readonly #app: TransferHost;

  constructor(app: TransferHost) {
    this.#app = app;
  }

  get partial(): PartialImport | null { return this.#partial; }
  get busy(): boolean { return this.#busy; }
  get copied(): { kind: string; text: string } | null { return this.#copied; }
  get keyError(): string | null { return this.#keyError; }
  /** The import under way: bytes read of the file, records stored. */
  get progress(): (ImportProgress & { fileName: string }) | null { return this.#progress; }

  /** Stops the import under way; what was stored is kept (see the header). */
  cancelImport(): void {
    const p = this.#progress;
    if (p) void this.#app.api()?.transfer.cancelImport(p.job);
  }

  /** Imports a HAR or JSONL file into a new session and shows it. */
  async importFile(file: File): Promise<void> {
    const api = this.#app.api();
    if (!api || this.#busy) return;
    this.#busy = true;
    try {
      await this.#import(file, file.name, false);
    } finally {
      this.#busy = false;
    }
  }

  /** The user's answer to "import the readable part?". */
  async answerPartial(yes: boolean): Promise<void> {
    const p = this.#partial;
    this.#partial = null;
    if (!p || !yes) {
      if (p) this.#app.say(`Nothing imported from ${p.fileName}.`, 'info');
      return;
    }
    this.#busy = true;
    try {
      await this.#import(p.file, p.fileName, true);
    } finally {
      this.#busy = false;
    }
  }

  async #import(file: Blob, fileName: string, allowPartial: boolean): Promise<void> {
    const api = this.#app.api();
    if (!api) return;
    const job = crypto.randomUUID();
    let shown: string | null = null;
    this.#progress = { fileName, job, read: 0, size: file.size, stored: 0, listed: 0 };
    const onProgress = (p: ImportProgress) => {
      this.#progress = { ...p, fileName, job };
      if (p.session && !shown) {
        shown = p.session.id;
        void this.#app.sessions.showNew(p.session);
      }
    };
    let got: Awaited<ReturnType<typeof api.transfer.importStream>>;
    try {
      got = await api.transfer.importStream(job, file, fileName, allowPartial, proxy(onProgress));
    } finally {
      this.#progress = null;
    }
    if (got.ok) {
      const a = got.value;
      if (a.cancelled) this.#app.say(`Import of ${fileName} cancelled: the first ${a.count} exchanges were kept, in session "${a.session.name}".`, 'info');
      else {
        const r = importReport(a, fileName);
        this.#app.say(r.text, r.kind);
      }
      if (shown === a.session.id && this.#app.sessions.viewing === shown) {
        await this.#app.sessions.load();
        await this.#app.sessions.refresh();
      } else {
        await this.#app.sessions.showNew(a.session);
      }
      return;
    }
    const a = got.error;
    if (a.kind === 'cancelled') {
      this.#app.say(`Import of ${fileName} cancelled; nothing was stored.`, 'info');
      return;
    }
    if (a.kind !== 'refused') {
      this.#app.say(`Import failed: ${a.message}`, 'error');
      return;
    }
    if (a.readable !== null && a.readable > 0) {
      this.#partial = { fileName, file, message: a.message, skipped: a.skipped, readable: a.readable };
      return;
    }
    this.#app.say(`${fileName} could not be imported: ${a.message}`, 'error');
  }

  /** Saves the session (or the filtered view) as HAR or JSONL. */
  async exportCapture(format: 'har' | 'jsonl', scope: ExportScope, keepSecrets: boolean): Promise<void> {
    const api = this.#app.api();
    const s = this.#app.sessions.current;
    if (!api || !s) return;
    const filter = scope === 'filtered' ? this.#app.view.rows.filter : '';
    const got = await api.transfer.exportCapture(s.id, { format, filter, keepSecrets, name: s.name });
    if (!got.ok) return this.#app.say(`Export failed: ${got.error.message}`, 'error');
    saveText(got.value.text, got.value.fileName, format === 'har' ? 'application/json' : 'application/x-ndjson');
  }

  async exportSarif(scope: ExportScope): Promise<void> {
    const api = this.#app.api();
    const s = this.#app.sessions.current;
    if (!api || !s) return;
    const got = await api.transfer.exportSarif(s.id, { filter: scope === 'filtered' ? this.#app.view.rows.filter : '', name: s.name });
    if (!got.ok) return this.#app.say(`Export failed: ${got.error.message}`, 'error');
    saveText(got.value.text, got.value.fileName, 'application/sarif+json');
  }

  /** Copies the exchange's request as cURL or fetch (sanitised), and shows what was copied.
   *  For a stdio exchange the worker answers with a shell pipe and the JSON-RPC line, and
   *  `label` names them so. */
  async copyAs(exchangeId: string, kind: 'curl' | 'fetch', label: string = kind === 'curl' ? 'cURL' : 'fetch'): Promise<void> {
    const api = this.#app.api();
    const s = this.#app.sessions.viewing;
    if (!api || !s) return;
    const got = await api.transfer.copyAs(s, exchangeId, kind);
    if (!got.ok) return this.#app.say(got.error.message);
    if (got.value === null) return;
    this.#copied = { kind: label, text: got.value };
    try {
      await navigator.clipboard.writeText(got.value);
    } catch {
      // No clipboard permission: the text stays shown, selectable.
    }
  }

  /** Copies plain text (a URL) and shows what was copied, as copyAs does. */
  async copyText(kind: string, text: string): Promise<void> {
    this.#copied = { kind, text };
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard permission: the text stays shown, selectable.
    }
  }

  dismissCopied(): void { this.#copied = null; }

  /** Sets the key for a server; the views re-read so `verified` shows at once. */
  async setKey(server: string, text: string, remember: boolean): Promise<boolean> {
    const api = this.#app.api();
    if (!api) return false;
    const r = await api.keys.set(server, text, remember);
    this.#app.view.setKeys(r.ok ? r.value : r.error.keys);
    this.#keyError = r.ok ? null : r.error.message;
    await this.#app.view.reload();
    return r.ok;
  }
}
