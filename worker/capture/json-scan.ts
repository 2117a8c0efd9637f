// A JSON syntax checker used only after JSON.parse has refused a file: it says where (line
// and column) and why, the same in every engine (V8's own messages often name no position),
// and, for a HAR cut off or damaged mid-way, where each complete `log.entries` element lies
// so the readable ones can be salvaged. Iterative, so any nesting depth is safe; linear.

/** Where and why a text is not JSON. */
export interface JsonSyntaxProblem {
  /** 0-based character offset. */
  offset: number;
  /** 1-based line and column. */
  line: number;
  column: number;
  reason: string;
}

/** What the scan found. */
export interface JsonScan {
  /** Absent when the text is valid JSON. */
  problem?: JsonSyntaxProblem;
  /** True once a `log.entries` array was opened at the top level. */
  entriesOpened: boolean;
  /** True when that array was closed before any problem. */
  entriesClosed: boolean;
  /** [start, end) of each complete element of `log.entries`, in order. */
  entrySpans: Array<[number, number]>;
  /** The problem lies inside `log.entries` (within element `entrySpans.length` or between elements). */
  problemInEntries: boolean;
  /** The deepest nesting seen and where it was first reached. */
  deepest: { depth: number; line: number; column: number };
}

const enum Role { Other, Root, Log, Entries }
const enum S { Value, ValueOrClose, KeyOrClose, Key, Colon, CommaOrClose, End }

interface Frame { obj: boolean; role: Role; key: string }

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** 1-based line and column of an offset (LF ends a line). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Index just past the closing quote of the string opening at `i`, or a problem. */
function scanString(text: string, i: number): number | { at: number; reason: string } {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c < 32) return { at: j, reason: 'a control character (such as a raw line break) inside a string' };
    if (c === 92) {
      const e = text[j + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) return { at: j, reason: 'a bad \\u escape in a string' };
        j += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) j++;
      else return { at: j, reason: e === undefined ? 'the text ends inside a string' : 'a bad escape in a string' };
    }
  }
  return { at: text.length, reason: 'the text ends inside a string' };
}

/** Checks JSON syntax and locates `log.entries` elements; see the file comment. */
export function scanJson(text: string): JsonScan {
  const out: JsonScan = {
    entriesOpened: false, entriesClosed: false, entrySpans: [], problemInEntries: false, deepest: { depth: 0, line: 1, column: 1 },
  };
  let deepestAt = 0;
  const stack: Frame[] = [];
  let state: S = S.Value;
  let entryStart = -1;
  let i = 0;
  const finish = () => { Object.assign(out.deepest, lineColumn(text, deepestAt)); return out; };
  const fail = (at: number, reason: string): JsonScan => {
    const { line, column } = lineColumn(text, at);
    out.problem = { offset: at, line, column, reason };
    out.problemInEntries = stack.some((f) => f.role === Role.Entries);
    return finish();
  };
  const valueDone = (end: number) => {
    const top = stack[stack.length - 1];
    if (!top) state = S.End;
    else {
      state = S.CommaOrClose;
      if (top.role === Role.Entries) out.entrySpans.push([entryStart, end]);
    }
  };
  const open = (obj: boolean) => {
    const top = stack[stack.length - 1];
    let role = Role.Other;
    if (!top) role = obj ? Role.Root : Role.Other;
    else if (top.role === Role.Root && top.key === 'log' && obj) role = Role.Log;
    else if (top.role === Role.Log && top.key === 'entries' && !obj) role = Role.Entries;
    if (role === Role.Entries) out.entriesOpened = true;
    stack.push({ obj, role, key: '' });
    if (stack.length > out.deepest.depth) { out.deepest.depth = stack.length; deepestAt = i; }
    state = obj ? S.KeyOrClose : S.ValueOrClose;
  };
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    const ch = text[i];
    // Read through a cast: the closures above also move `state`, which TS cannot see.
    const st = state as S;
    if (st === S.End) return fail(i, 'more text after the end of the JSON value');
    if (st === S.Value || st === S.ValueOrClose) {
      if (st === S.ValueOrClose && ch === ']') {
        const f = stack.pop()!;
        if (f.role === Role.Entries) out.entriesClosed = true;
        valueDone(i + 1);
        continue;
      }
      const top = stack[stack.length - 1];
      if (top && top.role === Role.Entries) entryStart = i;
      if (ch === '{' || ch === '[') { open(ch === '{'); continue; }
      if (ch === '"') {
        const r = scanString(text, i);
        if (typeof r !== 'number') return fail(r.at, r.reason);
        i = r - 1;
        valueDone(r);
        continue;
      }
      if (ch === '-' || (c >= 48 && c <= 57)) {
        NUMBER.lastIndex = i;
        const m = NUMBER.exec(text);
        if (!m) return fail(i, 'a malformed number');
        i += m[0].length - 1;
        valueDone(i + 1);
        continue;
      }
      const lit = ch === 't' ? 'true' : ch === 'f' ? 'false' : ch === 'n' ? 'null' : '';
      if (lit && text.startsWith(lit, i)) {
        i += lit.length - 1;
        valueDone(i + 1);
        continue;
      }
      return fail(i, `unexpected ${JSON.stringify(ch)} where a value was expected`);
    }
    if (st === S.KeyOrClose || st === S.Key) {
      if (st === S.KeyOrClose && ch === '}') {
        stack.pop();
        valueDone(i + 1);
        continue;
      }
      if (ch !== '"') return fail(i, `unexpected ${JSON.stringify(ch)} where a property name in double quotes was expected`);
      const r = scanString(text, i);
      if (typeof r !== 'number') return fail(r.at, r.reason);
      // Raw key text; escaped spellings of "log"/"entries" are not recognised (harmless).
      stack[stack.length - 1].key = text.slice(i + 1, r - 1);
      i = r - 1;
      state = S.Colon;
      continue;
    }
    if (st === S.Colon) {
      if (ch !== ':') return fail(i, `unexpected ${JSON.stringify(ch)} where ':' was expected`);
      state = S.Value;
      continue;
    }
    // CommaOrClose
    const top = stack[stack.length - 1];
    if (ch === ',') { state = top.obj ? S.Key : S.Value; continue; }
    if ((ch === '}' && top.obj) || (ch === ']' && !top.obj)) {
      const f = stack.pop()!;
      if (f.role === Role.Entries) out.entriesClosed = true;
      valueDone(i + 1);
      continue;
    }
    return fail(i, `unexpected ${JSON.stringify(ch)} where ',' or '${top.obj ? '}' : ']'}' was expected`);
  }
  if ((state as S) !== S.End) {
    return fail(text.length, stack.length ? 'the text ends before the JSON is complete (cut off?)' : 'no JSON value');
  }
  return finish();
}
