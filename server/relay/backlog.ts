// The capture file's backlog, handed to pages with an acknowledgement step:
//   POST /relay/api/backlog       a batch of the file's JSONL (bounded; `mrtr-backlog-more: 1`
//                                 when lines were left out), a drain id in `mrtr-drain`
//   POST /relay/api/backlog/ack   { "drain": <id>, "ids": [...] }: the page stored these
// Records leave the file only when acknowledged, so a page closed mid-drain, or one whose
// storage refused the batch (quota), loses nothing: the next drain hands them out again,
// and the page's merge makes a second copy of a stored record a no-op.
//
// Drains overlap: a page may ask for the next batch (`?after=<drain id>`) while it still
// stores the one before; that batch starts where the named one ended (a FileCursor, which
// stays on its line when an acknowledgement rewrites the file), and each drain is
// acknowledged on its own. A drain not acknowledged keeps its lines in the file; they come
// again on the next drain from the start (a page's next `open`).
//
// Hazard: what the page stored is the copy it was handed, not whatever the file holds at
// ack time. Per drain we keep, per id, a mark of that copy, and the file drops only lines
// not newer than it; a line appended after the hand-out (the exchange went on while no
// page listened) stays for the next drain. Marks are small (state and event count, never
// bodies), and only the last MAX_DRAINS drains are remembered: a later ack for an older one
// is refused, and its records simply come again.
import { randomUUID } from 'node:crypto';
import type { ExchangeRecord } from '../../worker/protocol.js';
import type { CaptureFile, FileCursor } from './capture-file.js';

/** The response header naming a drain, for its acknowledgement. */
export const DRAIN_HEADER = 'mrtr-drain';
/** The response header saying the file holds more than this batch ("1"): drain again after the ack. */
export const MORE_HEADER = 'mrtr-backlog-more';
const MAX_DRAINS = 32;

/** What a page sends to acknowledge a drain. */
export interface BacklogAck {
  drain: string;
  ids: string[];
}

export type AckOutcome = { ok: true; removed: number; left: number } | { ok: false; status: number; error: string };

// A copy of a record holding only what `supersedes` compares (state, head, event count).
function mark(r: ExchangeRecord): ExchangeRecord {
  const events = r.response?.events;
  return {
    v: r.v, id: r.id, seq: r.seq, source: r.source, startedAt: r.startedAt, state: r.state,
    request: { method: r.request.method, url: '', headers: [] },
    ...(r.response ? { response: { status: r.response.status, headers: [], receivedAt: r.response.receivedAt, ...(events ? { events: new Array(events.length) } : {}) } } : {}),
  };
}

/** Checks an acknowledgement body: `{ drain: string, ids: string[] }`. */
export function parseAck(value: unknown): BacklogAck | string {
  const v = value as Partial<BacklogAck> | null;
  if (!v || typeof v !== 'object' || typeof v.drain !== 'string' || !Array.isArray(v.ids) || !v.ids.every((id) => typeof id === 'string')) {
    return 'An acknowledgement is JSON {"drain": "<the mrtr-drain header of the backlog response>", "ids": ["<record id>", …]}.';
  }
  return { drain: v.drain, ids: v.ids };
}

export class Backlog {
  readonly #file: CaptureFile;
  /** Drain id → the marks of the copies handed out, oldest drain first. */
  readonly #drains = new Map<string, Promise<Map<string, ExchangeRecord>>>();
  /** Drain id → where its batch ended in the file (the next drain's start), newest last. */
  readonly #ends = new Map<string, FileCursor>();

  constructor(file: CaptureFile) {
    this.#file = file;
  }

  /**
   * Reads one batch of the file for a page (bounded, capture-file.ts); nothing leaves it
   * until `ack`. `more`: lines were left out, and the page drains again after its ack.
   * With a `sink`, the batch is written to it as it is read (capture-file.ts), after its head
   * (the drain id and `more`); the drain can be acknowledged once the returned promise
   * resolves, which is before the sink's last piece can have reached a page. `after`: a
   * drain handed out before; this batch starts where that one ended.
   */
  async handOut(
    sink?: { head(drain: string, more: boolean): void; write(bytes: Uint8Array): void },
    after?: string,
  ): Promise<{ drain: string; content: string; more: boolean }> {
    const drain = randomUUID();
    // After a drain this backlog no longer knows (expired): from the start, which is safe
    // (the page's merge makes a second copy of a stored record a no-op).
    const from = after === undefined ? null : this.#ends.get(after) ?? null;
    const { content, latest, more, end } = await this.#file.read(sink && { head: (m) => sink.head(drain, m), write: (b) => sink.write(b) }, mark, from);
    this.#ends.set(drain, end);
    for (const [old, cursor] of this.#ends) {
      if (this.#ends.size <= MAX_DRAINS) break;
      this.#ends.delete(old);
      this.#file.untrack(cursor);
    }
    // The marks may still be being read from what was sent (capture-file.ts): an ack waits for them.
    this.#drains.set(drain, latest);
    for (const old of this.#drains.keys()) {
      if (this.#drains.size <= MAX_DRAINS) break;
      this.#drains.delete(old);
    }
    // An empty drain is never acknowledged: it does not take the place of one that may be.
    void latest.then((marks) => {
      if (marks.size === 0 && this.#drains.get(drain) === latest) this.#drains.delete(drain);
    });
    return { drain, content, more };
  }

  /** The page stored these ids of that drain: drop their lines (those not newer). */
  async ack(ack: BacklogAck): Promise<AckOutcome> {
    const handed = this.#drains.get(ack.drain);
    if (!handed) {
      return { ok: false, status: 409, error: 'Unknown or expired backlog drain: nothing was removed, and its records come again on the next drain.' };
    }
    this.#drains.delete(ack.drain);
    // Where the drain ended: lines from there on were handed out by no drain of these ids.
    const { removed, left } = await this.#file.remove(await handed, new Set(ack.ids), this.#ends.get(ack.drain));
    return { ok: true, removed, left };
  }
}
