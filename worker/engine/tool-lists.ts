// The tool definitions every `tools/list` answer of a capture gave, in capture order, for
// the lint rules that check a call against its tool (`LintContext.toolDefinition` looks back
// from the call's own exchange). Kept by the analysis engine: collected whole on a re-thread,
// re-read for the tools/list conversations a step changed otherwise.
import type { Conversation, DecodedExchange } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';

/** One `tools/list` result's tool definitions, and where it was answered. */
export interface ToolList { seq: number; tools: Map<string, Record<string, unknown>>; conversation: Conversation; round: number }

/** The tool lists one tools/list conversation answered, in round order. */
function toolListsOf(c: Conversation, decodedOf: (seq: number) => DecodedExchange | undefined): ToolList[] {
  const lists: ToolList[] = [];
  c.rounds.forEach((r, round) => {
    const ans = r.answer >= 0 ? decodedOf(r.exchange)?.received[r.answer] : undefined;
    const tools = own(ans?.result, 'tools');
    if (!Array.isArray(tools)) return;
    const map = new Map<string, Record<string, unknown>>();
    for (const t of tools) {
      const o = asObject(t);
      const n = own(o, 'name');
      if (o && typeof n === 'string') map.set(n, o);
    }
    lists.push({ seq: r.exchange, tools: map, conversation: c, round });
  });
  return lists;
}

/** Tool definitions from every `tools/list` result, in capture order (ties: conversation
 *  order, then round order). */
export function collectToolLists(conversations: readonly Conversation[], decodedOf: (seq: number) => DecodedExchange | undefined): ToolList[] {
  const lists: ToolList[] = [];
  for (const c of conversations) if (c.method === 'tools/list') lists.push(...toolListsOf(c, decodedOf));
  return lists.sort((a, b) => a.seq - b.seq);
}

/** `lists` with the lists of the `changed` conversations read again, in the order
 *  `collectToolLists` gives (`indexOf`: a conversation's place). Between re-threads
 *  conversations are the same objects, changed in place. */
export function refileToolLists(lists: readonly ToolList[], changed: readonly Conversation[], indexOf: (c: Conversation) => number, decodedOf: (seq: number) => DecodedExchange | undefined): ToolList[] {
  const redo = new Set(changed.filter((c) => c.method === 'tools/list'));
  const out = lists.filter((l) => !redo.has(l.conversation));
  for (const c of redo) out.push(...toolListsOf(c, decodedOf));
  return out.sort((a, b) => a.seq - b.seq || indexOf(a.conversation) - indexOf(b.conversation) || a.round - b.round);
}

/** The definition of tool `name` in the latest list answered before exchange `beforeSeq`. */
export function toolDefinition(lists: readonly ToolList[], name: string, beforeSeq: number): Record<string, unknown> | undefined {
  for (let i = lists.length - 1; i >= 0; i--) {
    if (lists[i].seq >= beforeSeq) continue;
    const def = lists[i].tools.get(name);
    if (def) return def;
  }
  return undefined;
}
