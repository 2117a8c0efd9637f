// Flips one character in the middle of a token's body (for a `v1.<body>.<mac>` token, the
// middle of <body>), swapping it for a neighbouring base64url character so the result is
// still well-formed but no longer matches its MAC.
export function flipMiddleChar(token: string): string {
  const first = token.indexOf('.');
  const last = token.lastIndexOf('.');
  const [start, end] = first >= 0 && last > first ? [first + 1, last] : [0, token.length];
  const at = start + Math.floor((end - start) / 2);
  const ch = token[at];
  if (ch === undefined) throw new Error('cannot tamper with an empty token');
  const swapped = ch === 'A' ? 'B' : ch === 'a' ? 'b' : ch === '0' ? '1' : 'A';
  return token.slice(0, at) + swapped + token.slice(at + 1);
}
