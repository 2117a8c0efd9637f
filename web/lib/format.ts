// The one place time, size and JSON text are formatted for display. Pure; no traffic is read
// here. Clock times use the user's locale (12- or 24-hour as their system says); durations
// round once, on whole units, so a carry never shows as "60 s".

/** `12 ms`, `1.40 s`, `2 min 3 s`, `3 h 5 min`, `2 d 4 h`; an em dash for null. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const sign = v < 0 ? '−' : '';
  if (Math.round(a) < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 9_995) return `${sign}${(a / 1000).toFixed(2)} s`;
  if (a < 59_950) return `${sign}${(a / 1000).toFixed(1)} s`;
  // Round to the smallest unit shown first, then split: 9 min 59.6 s is "10 min 0 s".
  const s = Math.round(a / 1000);
  if (s < 3600) return `${sign}${Math.floor(s / 60)} min ${s % 60} s`;
  const m = Math.round(a / 60_000);
  if (m < 48 * 60) return `${sign}${Math.floor(m / 60)} h ${m % 60} min`;
  const h = Math.round(a / 3_600_000);
  return `${sign}${Math.floor(h / 24)} d ${h % 24} h`;
}

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 });
const SHORT_CLOCK = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const when = (t: number | string | null | undefined): Date | null => {
  if (t === null || t === undefined) return null;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Wall-clock time with milliseconds, in the user's zone and locale: for exchange timing. */
export function clock(t: number | null | undefined): string {
  const d = when(t);
  return d ? CLOCK.format(d) : '—';
}

/** Wall-clock time to the second, for times a person acts on (a scheduled re-send). */
export function shortClock(t: number | string | null | undefined): string {
  const d = when(t);
  return d ? SHORT_CLOCK.format(d) : '—';
}

/** Date and time in the user's locale, for expiry and session names. Unparseable text is shown as is. */
export function dateTime(t: number | string | null | undefined): string {
  if (t === null || t === undefined) return '—';
  const d = when(t);
  return d ? DATE_TIME.format(d) : String(t);
}

/** JSON text of a value, indented, for showing decoded data as text. */
export function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Relative expiry seen from `now`: "expired 3 min 0 s before" / "valid for 42.0 s". */
export function until(expiresAt: string | null, now: number): string {
  if (!expiresAt) return 'no expiry';
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return expiresAt;
  const d = t - now;
  return d <= 0 ? `expired ${ms(-d)} before` : `valid for ${ms(d)}`;
}

/** A countdown for a live deadline: "expires in 8 min 16 s" (whole seconds), or "expired". */
export function countdown(at: string | number, now: number): string {
  const t = typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(t)) return String(at);
  const left = t - now;
  if (left <= 0) return 'expired';
  const s = Math.ceil(left / 1000);
  return s < 60 ? `expires in ${s} s` : `expires in ${ms(s * 1000)}`;
}

/**
 * A client's `clientInfo` (as the thread carries it, JSON text) as "name version"; text that
 * is not a clientInfo object is shown as it came.
 */
export function clientLabel(raw: string | null | undefined): string {
  if (!raw) return '';
  try {
    const v = JSON.parse(raw) as unknown;
    if (v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string') {
      const { name, version, title } = v as { name: string; version?: unknown; title?: unknown };
      const label = typeof title === 'string' && title !== name ? `${title} (${name})` : name;
      return typeof version === 'string' && version ? `${label} ${version}` : label;
    }
  } catch {
    // Not JSON: already a label.
  }
  return raw;
}

/** "1 conversation", "3 conversations": a count with its noun, singular for one. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
