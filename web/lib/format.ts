// Small display helpers: durations, clock times, sizes. Pure; no traffic is read here.

/** `12 ms`, `1.4 s`, `2 min 3 s`; an em dash for null. */
export function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const sign = v < 0 ? '−' : '';
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 60_000) return `${sign}${(a / 1000).toFixed(a < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(a / 60_000);
  if (m < 120) return `${sign}${m} min ${Math.round((a % 60_000) / 1000)} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${sign}${h} h ${m % 60} min`;
  return `${sign}${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Wall-clock time with milliseconds, in the user's zone. */
export function clock(t: number | null | undefined): string {
  if (t === null || t === undefined || !Number.isFinite(t)) return '—';
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Date and time, for expiry and session names. */
export function dateTime(t: number | string | null | undefined): string {
  if (t === null || t === undefined) return '—';
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toLocaleString();
}

/** JSON text of a value, indented, for showing decoded data as text. */
export function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Relative expiry: "expired 3 min ago" / "expires in 42 s". */
export function until(expiresAt: string | null, now: number): string {
  if (!expiresAt) return 'no expiry';
  const t = Date.parse(expiresAt);
  if (Number.isNaN(t)) return expiresAt;
  const d = t - now;
  return d <= 0 ? `expired ${ms(-d)} before` : `valid for ${ms(d)}`;
}
