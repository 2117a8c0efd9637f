// Finds where each element of a HAR's `log.entries` lies in the file text, so that big
// captures are parsed one entry at a time instead of as one tree: the whole-document tree
// of a 100 MB HAR is ~3x its size and would be the import's memory peak. A fast path only:
// anything unusual (duplicate keys, no entries array, an entry or the envelope that is not
// valid JSON) returns null, and the caller parses the whole document as before, with its
// precise error reporting.

/** The entries' spans and the document without them, or null when the fast path declines. */
export interface HarSplit {
  /** [start, end) of each element of `log.entries`, in order. */
  spans: Array<[number, number]>;
  /** The whole document parsed with an empty `log.entries` (creator, pages, …). */
  envelope: unknown;
}

const QUOTE = 34, BACKSLASH = 92, OPEN_OBJ = 123, CLOSE_OBJ = 125, OPEN_ARR = 91, CLOSE_ARR = 93, COMMA = 44, COLON = 58;

/** Index just past the string that opens at `i`, or -1 when it never closes. Uses
 *  indexOf (fast) and counts the backslashes before each quote to skip escaped ones. */
export function skipString(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let b = q - 1;
    while (b > i && text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The first index at or after `i` that is not JSON whitespace (or the text's length). */
export function nextNonSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
  return i;
}

/** Splits a HAR text into entry spans; null when it is not a plain HAR (see above). */
export function splitHarEntries(text: string): HarSplit | null {
  let depth = 0;
  // Path of the containers we are in: 'log' at depth 2 and 'entries' at depth 3 matter.
  let inLog = false;
  let logDepth = -1;
  let entriesOpen = -1;
  let entriesClose = -1;
  let seenLog = 0;
  let seenEntries = 0;
  let lastKey = '';
  const spans: Array<[number, number]> = [];
  let elementStart = -1;
  let afterComma = false; // `[1,]` is not JSON: a comma must be followed by an element
  for (let i = nextNonSpace(text, 0); i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (end < 0) return null;
      const after = nextNonSpace(text, end);
      if (text.charCodeAt(after) === COLON && depth <= 2) lastKey = text.slice(i + 1, end - 1);
      else if (entriesOpen >= 0 && entriesClose < 0 && depth === 3 && elementStart < 0) {
        elementStart = i;
        afterComma = false;
      }
      i = end - 1;
      continue;
    }
    if (c === OPEN_OBJ || c === OPEN_ARR) {
      depth++;
      if (depth === 2 && c === OPEN_OBJ && lastKey === 'log') {
        if (++seenLog > 1) return null;
        inLog = true;
        logDepth = depth;
      } else if (depth === 3 && inLog && c === OPEN_ARR && lastKey === 'entries') {
        if (++seenEntries > 1) return null;
        entriesOpen = i;
      } else if (depth === 4 && entriesOpen >= 0 && entriesClose < 0 && elementStart < 0) {
        elementStart = i;
        afterComma = false;
      }
      lastKey = '';
      continue;
    }
    if (c === CLOSE_OBJ || c === CLOSE_ARR) {
      if (depth === 3 && entriesOpen >= 0 && entriesClose < 0) {
        if (c !== CLOSE_ARR || afterComma) return null;
        if (elementStart >= 0) spans.push([elementStart, trimEnd(text, i)]);
        elementStart = -1;
        entriesClose = i;
      }
      if (depth === logDepth && inLog) inLog = false;
      depth--;
      if (depth < 0) return null;
      continue;
    }
    if (c === COMMA && depth === 3 && entriesOpen >= 0 && entriesClose < 0) {
      if (elementStart < 0) return null;
      spans.push([elementStart, trimEnd(text, i)]);
      elementStart = -1;
      afterComma = true;
      continue;
    }
    // Any other non-space character inside the entries array starts a scalar element.
    if (depth === 3 && entriesOpen >= 0 && entriesClose < 0 && elementStart < 0 && c !== 32 && c !== 10 && c !== 13 && c !== 9) {
      elementStart = i;
      afterComma = false;
    }
  }
  if (depth !== 0 || entriesOpen < 0 || entriesClose < 0) return null;
  let envelope: unknown;
  try {
    envelope = JSON.parse(text.slice(0, entriesOpen + 1) + text.slice(entriesClose));
  } catch {
    return null;
  }
  return { spans, envelope };
}

/** `end` moved back over JSON whitespace. */
export function trimEnd(text: string, end: number): number {
  while (end > 0) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
    end--;
  }
  return end;
}
