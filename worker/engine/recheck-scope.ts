// What a step must check again: which conversations a re-thread changed (compared by
// fingerprint with the ones of the same ids before), and every subject a rule could see
// those changes from.
//
// Hazard: a lint rule may look past its subject (another conversation that issued or echoed
// the same token, a tools/list, a chain asked for keys earlier). Each such reach is bounded
// here; a rule that looks further must be added here too, or a live session keeps findings
// the batch analysis would not give. What cannot be bounded (new keys, legacy linking)
// re-checks everything, decided by the engine.
import type { Conversation } from '../protocol.js';
import type { StateOrigin } from '../thread/threader.js';
import type { ConversationIndex } from './conversation-index.js';
import type { EntryTable } from './entry-table.js';
import { fingerprint, tokensOf } from './fingerprint.js';

/** How a re-thread's conversations differ from those before it. */
export interface ThreadingChanges {
  /** Ids of the conversations new or different. */
  changed: Set<string>;
  /** Ids of the conversations gone. */
  removed: Set<string>;
  /** The new or different conversations, as threaded now. */
  changedConvs: Conversation[];
  /** The conversations before that are gone or different, as they were. */
  oldConvs: Conversation[];
  /** The conversations now, by id. */
  now: Map<string, Conversation>;
}

/** Compares a re-thread with the conversations before it; `stamp` gives an exchange's version. */
export function compareThreadings(before: readonly Conversation[], after: readonly Conversation[], stamp: (seq: number) => string): ThreadingChanges {
  const changed = new Set<string>();
  const removed = new Set<string>();
  const changedConvs: Conversation[] = [];
  const oldConvs: Conversation[] = [];
  const was = new Map<string, Conversation>();
  for (const c of before) was.set(c.id, c);
  const now = new Map<string, Conversation>();
  for (const c of after) {
    now.set(c.id, c);
    const old = was.get(c.id);
    if (old === undefined || fingerprint(old, stamp) !== fingerprint(c, stamp)) {
      changed.add(c.id);
      changedConvs.push(c);
    }
  }
  for (const c of before) {
    if (!now.has(c.id)) removed.add(c.id);
    if (!now.has(c.id) || changed.has(c.id)) oldConvs.push(c);
  }
  return { changed, removed, changedConvs, oldConvs, now };
}

/** The earliest exchange of the tools/list conversations among `groups` (Infinity when none):
 *  a tools/list answer is read by the calls after it (`toolDefinition` looks back from a
 *  subject's own exchange), so it bounds the calls a changed list reaches. */
export function earliestToolList(...groups: readonly (readonly Conversation[])[]): number {
  let from = Infinity;
  for (const g of groups) for (const c of g) if (c.method === 'tools/list') for (const s of c.exchanges) from = Math.min(from, s);
  return from;
}

/** The analysis a scope is worked out over, as the engine holds it after threading. */
export interface ScopeSources {
  conversations: readonly Conversation[];
  index: ConversationIndex;
  entries: Pick<EntryTable, 'length' | 'at'>;
  /** Who issued a token (the threading's record). */
  issuedBy(token: string): readonly StateOrigin[];
}

/** What a step changed: conversations as now and as before, exchanges changed and removed. */
export interface StepChange {
  changedConvs: readonly Conversation[];
  oldConvs: readonly Conversation[];
  touched: readonly number[];
  removed: readonly number[];
  /** `earliestToolList` of the changed and old conversations. */
  listedFrom: number;
}

/** The conversations and exchanges a change can reach through the rules, in the order they
 *  are to be queued. */
export function recheckScope(change: StepChange, src: ScopeSources): { convs: Conversation[]; seqs: Set<number> } {
  const convs = affectedConversations(change.changedConvs, change.oldConvs, src);
  const seqs = new Set<number>(change.touched);
  for (const c of change.changedConvs) for (const s of c.exchanges) seqs.add(s);
  for (const c of change.oldConvs) for (const s of c.exchanges) seqs.add(s);
  for (const s of change.removed) seqs.add(s);
  if (change.listedFrom !== Infinity) {
    const ids = new Set(convs.map((c) => c.id));
    for (let s = Math.max(0, change.listedFrom); s < src.entries.length; s++) {
      if (src.entries.at(s) === undefined) continue;
      seqs.add(s);
      for (const c of src.index.conversationsOf(s) ?? []) if (!ids.has(c.id)) { ids.add(c.id); convs.push(c); }
    }
  }
  return { convs, seqs };
}

/** The changed conversations and every one a rule could see them from. */
export function affectedConversations(changedConvs: readonly Conversation[], oldConvs: readonly Conversation[], src: ScopeSources): Conversation[] {
  const ids = new Set<string>();
  const out: Conversation[] = [];
  const add = (c: Conversation) => {
    if (!ids.has(c.id) && src.index.placeOf(c) !== undefined) {
      ids.add(c.id);
      out.push(c);
    }
  };
  let earliestAnswer = Infinity;
  for (const c of [...changedConvs, ...oldConvs]) {
    add(c);
    for (const t of tokensOf(c)) {
      for (const o of src.issuedBy(t)) add(o.conversation);
      for (const p of src.index.presentations(t) ?? []) add(p.conversation);
    }
    for (const r of c.rounds) if (r.answeredAt !== null && r.answeredAt < earliestAnswer) earliestAnswer = r.answeredAt;
  }
  // A chain's answer asking for keys is seen by any later call's first round (see
  // mrtr/state-cross-request): re-check every call first sent at or after it.
  // Walked from the end, down to where no earlier call was first sent that late.
  if (earliestAnswer !== Infinity) {
    const convs = src.conversations;
    for (let i = convs.length - 1; i >= 0 && src.index.firstSentMax(i) >= earliestAnswer; i--) {
      const c = convs[i];
      if ((c.rounds[0]?.sentAt ?? -Infinity) >= earliestAnswer) add(c);
    }
  }
  return out;
}
