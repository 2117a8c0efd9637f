// Console sends announced by the page just before it fetches them: the record id the
// analysis worker files the send under, and the exchange it derives from. The tap files the
// matching request under that id (source `console`), so each Console send is stored once,
// with its link, instead of once by the tap and again by the worker.
//
// Hazard: the service worker may be stopped between the announcement and the fetch; the
// tap then records the request as ordinary `sw` traffic without the link. Nothing is lost
// but the link. Entries expire so an announced send that never came does not linger.

/** What the page announces: the request (URL + exact body text) and its record. */
export interface ConsoleLink {
  id: string;
  derivedFrom?: string;
}

const TTL_MS = 60_000;
const pending = new Map<string, { link: ConsoleLink; until: number }>();

function keyOf(url: string, body: string): string {
  return `${url}\n${body}`;
}

/** Remembers an announced Console send. */
export function expectConsoleSend(url: string, body: string, link: ConsoleLink, now = Date.now()): void {
  for (const [k, v] of pending) if (v.until < now) pending.delete(k);
  pending.set(keyOf(url, body), { link, until: now + TTL_MS });
}

/** The link of an announced send with this URL and body, taken once; undefined otherwise. */
export function takeConsoleLink(url: string, body: string | undefined, now = Date.now()): ConsoleLink | undefined {
  if (body === undefined) return undefined;
  const k = keyOf(url, body);
  const hit = pending.get(k);
  if (!hit) return undefined;
  pending.delete(k);
  return hit.until >= now ? hit.link : undefined;
}
