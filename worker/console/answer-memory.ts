// Auto mode's memory across calls: the answers each call target was given, so a second run
// of the same call runs through on them. It can be written out and read back (IndexedDB
// settings, across a reload) with every secret-looking form field taken out; an answer read
// back without such a field is never sent as is: its question is asked again, pre-filled.
import { asObject, own } from '../decode/meta.js';
import { saveAnswers } from './answers.js';
import { missingWithheld, withoutFields } from './secret-fields.js';
import type { InputRequest, RoundReading, SavedAnswer } from './types.js';

/** A round as auto mode's memory reads it: the request it sent, and which round it answers. */
export interface AnsweredRound {
  request: { body: string };
  /** Position of the round this one answers (a retry), null for a first request. */
  parent: number | null;
  reading: RoundReading;
}

/** A remembered answer as stored: its call target (server, method, tool), the key, and no secret values. */
export interface StoredAnswer extends SavedAnswer {
  target: string;
}

/** An answer remembered without its secret fields: the values it kept, and the fields to ask again. */
export interface PartialAnswer {
  response: Record<string, unknown>;
  missing: string[];
}

/** The answers a call's retries sent, oldest first, each with the kind of the question it answered. */
export function answersSent(rounds: readonly AnsweredRound[]): SavedAnswer[] {
  const out: SavedAnswer[] = [];
  for (const r of rounds) {
    if (r.parent === null) continue;
    const asked = rounds[r.parent]?.reading;
    out.push(...saveAnswers(asked?.kind === 'input_required' ? asked.inputRequests : undefined, responsesOf(r.request.body)));
  }
  return out;
}

/** The key a call is remembered under: server URL, method, and tool/prompt name or resource uri. */
export function callTargetKey(url: string, method: string, params: Record<string, unknown>): string {
  const name = own(params, 'name') ?? own(params, 'uri');
  return `${url}\u0000${method}\u0000${typeof name === 'string' ? name : ''}`;
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * Kept per target because keys are a tool's own: another tool's "confirm" may ask something
 * else. The newest answer wins; each target keeps its latest `cap` answers.
 */
export class AnswerMemory {
  readonly #byTarget = new Map<string, SavedAnswer[]>();
  constructor(private readonly cap = 200) {}

  /** Keeps what a call sent (finished or left paused), after what earlier calls sent. */
  remember(target: string, rounds: readonly AnsweredRound[]): void {
    this.#add(target, answersSent(rounds));
  }

  /** Saved answers for the keys asked now, newest first: the running call's, then earlier calls'. Answers missing a withheld field are left out. */
  recall(target: string, inputRequests: Record<string, InputRequest>, current: readonly AnsweredRound[] = []): SavedAnswer[] {
    const all = [...(this.#byTarget.get(target) ?? []), ...answersSent(current)];
    return all.filter((a) => has(inputRequests, a.key) && missingWithheld(a.response, a.withheld).length === 0).reverse();
  }

  /** The newest answer to `key` that was read back without its secret fields, if that is the newest answer to it. */
  partial(target: string, key: string): PartialAnswer | null {
    const newest = (this.#byTarget.get(target) ?? []).filter((a) => a.key === key).at(-1);
    const missing = newest ? missingWithheld(newest.response, newest.withheld) : [];
    return newest && missing.length ? { response: structuredClone(newest.response), missing } : null;
  }

  /** Everything remembered, and what the running call sent so far, fit to store: secret fields taken out. */
  stored(current?: { target: string; rounds: readonly AnsweredRound[] }): StoredAnswer[] {
    const out: StoredAnswer[] = [];
    const add = (target: string, list: readonly SavedAnswer[]) => {
      for (const a of list) out.push({ target, key: a.key, kind: a.kind, response: withoutFields(a.response, a.withheld ?? []), ...(a.withheld?.length ? { withheld: [...a.withheld] } : {}) });
    };
    for (const [target, list] of this.#byTarget) add(target, current?.target === target ? [...list, ...answersSent(current.rounds)].slice(-this.cap) : list);
    if (current && !this.#byTarget.has(current.target)) add(current.target, answersSent(current.rounds).slice(-this.cap));
    return out;
  }

  /** Reads stored answers back (anything malformed is skipped), before what this visit remembered. */
  load(entries: unknown): void {
    if (!Array.isArray(entries)) return;
    const byTarget = new Map<string, SavedAnswer[]>();
    for (const e of entries) {
      const o = asObject(e);
      const response = asObject(own(o, 'response'));
      const target = own(o, 'target');
      const key = own(o, 'key');
      const withheld = own(o, 'withheld');
      if (!o || !response || typeof target !== 'string' || typeof key !== 'string') continue;
      const kind = (typeof own(o, 'kind') === 'string' ? own(o, 'kind') : 'unknown') as SavedAnswer['kind'];
      const w = Array.isArray(withheld) ? withheld.filter((x): x is string => typeof x === 'string') : [];
      byTarget.set(target, [...(byTarget.get(target) ?? []), { key, kind, response, ...(w.length ? { withheld: w } : {}) }]);
    }
    for (const [target, list] of byTarget) this.#byTarget.set(target, [...list, ...(this.#byTarget.get(target) ?? [])].slice(-this.cap));
  }

  /** Forgets every answer. */
  clear(): void {
    this.#byTarget.clear();
  }

  #add(target: string, sent: readonly SavedAnswer[]): void {
    if (sent.length === 0) return;
    this.#byTarget.set(target, [...(this.#byTarget.get(target) ?? []), ...sent].slice(-this.cap));
  }
}

function responsesOf(body: string): Record<string, unknown> {
  try {
    return asObject(own(asObject(own(asObject(JSON.parse(body)), 'params')), 'inputResponses')) ?? {};
  } catch {
    return {};
  }
}
