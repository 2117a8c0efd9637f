// The streaming import (transfer service): a file the page picked is read here in pieces
// (Blob.stream()), through the CLI's readers (importCaptureStream). Each batch read is laid
// into the session's model at once (whole) and written behind it in large transactions once
// the file is read (or 256 MiB of it wait) and the analysis has caught up, so a file is
// listed in the time its reading and threading take, not its storage's; its checks follow
// (nothing is checked while it is read: ServiceContext.reading). The page gets
// progress (bytes read, records listed and stored) and, once a large file's first batch is
// read, its session, so the first screen shows while the rest is still being read; the
// answer comes once everything is stored.
//
// Cancel keeps what was stored and says so: the session stays, named "<file> (first N,
// cancelled)", holding the first N records of the file, complete each (a batch is one
// transaction, so nothing is half-written). Cancel while the file is read stops the reading
// and writes what was read (what the user was already looking at). Cancel once it is read,
// while it is written, writes no more: the session is read back from storage, so it shows
// the N kept.
//
// Anything the streaming readers decline (a damaged or unusual file, skipped entries) is
// undone (the session and what it held are removed) and read whole by `importText`, the
// careful path with precise errors and the "import the readable part?" question.
import type { ExchangeRecord } from '../protocol.js';
import { decodedPieces, importCaptureStream } from '../capture/import-stream.js';
import { MAX_UNWRITTEN_BYTES } from '../capture/unwritten-budget.js';
import { StorageError, type CaptureStore, type StoredExchange } from '../storage/index.js';
import { SessionModel } from '../view/session-model.js';
import type { ImportAnswer, SessionInfo } from '../view/types.js';

/** What the page is told while a file is imported. */
export interface ImportProgress {
  /** Bytes of the file read so far, of `size`. */
  read: number;
  size: number;
  /** Records stored so far. */
  stored: number;
  /** Records read and listed so far (stored behind them). */
  listed: number;
  /** Set once the first batch is stored (large files only): the page may show it. */
  session?: SessionInfo;
}

export interface ImportDeps {
  store: CaptureStore;
  sessions: Map<string, Promise<SessionModel>>;
  /** The careful whole-text import (the transfer service's importText). */
  importText: (text: string, fileName: string, allowPartial: boolean) => Promise<ImportAnswer>;
  /** The session shown early changed: analyse it and tell the page. */
  touched?: (session: string) => void;
  /** Resolves once what was laid is listed (not necessarily checked): writes wait for it (the list comes first). */
  quiet?: () => Promise<void>;
  /** The file is being read: its records are listed first, checked once it is read. */
  reading?: () => () => void;
  /** How long a build of the imported session may check (ServiceContext.checkMs). */
  checkMs?: () => number | undefined;
  /** The memory bound (MAX_UNWRITTEN_BYTES by default; a test's own). */
  maxUnwrittenBytes?: number;
}

// Files smaller than this are imported in one go: showing them early gains nothing.
const SHOW_EARLY_BYTES = 4 << 20;
const BATCH = 2000;

/** importStream / cancelImport for the transfer service (services/transfer.ts). */
export function createImportApi({ store, sessions, importText, touched, quiet, reading, checkMs, maxUnwrittenBytes = MAX_UNWRITTEN_BYTES }: ImportDeps) {
  const cancelled = new Set<string>();

  return {
    /**
     * Imports a capture file into a new session as it is read. `job` names the import for
     * cancelImport; `onProgress` (a comlink proxy) is told after each stored batch.
     */
    async importStream(
      job: string, file: Blob, fileName: string, allowPartial: boolean, onProgress?: (p: ImportProgress) => void,
    ): Promise<ImportAnswer> {
      const prefix = crypto.randomUUID().slice(0, 8);
      // Set inside the batch callback: typed wide so the checker does not narrow it to null.
      let session = null as { id: string; name: string; createdAt: number } | null;
      // Records are laid into the model as read, kept whole, and written behind once the
      // file is read (or 256 MiB wait), one transaction at a time once what was laid is
      // listed (its checks run beside the writes): a file is listed in the time its reading
      // and analysis take, and stored after (the answer waits for that).
      let writing: Promise<void> = Promise.resolve();
      let held = reading?.();
      /** The file is read: what was listed may be checked now (once). */
      const read = () => {
        held?.();
        held = undefined;
      };
      try {
        const counter = { read: 0 };
        const model = new SessionModel([], { final: true, bodies: store, checkMs });
        let stored = 0;
        let laid = 0;
        let shown = false;
        let unwritten = 0;
        /** File bytes read when the last write was started (see MAX_UNWRITTEN_BYTES). */
        let writtenUpTo = 0;
        /** Cancelled after the file was read, with batches not yet written (not written then). */
        let cut = false;
        let readDone = false;
        /** Batches read and laid in, not yet handed to the writer. */
        const queued: StoredExchange[][] = [];
        const flush = () => {
          const batches = queued.splice(0);
          writing = writing.then(async () => {
            for (const batch of batches) {
              await quiet?.();
              if (readDone && cancelled.has(job)) {
                cut = true;
                unwritten -= batch.length;
                continue;
              }
              await store.putExchanges(batch);
              model.stored(batch);
              stored += batch.length;
              unwritten -= batch.length;
              progress();
            }
          });
        };
        /** Records with a derivedFrom, as read and as stored: the reader may re-point it at the end. */
        const linked: [ExchangeRecord, StoredExchange][] = [];
        const sessionInfo = (): SessionInfo => ({ id: session!.id, name: session!.name, createdAt: session!.createdAt, capturing: false });
        const progress = (extra: Partial<ImportProgress> = {}) => onProgress?.({ read: counter.read, size: file.size, stored, listed: laid, ...extra });
        const end = await importCaptureStream(decodedPieces(file.stream(), (bytes) => { counter.read += bytes.byteLength; }), {
          allowPartial, idPrefix: prefix, batchSize: BATCH, cancelled: () => cancelled.has(job),
        }, async (records: ExchangeRecord[]) => {
          session ??= await store.createSession(fileName, { imported: true });
          const s = session.id;
          const batch = records.map((r) => stamp(r, prefix, s));
          for (let i = 0; i < batch.length; i++) if (records[i].derivedFrom !== undefined) linked.push([records[i], batch[i]]);
          model.put(batch, { unstored: true });
          laid += batch.length;
          const early = !shown && file.size >= SHOW_EARLY_BYTES;
          if (early) {
            shown = true;
            sessions.set(s, Promise.resolve(model));
          }
          if (shown) touched?.(s);
          progress(early ? { session: sessionInfo() } : {});
          // A file's pieces are read without a task between them: yield one, so the page's
          // reads and the analysis of what is listed get in between batches.
          if (shown) await new Promise((r) => setTimeout(r, 0));
          unwritten += batch.length;
          queued.push(batch);
          // Writes wait for the reading to end, unless too much is unwritten (memory).
          if (counter.read - writtenUpTo > maxUnwrittenBytes) {
            writtenUpTo = counter.read;
            flush();
            await writing;
          }
        });
        read(); // what was listed is checked next
        // Cancelled while reading: what was read (and listed) is written and kept. Declined:
        // the session goes, nothing more is written.
        if (end.kind === 'declined') queued.length = 0;
        readDone = end.kind === 'done';
        flush();
        await writing;

        if (end.kind === 'cancelled' || cut) {
          if (!session) return { ok: false, error: { kind: 'cancelled', message: 'Import cancelled; nothing was stored.', where: 'file', skipped: [], readable: null } };
          const name = `${fileName} (first ${stored}, cancelled)`;
          await store.renameSession(session.id, name);
          session.name = name;
          // The model holds records read but never written: the session is read again from
          // storage instead, so what it shows is what was kept.
          if (cut) sessions.delete(session.id);
          else sessions.set(session.id, Promise.resolve(model));
          touched?.(session.id); // what was listed and not checked yet is checked
          return { ok: true, value: { session: sessionInfo(), count: stored, skipped: [], notes: [`Import cancelled after ${stored} exchanges; they were kept.`], cancelled: true } };
        }
        if (end.kind === 'declined') {
          if (session) await store.deleteSession(session.id);
          if (session) sessions.delete(session.id);
          session = null;
          return await importText(await file.text(), fileName, allowPartial);
        }
        // Links to other records of the file are re-pointed once all its ids are known.
        const moved = linked.map(([read, was]) => ({ now: stamp(read, prefix, was.session), was }))
          .filter(({ now, was }) => now.derivedFrom !== was.derivedFrom).map(({ now }) => now);
        if (moved.length) {
          await store.putExchanges(moved);
          model.put(moved);
        }
        if (!session) session = await store.createSession(fileName, { imported: true }); // a capture with no exchanges
        sessions.set(session.id, Promise.resolve(model));
        touched?.(session.id); // what was listed and not checked yet is checked
        const out = end.outcome;
        const skipped = out.skipped.slice(0, 50).map((x) => ({ where: x.where, message: x.message }));
        return { ok: true, value: { session: sessionInfo(), count: stored, skipped, notes: out.notes } };
      } catch (err) {
        // Storage refused (quota…): nothing half-imported stays behind; the page says why.
        await writing.catch(() => undefined);
        if (session) await store.deleteSession(session.id).catch(() => undefined);
        if (session) sessions.delete(session.id);
        if (err instanceof StorageError) return { ok: false, error: err.toInfo() };
        throw err;
      } finally {
        read();
        cancelled.delete(job);
      }
    },

    /** Stops the import `job` at its next piece (see the header for what is kept). */
    cancelImport(job: string): void {
      cancelled.add(job);
    },
  };

}

// Imported ids must not collide with another import of the same file, and derivedFrom
// follows them (ids the reader already prefixed keep their prefix).
function stamp(r: ExchangeRecord | StoredExchange, prefix: string, session: string): StoredExchange {
  const id = r.id.startsWith(`${prefix}-`) ? r.id : `${prefix}-${r.id}`;
  const out = { ...r, id, session } as StoredExchange;
  if (r.derivedFrom !== undefined && !r.derivedFrom.startsWith(`${prefix}-`)) out.derivedFrom = `${prefix}-${r.derivedFrom}`;
  return out;
}
