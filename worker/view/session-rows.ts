// A session's list rows, kept across builds: one row per conversation, the rows in capture
// order (by first seq), and the errors and warnings summed over them, each brought up to date
// from what a step says changed instead of being rebuilt from every conversation.
//
// Hazard: between re-threads the sorted array is changed in place (rows replaced, new ones
// pushed), so a list handed out by an earlier build changes with it; reads want the latest
// anyway. A full re-thread or a removal builds a new array.
import type { Conversation } from '../protocol.js';
import type { EngineStep } from '../engine/analysis-engine.js';
import type { ConversationSummary } from './types.js';

/** A conversation and its row. */
export interface RowEntry { conversation: Conversation; row: ConversationSummary }

/** Errors and warnings over every row, tamper tests' expected findings apart. */
export interface RowCounts { errors: number; warnings: number; expected: number }

/** The rows of one session, kept as the analysis steps. */
export class SessionRows {
  /** Rows by conversation id. */
  readonly byId = new Map<string, RowEntry>();
  #sorted: ConversationSummary[] = [];
  /** Row id → its place in `#sorted`. */
  #at = new Map<string, number>();
  /** How many conversations the last step had (new ones come after them between re-threads). */
  #known = 0;
  #errors = 0;
  #warnings = 0;
  #expected = 0;

  /** The rows in capture order (see the header: changed in place between re-threads). */
  get sorted(): ConversationSummary[] {
    return this.#sorted;
  }

  /** The sums over the rows as they stand now. */
  counts(): RowCounts {
    return { errors: this.#errors, warnings: this.#warnings, expected: this.#expected };
  }

  /** Brings the rows up to date with a step: rows of removed conversations go, new and
   *  changed ones are summed up again (`summarize`), the others keep theirs. */
  update(step: Pick<EngineStep, 'conversations' | 'changed' | 'removed' | 'full'>, summarize: (c: Conversation) => ConversationSummary): void {
    for (const id of step.removed) {
      this.#uncount(this.byId.get(id)?.row);
      this.byId.delete(id);
    }
    const convs = step.conversations;
    const fresh: ConversationSummary[] = [];
    if (step.full) {
      for (const c of convs) {
        const had = this.byId.get(c.id);
        if (had === undefined || step.changed.has(c.id)) this.#setRow(c.id, { conversation: c, row: summarize(c) });
        else had.conversation = c;
      }
    } else {
      // Between re-threads conversations only grow: new ones are appended.
      for (let i = this.#known; i < convs.length; i++) {
        const row = summarize(convs[i]);
        this.#setRow(convs[i].id, { conversation: convs[i], row });
        fresh.push(row);
      }
      for (const id of step.changed) {
        const had = this.byId.get(id);
        if (had && !fresh.includes(had.row)) this.#setRow(id, { conversation: had.conversation, row: summarize(had.conversation) });
      }
    }
    this.#known = convs.length;
    if (step.full || step.removed.size > 0) {
      this.#sorted = [...this.byId.values()].map((e) => e.row).sort((x, y) => x.firstSeq - y.firstSeq);
      this.#at = new Map(this.#sorted.map((r, i) => [r.id, i]));
    } else if (step.changed.size > 0) {
      // Rows in capture order, changed in place; new ones mostly come last (sorted only
      // when they do not).
      for (const id of step.changed) {
        const i = this.#at.get(id);
        if (i !== undefined) this.#sorted[i] = this.byId.get(id)!.row;
      }
      let inOrder = true;
      for (const row of fresh) {
        const rows = this.#sorted;
        if (rows.length > 0 && rows[rows.length - 1].firstSeq > row.firstSeq) inOrder = false;
        this.#at.set(row.id, rows.length);
        rows.push(row);
      }
      if (!inOrder) {
        this.#sorted.sort((x, y) => x.firstSeq - y.firstSeq);
        this.#at = new Map(this.#sorted.map((r, i) => [r.id, i]));
      }
    }
  }

  /** Sets a conversation's row, keeping the sums of the rows' counts. */
  #setRow(id: string, entry: RowEntry): void {
    this.#uncount(this.byId.get(id)?.row);
    this.byId.set(id, entry);
    this.#count(entry.row, 1);
  }

  #uncount(row: ConversationSummary | undefined): void {
    if (row !== undefined) this.#count(row, -1);
  }

  // As `listOf` counts: a tamper test is meant to be refused, so its findings are apart.
  #count(row: ConversationSummary, sign: 1 | -1): void {
    const t = row.expected;
    this.#errors += sign * (row.findings.error - (t?.error ?? 0));
    this.#warnings += sign * (row.findings.warning - (t?.warning ?? 0));
    if (t) this.#expected += sign * (t.error + t.warning);
  }
}
