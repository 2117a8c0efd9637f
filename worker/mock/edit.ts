// Edits of recorded answers before a capture is served as a mock or saved (docs/guide.md,
// "Serve a capture as a mock"): the JSON-RPC answer to an exchange's request is replaced by
// the user's text, checked first (JSON, one response object for the same id, exactly one of
// result and error, an error's code and message), with a message that says what and where.
// Pure: runs in the analysis worker before an export; the records given are not changed.
import type { ExchangeRecord, SseEventRecord } from '../protocol.js';
import { responseEvents } from '../decode/exchange.js';
import { asObject } from '../decode/meta.js';

/** One edit: the answer to exchange `exchange`'s request becomes `text`. */
export interface AnswerEdit {
  exchange: string;
  text: string;
}

export type EditCheck = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isAnswer = (v: unknown): v is Record<string, unknown> => {
  const m = asObject(v);
  return !!m && !Array.isArray(v) && !('method' in m) && ('result' in m || 'error' in m);
};

/** Line and column (1-based) of character `at` in `text`. */
function lineColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return `line ${line}, column ${at - before.lastIndexOf('\n')}`;
}

/** Checks an edited answer; `id`: the request's id, which the answer must keep. */
export function checkAnswerEdit(text: string, id: unknown): EditCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    const at = /position (\d+)/.exec(msg);
    const where = at ? lineColumn(text, Number(at[1])) : text.trim() === '' ? 'the text is empty' : 'the text';
    return { ok: false, error: `Not JSON (${where}): ${msg.replace(/\s*in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')}.` };
  }
  const m = asObject(value);
  if (!m || Array.isArray(value)) return { ok: false, error: `The answer must be one JSON-RPC response object, {"jsonrpc": "2.0", "id": …, "result": {…}} or {…, "error": {"code": …, "message": …}}; this is ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}.` };
  if (m.jsonrpc !== '2.0') return { ok: false, error: `At "jsonrpc": must be "2.0", not ${JSON.stringify(m.jsonrpc) ?? 'missing'}.` };
  if (JSON.stringify(m.id) !== JSON.stringify(id)) return { ok: false, error: `At "id": must stay ${JSON.stringify(id)}, the recorded request's id (the mock puts the client's id in its place), not ${JSON.stringify(m.id) ?? 'missing'}.` };
  if ('method' in m) return { ok: false, error: 'At "method": an answer has no method (this reads as a request).' };
  const has = ('result' in m ? 1 : 0) + ('error' in m ? 1 : 0);
  if (has !== 1) return { ok: false, error: `The answer needs exactly one of "result" and "error"; it has ${has === 0 ? 'neither' : 'both'}.` };
  if ('result' in m && !asObject(m.result)) return { ok: false, error: `At "result": must be an object, not ${JSON.stringify(m.result)}.` };
  if ('error' in m) {
    const e = asObject(m.error);
    if (!e || Array.isArray(m.error)) return { ok: false, error: 'At "error": must be an object with "code" and "message".' };
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return { ok: false, error: `At "error.code": must be an integer (e.g. -32603), not ${JSON.stringify(e.code) ?? 'missing'}.` };
    if (typeof e.message !== 'string') return { ok: false, error: `At "error.message": must be a string, not ${JSON.stringify(e.message) ?? 'missing'}.` };
  }
  return { ok: true, value: m };
}

/** The request's JSON-RPC id, or why the exchange has no answer to edit. */
function requestIdOf(record: ExchangeRecord): { ok: true; id: unknown } | { ok: false; error: string } {
  const sent = asObject(parse(record.request.body ?? ''));
  if (!sent || typeof sent.method !== 'string' || !('id' in sent)) return { ok: false, error: `Exchange ${record.seq} sent no JSON-RPC request with an id, so it has no answer to edit.` };
  return { ok: true, id: sent.id };
}

/** Where the answer sits in the recorded response: an event's data, or the body (whole or in a batch). */
type Place = { kind: 'event'; index: number; events: SseEventRecord[] } | { kind: 'body' } | { kind: 'batch'; index: number; batch: unknown[] };

function placeOf(record: ExchangeRecord, id: unknown): { place: Place; value: Record<string, unknown> } | undefined {
  const same = (v: unknown) => isAnswer(v) && JSON.stringify(v.id) === JSON.stringify(id);
  const events = responseEvents(record);
  if (events) {
    for (const [index, ev] of events.entries()) {
      const v = parse(ev.data);
      if (same(v)) return { place: { kind: 'event', index, events }, value: v as Record<string, unknown> };
    }
    return undefined;
  }
  const body = parse(record.response?.body ?? '');
  if (same(body)) return { place: { kind: 'body' }, value: body as Record<string, unknown> };
  if (Array.isArray(body)) for (const [index, v] of body.entries()) if (same(v)) return { place: { kind: 'batch', index, batch: body }, value: v as Record<string, unknown> };
  return undefined;
}

/** The recorded answer to the exchange's request, as pretty JSON to edit, or why there is none. */
export function answerText(record: ExchangeRecord): { ok: true; text: string; id: unknown } | { ok: false; error: string } {
  const req = requestIdOf(record);
  if (!req.ok) return req;
  const at = placeOf(record, req.id);
  if (!at) return { ok: false, error: `Exchange ${record.seq} has no recorded answer to its request (id ${JSON.stringify(req.id)}): ${record.response ? 'the response holds none' : 'no response was recorded'}.` };
  return { ok: true, text: JSON.stringify(at.value, null, 2), id: req.id };
}

/** Checks one edit against its exchange; the error names the exchange and what is wrong. */
export function checkEditOf(record: ExchangeRecord, text: string): EditCheck {
  const now = answerText(record);
  if (!now.ok) return now;
  const got = checkAnswerEdit(text, now.id);
  return got.ok ? got : { ok: false, error: `Exchange ${record.seq}: ${got.error}` };
}

/** The records with each edited answer in place (copies; the rest as they were). Throws the
 *  first edit's problem, naming its exchange, when an edit does not check or names no exchange given. */
export function applyAnswerEdits(records: readonly ExchangeRecord[], edits: readonly AnswerEdit[]): ExchangeRecord[] {
  const byId = new Map(edits.map((e) => [e.exchange, e.text]));
  const seen = new Set<string>();
  const out = records.map((record) => {
    const text = byId.get(record.id);
    if (text === undefined) return record;
    seen.add(record.id);
    const req = requestIdOf(record);
    const at = req.ok ? placeOf(record, req.id) : undefined;
    const checked = checkEditOf(record, text);
    if (!checked.ok) throw new Error(checked.error);
    if (!at || !record.response) throw new Error(`Exchange ${record.seq} has no recorded answer to replace.`);
    const value = JSON.stringify(checked.value);
    const response = { ...record.response };
    const place = at.place;
    if (place.kind === 'event') {
      response.events = place.events.map((ev, i) => (i === place.index ? { ...ev, data: value } : ev));
      delete response.body;
    } else if (place.kind === 'batch') {
      response.body = JSON.stringify(place.batch.map((v, i) => (i === place.index ? checked.value : v)));
    } else {
      response.body = value;
    }
    return { ...record, response };
  });
  const missing = edits.find((e) => !seen.has(e.exchange));
  if (missing) throw new Error(`The edited exchange ${JSON.stringify(missing.exchange)} is not in this capture (or not in the filtered view).`);
  return out;
}
