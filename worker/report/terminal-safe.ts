// Text from a capture (tool names, keys, messages, paths) printed to a terminal. A raw ESC,
// BEL or C1 control lets that text retitle the window, clear the screen, forge lines or
// plant OSC 8 links; bidi controls reorder what the reader sees. Every text output of the
// CLI passes what it did not write itself through here; colour codes are added after.

// C0 controls (newline and tab included: a value is printed on one line), DEL, C1, the
// line and paragraph separators, and the bidi embedding, override and isolate controls.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character shown as a visible `\uXXXX` escape. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
