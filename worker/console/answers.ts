// Answers to embedded input requests: their kinds, editable drafts for sampling and roots
// (§5.2, §5.3), auto mode's matcher, which answers from saved answers by key and then
// by kind and position, and hands back only what it cannot answer. Its memory across calls
// is answer-memory.ts.
import { asObject, own } from '../decode/meta.js';
import { secretFields } from './secret-fields.js';
import type { InputKind, InputRequest, SavedAnswer } from './types.js';

/** What kind of input a request asks for (a missing elicitation mode means form, elic:90-102). */
export function inputKind(req: InputRequest | undefined): InputKind {
  switch (req?.method) {
    case 'elicitation/create': return own(req.params, 'mode') === 'url' ? 'elicitation-url' : 'elicitation-form';
    case 'sampling/createMessage': return 'sampling';
    case 'roots/list': return 'roots';
    default: return 'unknown';
  }
}

/** Text of a sampling message's content (a block or a list of blocks). */
function messageText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (own(asObject(b), 'type') === 'text' && typeof own(asObject(b), 'text') === 'string' ? (own(asObject(b), 'text') as string) : '')).filter(Boolean).join('\n');
}

/**
 * A CreateMessageResult to edit before sending, pre-filled from the messages: an
 * assistant text reply that quotes the last user message, so the user sees what it answers.
 */
export function samplingDraft(params: unknown, model = 'mrtr-inspector-console'): Record<string, unknown> {
  const messages = own(asObject(params), 'messages');
  let prompt = '';
  if (Array.isArray(messages)) {
    for (let i = messages.length - 1; i >= 0 && prompt === ''; i--) {
      const m = asObject(messages[i]);
      if (own(m, 'role') === 'user') prompt = messageText(own(m, 'content'));
    }
  }
  const quoted = prompt.length > 200 ? `${prompt.slice(0, 200)}…` : prompt;
  const text = quoted === '' ? 'A reply written in mrtr-inspector.' : `A reply to: ${quoted}`;
  return { role: 'assistant', content: { type: 'text', text }, model, stopReason: 'endTurn' };
}

/** A ListRootsResult from the roots the user lists (file:// URIs, roots:100-101). */
export function rootsDraft(roots: readonly { uri: string; name?: string }[] = []): Record<string, unknown> {
  return { roots: roots.map((r) => (r.name !== undefined ? { uri: r.uri, name: r.name } : { uri: r.uri })) };
}

/**
 * Problems with a roots answer (a ListRootsResult: `{roots: [{uri, name?, _meta?}]}`, each
 * uri a file:// URI, roots:96-102), each naming the entry (from 1) and why. Empty when fine.
 */
export function validateRoots(result: unknown): string[] {
  const roots = own(asObject(result), 'roots');
  if (!Array.isArray(roots)) return ['"roots" must be a list of {uri, name?} objects'];
  const out: string[] = [];
  for (const [i, r] of roots.entries()) {
    const root = asObject(r);
    if (!root) {
      out.push(`root ${i + 1} must be an object {uri, name?}`);
      continue;
    }
    const uri = own(root, 'uri');
    if (typeof uri !== 'string') {
      out.push(`root ${i + 1} has no uri (each root needs a file:// URI)`);
      continue;
    }
    const shown = JSON.stringify(uri.length > 80 ? `${uri.slice(0, 80)}…` : uri);
    let protocol: string | null = null;
    try {
      protocol = new URL(uri).protocol;
    } catch {
      /* reported below */
    }
    if (protocol === null) out.push(`root ${i + 1} (${shown}): uri is not a valid URI`);
    else if (protocol !== 'file:') out.push(`root ${i + 1} (${shown}): uri must be a file:// URI, not ${protocol}`);
    const name = own(root, 'name');
    if (name !== undefined && typeof name !== 'string') out.push(`root ${i + 1}: name must be text`);
  }
  return out;
}

/** A question auto mode could not answer. */
export interface OpenQuestion {
  key: string;
  kind: InputKind;
  request: InputRequest;
}

/** What answerAll found: the answers it could give, and the questions left for the user. */
export interface AutoAnswers {
  responses: Record<string, Record<string, unknown>>;
  /** How each answer was found, per key: the saved key it came from, and how it matched. */
  matched: Record<string, { from: string; by: 'key' | 'kind' }>;
  questions: OpenQuestion[];
}

/** Saved answers as a list: a plain key → response map matches by key only. */
export function savedList(saved: readonly SavedAnswer[] | Record<string, unknown>): SavedAnswer[] {
  if (Array.isArray(saved)) return saved as SavedAnswer[];
  return Object.entries(saved as Record<string, unknown>).flatMap(([key, response]) => {
    const r = asObject(response);
    return r ? [{ key, kind: 'unknown' as const, response: r }] : [];
  });
}

/**
 * Answers what it can: first a saved answer with the same key (and kind, when both are
 * known), then, for keys a changed server renamed, the next unused saved answer of the
 * same kind in order. Everything else comes back as an open question.
 */
export function answerAll(
  inputRequests: Record<string, InputRequest> | undefined,
  saved: readonly SavedAnswer[] | Record<string, unknown>,
  /** Saved keys already spent on earlier rounds: never re-used by the kind fallback. */
  spent: ReadonlySet<string> = new Set(),
): AutoAnswers {
  const out: AutoAnswers = { responses: {}, matched: {}, questions: [] };
  const list = savedList(saved);
  const used = new Set<number>();
  const entries = Object.entries(inputRequests ?? {});
  const open: [string, InputRequest, InputKind][] = [];
  for (const [key, req] of entries) {
    const kind = inputKind(req);
    const i = list.findIndex((s, j) => !used.has(j) && s.key === key && (s.kind === kind || s.kind === 'unknown' || kind === 'unknown'));
    if (i >= 0) {
      used.add(i);
      out.responses[key] = structuredClone(list[i].response);
      out.matched[key] = { from: list[i].key, by: 'key' };
    } else open.push([key, req, kind]);
  }
  for (const [key, req, kind] of open) {
    const i = kind === 'unknown' ? -1 : list.findIndex((s, j) => !used.has(j) && s.kind === kind && !spent.has(s.key) && !Object.prototype.hasOwnProperty.call(inputRequests, s.key));
    if (i >= 0) {
      used.add(i);
      out.responses[key] = structuredClone(list[i].response);
      out.matched[key] = { from: list[i].key, by: 'kind' };
    } else out.questions.push({ key, kind, request: req });
  }
  return out;
}

/** Saved answers from a round's inputRequests and the inputResponses given to them. */
export function saveAnswers(inputRequests: Record<string, InputRequest> | undefined, inputResponses: Record<string, unknown>): SavedAnswer[] {
  const out: SavedAnswer[] = [];
  for (const [key, response] of Object.entries(inputResponses)) {
    const r = asObject(response);
    if (!r) continue;
    const withheld = secretFields(inputRequests?.[key]);
    out.push({ key, kind: inputKind(inputRequests?.[key]), response: r, ...(withheld.length ? { withheld } : {}) });
  }
  return out;
}

/** A plausible answer to any input request, for tests that need one: accept a form with its
 *  defaults (and the first choice of each required enum), accept a URL, the sampling and roots drafts. */
export function defaultResponse(req: InputRequest): Record<string, unknown> {
  switch (inputKind(req)) {
    case 'elicitation-url': return { action: 'accept' };
    case 'sampling': return samplingDraft(req.params);
    case 'roots': return rootsDraft([]);
    case 'elicitation-form': {
      const props = asObject(own(asObject(own(req.params, 'requestedSchema')), 'properties')) ?? {};
      const content: Record<string, unknown> = {};
      for (const [k, p] of Object.entries(props)) {
        const s = asObject(p);
        const d = own(s, 'default');
        const e = own(s, 'enum');
        if (d !== undefined) content[k] = d;
        else if (Array.isArray(e) && e.length > 0) content[k] = e[0];
        else if (own(s, 'type') === 'boolean') content[k] = true;
      }
      return { action: 'accept', content };
    }
    default: return { action: 'decline' };
  }
}
