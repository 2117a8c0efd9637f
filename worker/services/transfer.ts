// Files in and out: a HAR or JSONL file read into a new session (whole text, or streamed
// from a picked file, see import-api.ts), a session exported as HAR, JSONL or SARIF, and one
// request copied as cURL or fetch(). One service because the page's transfer state drives
// all of them, and every export shares the same redaction of secrets.
import { exportHar, exportJsonl, importCapture } from '../capture/index.js';
import { toCurl, toFetch } from '../export/index.js';
import { withoutCaptureExt } from '../export/file-name.js';
import { ALL_RULES } from '../lint/rules/index.js';
import { answerText, applyAnswerEdits, checkEditOf, type AnswerEdit } from '../mock/edit.js';
import { sarifReport } from '../report/sarif.js';
import type { StoredExchange } from '../storage/index.js';
import { exportRecords, searchedRecords, wholeRecord } from '../view/body-reads.js';
import { SessionModel } from '../view/session-model.js';
import type { Answer } from '../protocol.js';
import type { ImportAnswer, ImportRefusal, Imported } from '../view/types.js';
import { safeName, VERSION, type ServiceContext } from './context.js';
import { createImportApi } from './import-api.js';

export function createTransferService({ store, sessions, keyring, guard, checkedOf, modelOf, owner, listed, reading, checkMs }: Pick<ServiceContext, 'store' | 'sessions' | 'keyring' | 'guard' | 'checkedOf' | 'modelOf' | 'owner' | 'listed' | 'reading' | 'checkMs'>) {
  /**
   * Reads a HAR or JSONL file into a new capture session. A damaged file is refused with
   * what was skipped and how many entries are readable, unless `allowPartial`.
   */
  async function importText(text: string, fileName: string, allowPartial = false): Promise<ImportAnswer> {
    const got = await guard(async (): Promise<Answer<Imported, ImportRefusal>> => {
      const prefix = crypto.randomUUID().slice(0, 8);
      const got = importCapture(text, { allowPartial, idPrefix: prefix });
      const skippedOf = (s: { where: string; message: string }[]) => s.slice(0, 50).map((x) => ({ where: x.where, message: x.message }));
      if (!got.ok) {
        const retry = got.skipped.length ? importCapture(text, { allowPartial: true, idPrefix: prefix }) : null;
        return {
          ok: false, error: {
            kind: 'refused', message: got.error.message, where: got.error.where, skipped: skippedOf(got.skipped),
            readable: retry?.ok ? retry.exchanges.length : null,
          },
        };
      }
      const s = await store.createSession(fileName, { imported: true });
      // Imported ids must not collide with another import of the same file.
      const records: StoredExchange[] = got.exchanges.map((r, i) => ({ ...r, id: r.id.startsWith(`${prefix}-`) ? r.id : `${prefix}-${r.id}`, seq: i, session: s.id }));
      for (const r of records) if (r.derivedFrom !== undefined && !r.derivedFrom.startsWith(`${prefix}-`)) r.derivedFrom = `${prefix}-${r.derivedFrom}`;
      await store.putExchanges(records);
      sessions.set(s.id, Promise.resolve(new SessionModel(records, { final: true, bodies: store })));
      return {
        ok: true, value: {
          session: { id: s.id, name: s.name, createdAt: s.createdAt, capturing: false },
          count: records.length, skipped: skippedOf(got.skipped), notes: got.notes,
        },
      };
    });
    return got.ok ? got.value : got;
  }

  const streamed = createImportApi({
    store, sessions, importText: (text, name, partial) => importText(text, name, partial),
    touched: (session) => owner.touched(session), quiet: listed, reading, checkMs,
  });

  return {
    importText,
    importStream: streamed.importStream,
    cancelImport: streamed.cancelImport,

    /**
     * A session (or the filtered view) as HAR or JSONL text. Sanitised unless `keepSecrets`:
     * credentials, cookies, API-key headers and every user-entered key are redacted.
     */
    exportCapture(session: string, opts: { format: 'har' | 'jsonl'; filter?: string; keepSecrets?: boolean; name?: string; edits?: AnswerEdit[] }): Promise<Answer<{ text: string; count: number; fileName: string }>> {
      return guard(async () => {
        const read = (await exportRecords(await checkedOf(session), opts.filter ?? '')).records;
        // Edited answers (worker/mock/edit.ts) go into the copy exported, never into the session.
        const records = opts.edits?.length ? applyAnswerEdits(read, opts.edits) : read;
        const sanitize = !opts.keepSecrets;
        const secrets = keyring.secretsForRedaction();
        const text = opts.format === 'har' ? exportHar(records, { sanitize, secrets }) : exportJsonl(records, { sanitize, secrets });
        return { text, count: records.length, fileName: `${safeName(withoutCaptureExt(opts.name ?? 'capture'))}.${opts.format === 'har' ? 'har' : 'jsonl'}` };
      });
    },

    /** The recorded answer to an exchange's request as pretty JSON, to edit before serving a mock. */
    answerOf(session: string, id: string): Promise<Answer<{ text: string } | { error: string }>> {
      return guard(async () => {
        const r = await wholeRecord(await modelOf(session), id);
        if (!r) return { error: `No exchange ${JSON.stringify(id)} in this session.` };
        const got = answerText(r);
        return got.ok ? { text: got.text } : { error: got.error };
      });
    },

    /** Checks an edited answer for an exchange: null when it is good, else what is wrong and where. */
    checkEdit(session: string, id: string, text: string): Promise<Answer<string | null>> {
      return guard(async () => {
        const r = await wholeRecord(await modelOf(session), id);
        if (!r) return `No exchange ${JSON.stringify(id)} in this session.`;
        const got = checkEditOf(r, text);
        return got.ok ? null : got.error;
      });
    },

    /** Findings of the session (or the filtered view) as SARIF 2.1.0 text. */
    exportSarif(session: string, opts: { filter?: string; name?: string } = {}): Promise<Answer<{ text: string; count: number; fileName: string }>> {
      return guard(async () => {
        const { findings } = await searchedRecords(await checkedOf(session), opts.filter ?? '');
        const name = safeName(withoutCaptureExt(opts.name ?? 'capture'));
        return { text: JSON.stringify(sarifReport(findings, ALL_RULES, name, VERSION), null, 2), count: findings.length, fileName: `${name}.sarif` };
      });
    },

    /** One exchange's request as a cURL command or a fetch() call (sanitised unless asked). */
    copyAs(session: string, id: string, kind: 'curl' | 'fetch', keepSecrets = false): Promise<Answer<string | null>> {
      return guard(async () => {
        const r = await wholeRecord(await modelOf(session), id);
        if (!r) return null;
        const opts = { sanitize: !keepSecrets, secrets: keyring.secretsForRedaction() };
        return kind === 'curl' ? toCurl(r, opts) : toFetch(r, opts);
      });
    },
  };
}
