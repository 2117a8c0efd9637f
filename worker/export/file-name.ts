// The name an export is saved under, from the name of the session it came from.

/**
 * A session imported from "violations.har" is named after its file; its export must not
 * come out as "violations.har.har". A note after the extension ("(first N, cancelled)") is kept.
 */
export function withoutCaptureExt(name: string): string {
  return name.replace(/\.(har|jsonl|ndjson|json)(\s*\(.*\))?$/i, '$2').trim() || name;
}
