// Lint findings kept per subject (a conversation, or an exchange), so a step re-checks only
// what a change can affect, and read back per conversation without sorting the whole list.
//
// Hazard: a finding names the conversation it belongs to, which is not always the subject
// that produced it (an exchange rule names the exchange's first conversation; a rule may
// name another). So findings are filed by the conversation they name, per subject, and a
// subject's old findings are withdrawn from wherever they were filed before its new ones go in.
import type { Finding } from '../protocol.js';

/** Findings by severity. */
export interface SeverityCounts { error: number; warning: number; info: number }
import { collectFindings, sortFindings, type SubjectFindings } from '../lint/engine.js';

/** A subject: `c:<conversation id>` or `x:<seq>`. */
type SubjectKey = string;

export class LintState {
  readonly #byConversation = new Map<string, SubjectFindings>();
  readonly #byExchange = new Map<number, SubjectFindings>();
  /** conversation id ('' for none) → subject → that subject's findings naming it. */
  readonly #filed = new Map<string, Map<SubjectKey, Finding[]>>();
  #failures = 0;
  /** Findings are filed by conversation only once someone reads them that way (a live
   *  list does; the CLI, which reads the whole list once, never pays for it). */
  #filing = false;
  /** Conversations ('' for none) named by findings set or withdrawn since `takeNamed`. */
  #named = new Set<string>();

  setConversation(id: string, f: SubjectFindings | undefined): void {
    this.#set(this.#byConversation, 'c:', id, f);
  }

  setExchange(seq: number, f: SubjectFindings | undefined): void {
    this.#set(this.#byExchange, 'x:', seq, f);
  }

  // Most subjects have nothing to say: those are not kept (reading them back gives the same
  // without them), and their subject keys are never built.
  #set<K extends string | number>(map: Map<K, SubjectFindings>, kind: 'c:' | 'x:', id: K, f: SubjectFindings | undefined): void {
    const old = map.get(id);
    const kept = f !== undefined && (f.findings.length > 0 || f.failures.length > 0) ? f : undefined;
    if (old === undefined && kept === undefined) return;
    for (const x of old?.findings ?? []) this.#named.add(x.conversation ?? '');
    for (const x of kept?.findings ?? []) this.#named.add(x.conversation ?? '');
    const key: SubjectKey = kind + id;
    this.#withdraw(key, old);
    if (kept === undefined) map.delete(id);
    else map.set(id, kept);
    this.#file(key, kept);
  }

  /** The conversations ('' for none) whose findings may have changed since the last call:
   *  named by a finding set or withdrawn (a subject's findings may name another one's). */
  takeNamed(): Set<string> {
    const out = this.#named;
    this.#named = new Set();
    return out;
  }

  /** Some rule threw somewhere: per-conversation reads must go through `all`. */
  get hasFailures(): boolean {
    return this.#failures > 0;
  }

  /** Every finding, in the order the batch lint gives (see lint/engine.ts). */
  all(conversationIds: readonly string[], seqs: readonly number[]): Finding[] {
    const parts: SubjectFindings[] = [];
    for (const id of conversationIds) {
      const p = this.#byConversation.get(id);
      if (p) parts.push(p);
    }
    for (const s of seqs) {
      const p = this.#byExchange.get(s);
      if (p) parts.push(p);
    }
    return collectFindings(parts);
  }

  /** The findings naming one conversation ('' for those naming none), sorted. Failures
   *  are left out: check `hasFailures` first. */
  of(conversation: string): Finding[] {
    this.#startFiling();
    const filed = this.#filed.get(conversation);
    if (filed === undefined) return [];
    const out: Finding[] = [];
    for (const list of filed.values()) for (const f of list) out.push(f);
    return sortFindings(out);
  }

  /** Counts of the findings naming one conversation ('' for none). */
  counts(conversation: string): SeverityCounts {
    this.#startFiling();
    const n: SeverityCounts = { error: 0, warning: 0, info: 0 };
    const filed = this.#filed.get(conversation);
    if (filed !== undefined) for (const list of filed.values()) for (const f of list) n[f.severity] += 1;
    return n;
  }

  #startFiling(): void {
    if (this.#filing) return;
    this.#filing = true;
    for (const [id, f] of this.#byConversation) this.#fileFindings(`c:${id}`, f);
    for (const [seq, f] of this.#byExchange) this.#fileFindings(`x:${seq}`, f);
  }

  #withdraw(key: SubjectKey, old: SubjectFindings | undefined): void {
    if (old === undefined) return;
    this.#failures -= old.failures.length;
    if (!this.#filing) return;
    for (const f of old.findings) this.#filed.get(f.conversation ?? '')?.delete(key);
  }

  #file(key: SubjectKey, f: SubjectFindings | undefined): void {
    if (f === undefined) return;
    this.#failures += f.failures.length;
    if (this.#filing) this.#fileFindings(key, f);
  }

  #fileFindings(key: SubjectKey, f: SubjectFindings): void {
    for (const x of f.findings) {
      const target = x.conversation ?? '';
      let m = this.#filed.get(target);
      if (m === undefined) this.#filed.set(target, (m = new Map()));
      let list = m.get(key);
      if (list === undefined) m.set(key, (list = []));
      list.push(x);
    }
  }
}
