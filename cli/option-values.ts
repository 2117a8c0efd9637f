// The values the commands' options share (ports, numbers, http URLs, one-of choices), read
// one way with one wording of each error, so `serve`, `lint`, `replay`, `check` and `mock`
// refuse the same bad value with the same message. Each returns the value or the message.

/** Every command, as an unknown command's error lists them. */
export const COMMANDS_SENTENCE = 'the commands are "serve" (the default), "lint", "replay", "wrap", "check" and "mock"';

/** What the user typed, cut short for an error message. */
const typed = (raw: string): string => JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** `--port N`: 0–65535 (0: any free port); `dflt` when not given. */
export function portValue(option: string, raw: string | undefined, dflt: number): number | string {
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  return raw.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 65535 ? n : `${option} needs a port number from 0 to 65535, got ${typed(raw)}`;
}

/**
 * A number above 0 (or 0 too, with `allowZero`), whole with `integer`; `dflt` when not
 * given. `unit` names what it counts in the message ("seconds").
 */
export function numberValue(option: string, raw: string | undefined, dflt: number, opts: { integer?: boolean; allowZero?: boolean; unit?: string } = {}): number | string {
  if (raw === undefined) return dflt;
  const n = Number(raw);
  const ok = raw.trim() !== '' && Number.isFinite(n) && (n > 0 || (opts.allowZero === true && n === 0)) && (opts.integer !== true || Number.isInteger(n));
  if (ok) return n;
  const what = `${opts.allowZero ? 'non-negative' : 'positive'} ${opts.integer ? 'whole number' : 'number'}${opts.unit ? ` of ${opts.unit}` : ''}`;
  return `${option} needs a ${what}, got ${typed(raw)}`;
}

/** An absolute http(s) URL; `what` says what it is for ("--target", "check"). */
export function httpUrlValue(what: string, raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${what} needs an http or https URL such as http://localhost:3000/mcp, got ${typed(raw)}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${what} needs an http or https URL, got ${typed(raw)}`;
  return url;
}

/** One of `allowed`; `dflt` when not given. */
export function choiceValue<T extends string>(option: string, raw: string | undefined, allowed: readonly T[], dflt: T): T | { error: string } {
  if (raw === undefined) return dflt;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  const list = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
  return { error: `${option} must be ${list}, got ${typed(raw)}` };
}
