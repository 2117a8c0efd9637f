// What can be told of a JSON-RPC message from the two ends of a line too long to keep
// whole: its id and method, when they sit near the start (`{"jsonrpc":"2.0","id":1,…`) or
// the id near the end (`…,"jsonrpc":"2.0","id":1}`, the order the TypeScript SDK writes an
// answer in). A guess from text, never a parse: it is used only to pair a cut line with its
// request (the record says it is cut) and, in serve mode, to answer the caller with an error.

/** The id and method read from a cut line's ends; either may be missing. */
export interface CutMessage {
  id?: string | number;
  method?: string;
}

// A JSON id (number or string), as written: strings may hold escapes.
const ID = String.raw`(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*")`;
// `"id":…` among the first members, before any member whose value nests.
const HEAD_ID = new RegExp(String.raw`^\s*\{[^{}\[\]]*?"id"\s*:\s*` + ID);
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*` + ID + String.raw`\s*\}\s*$`);
const HEAD_METHOD = /^\s*\{[^{}[\]]*?"method"\s*:\s*"((?:[^"\\]|\\.)*)"/;

function value(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' || typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the id and method of a cut line from its first and last characters. */
export function cutMessage(head: string, tail: string): CutMessage {
  const start = head.slice(0, 1024);
  const out: CutMessage = {};
  const id = value(HEAD_ID.exec(start)?.[1]) ?? value(TAIL_ID.exec(tail)?.[1]);
  if (id !== undefined) out.id = id;
  const m = HEAD_METHOD.exec(start);
  const method = m ? value(`"${m[1]}"`) : undefined;
  if (typeof method === 'string') out.method = method;
  return out;
}
