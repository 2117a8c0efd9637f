// Edit-and-resend drafts: the pure parser the editor calls on every keystroke (as Chrome
// DevTools' Protocol Monitor does), and the line diff against the original. Never throws:
// whatever the user types, the answer is a message or an error with line and column.
import { diffLines } from 'diff';
import type { HeaderPair } from '../protocol.js';
import { scanJson, lineColumn } from '../capture/json-scan.js';
import type { JsonRpcRequest } from './types.js';

/** Where and why a draft cannot be sent. Line and column are 1-based. */
export interface DraftError {
  message: string;
  line: number;
  column: number;
}

/** A parsed draft: the request, its body text to send verbatim, and the headers when the draft had a header block. */
export type DraftParse = { ok: true; message: JsonRpcRequest; body: string; headers?: HeaderPair[] } | { ok: false; error: DraftError };

/** One run of the draft diff. */
export interface DraftChange {
  kind: 'same' | 'added' | 'removed';
  text: string;
  lines: number;
}

/** The preview text of a request: its header block, a blank line, and the pretty JSON body. */
export function draftText(message: unknown, headers?: readonly HeaderPair[]): string {
  const body = JSON.stringify(message, null, 2);
  return headers && headers.length > 0 ? `${headers.map((h) => `${h.name}: ${h.value}`).join('\n')}\n\n${body}` : body;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses an edited draft: either a bare JSON body, or `Name: value` header lines, a blank
 * line and the JSON body. The body must be one JSON-RPC request (jsonrpc "2.0", a string
 * or number id, a method, object params; `inputResponses` an object and `requestState` a
 * string when present).
 */
export function parseDraft(text: string): DraftParse {
  if (typeof text !== 'string') return fail('the draft is not text', 1, 1);
  let bodyStart = 0;
  let headers: HeaderPair[] | undefined;
  const firstNonSpace = text.search(/\S/);
  if (firstNonSpace >= 0 && text[firstNonSpace] !== '{' && text[firstNonSpace] !== '[') {
    const split = /\r?\n[ \t]*\r?\n/.exec(text);
    const headerEnd = split ? split.index : text.length;
    headers = [];
    let offset = 0;
    for (const line of text.slice(0, headerEnd).split('\n')) {
      const clean = line.replace(/\r$/, '');
      const at = lineColumn(text, offset);
      offset += line.length + 1;
      if (clean.trim() === '') continue;
      const colon = clean.indexOf(':');
      if (colon <= 0) return fail('a header line needs "Name: value" (or start the draft with the JSON body)', at.line, 1);
      const name = clean.slice(0, colon).trim();
      if (!HEADER_NAME.test(name)) return fail(`"${name.slice(0, 40)}" is not a valid header name`, at.line, 1);
      const value = clean.slice(colon + 1).trim();
      if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return fail(`header ${name} has a control character in its value`, at.line, colon + 2);
      headers.push({ name, value });
    }
    if (!split) return fail('no body: after the headers, leave a blank line and write the JSON body', lineColumn(text, text.length).line, 1);
    bodyStart = split.index + split[0].length;
  }
  const bodyText = text.slice(bodyStart);
  let value: unknown;
  try {
    value = JSON.parse(bodyText);
  } catch {
    const problem = scanJson(bodyText).problem;
    const off = bodyStart + (problem?.offset ?? 0);
    const at = lineColumn(text, off);
    return fail(problem ? `not JSON: ${problem.reason}` : 'not JSON', at.line, at.column);
  }
  const where = (key: string) => {
    const i = text.indexOf(`"${key}"`, bodyStart);
    return lineColumn(text, i >= 0 ? i : bodyStart);
  };
  const bad = (message: string, key?: string) => {
    const at = key === undefined ? lineColumn(text, bodyStart + (bodyText.length - bodyText.trimStart().length)) : where(key);
    return fail(message, at.line, at.column);
  };
  if (Array.isArray(value)) return bad('send one request, not a batch (2026-07-28 has no batches)');
  if (typeof value !== 'object' || value === null) return bad('the body must be a JSON-RPC request object');
  const o = value as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return bad('"jsonrpc" must be "2.0"', 'jsonrpc');
  if (typeof o.method !== 'string' || o.method === '') return bad('"method" must be a non-empty string', 'method');
  if (!(typeof o.id === 'string' || (typeof o.id === 'number' && Number.isFinite(o.id))))
    return bad('"id" must be a string or a number (a request needs one; a retry needs a new one)', 'id');
  if (o.params !== undefined && (typeof o.params !== 'object' || o.params === null || Array.isArray(o.params))) return bad('"params" must be an object', 'params');
  const params = (o.params ?? {}) as Record<string, unknown>;
  const ir = params.inputResponses;
  if (ir !== undefined && (typeof ir !== 'object' || ir === null || Array.isArray(ir))) return bad('"inputResponses" must be an object keyed like the inputRequests', 'inputResponses');
  if (params.requestState !== undefined && typeof params.requestState !== 'string') return bad('"requestState" must be the string the server sent, unchanged', 'requestState');
  const message: JsonRpcRequest = { ...(o as object), jsonrpc: '2.0', id: o.id, method: o.method, params } as JsonRpcRequest;
  // The body goes out as typed (spacing and key order kept); only the parse is checked.
  const body = bodyText.trim();
  return headers ? { ok: true, message, body, headers } : { ok: true, message, body };
}

/** The line changes from the original draft to the edited one (jsdiff). */
export function diffDraft(original: string, edited: string): DraftChange[] {
  return diffLines(original, edited).map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value, lines: c.count ?? 0 }));
}

function fail(message: string, line: number, column: number): DraftParse {
  return { ok: false, error: { message, line, column } };
}
