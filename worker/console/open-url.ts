// Whether the Console may open a URL a server asked the user to visit (URL-mode
// elicitation). Hazard: a page of the inspector's own origin, opened from here, runs with
// the inspector's authority (its relay API, its storage), so a server could lead the user
// to a relay URL or page-API call on our origin. Only http(s) pages of other origins open.

/** The loopback names a page of ours is reached by: the same server as 127.0.0.1 or localhost. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` may not be opened from the page at `pageOrigin`, or null when it may. */
export function openUrlProblem(url: string, pageOrigin: string): string | null {
  let target: URL;
  let own: URL;
  try {
    target = new URL(url);
    own = new URL(pageOrigin);
  } catch {
    return 'Not an absolute URL: nothing was opened.';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `Only http and https URLs are opened, not ${target.protocol}`;
  const samePort = (target.port || (target.protocol === 'https:' ? '443' : '80')) === (own.port || (own.protocol === 'https:' ? '443' : '80'));
  const ours = target.origin === own.origin || (target.protocol === own.protocol && samePort && LOOPBACK.has(target.hostname) && LOOPBACK.has(own.hostname));
  if (ours) return "Refused: this URL is on the inspector's own origin, where a page would run with the inspector's access. Open it yourself only if you trust it.";
  return null;
}
