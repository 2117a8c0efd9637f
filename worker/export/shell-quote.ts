// POSIX shell quoting for copy-as-cURL. Single quotes make every byte literal except the
// single quote itself, which is closed, escaped and reopened: ' → '\''. No other
// character (newline, $, `, \, !, *) is special inside them, in sh, dash, bash or zsh.

/**
 * One shell word that reproduces `s` exactly. Hazard: a shell argument cannot hold NUL, so
 * NUL characters are dropped here; bodies that contain NUL go through printfWord instead.
 */
export function shellQuote(s: string): string {
  return `'${s.replace(/\0/g, '').replace(/'/g, `'\\''`)}'`;
}

/** `s` unquoted when it is a plain word (letters, digits, `_-./:@%+=,`), else shellQuote(s). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : shellQuote(s);
}

/**
 * A `printf '%b' '…'` command whose output is `s` byte for byte, NUL included (written
 * `\0000`, the %b octal escape; backslashes are doubled so no other escape fires). Used to
 * pipe a body that a quoted argument cannot carry.
 */
export function printfCommand(s: string): string {
  const escaped = s.replace(/\\/g, '\\\\').replace(/\0/g, '\\0000');
  return `printf '%b' ${shellQuote(escaped)}`;
}
