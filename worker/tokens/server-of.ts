// What a verification key is entered for: one MCP server, named by its endpoint. Shared by
// the worker's keyring, the views that group findings per server, and the CLI's report.

/** Servers named so far, by URL: a session has few endpoints and names them once per token
 *  read (at 100k, `new URL` was 2 ms of every 16 a backlog's check slices took). Bounded:
 *  emptied when it holds MEMO_MAX, a session of that many URLs is parsed as before. */
const named = new Map<string, string>();
const MEMO_MAX = 1024;

/** Origin + path without query, hash or trailing slash: what a key is entered for. A
 *  wrapped stdio server (`stdio://<name>`) has no origin in the URL standard (`origin` is
 *  the string "null" for every non-special scheme), so it is named by scheme and host: one
 *  name per wrapped server, and a key entered for one is never tried on another's tokens. */
export function serverOf(url: string): string {
  let server = named.get(url);
  if (server === undefined) {
    if (named.size >= MEMO_MAX) named.clear();
    named.set(url, (server = nameServer(url)));
  }
  return server;
}

function nameServer(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    const origin = u.origin === 'null' ? `${u.protocol}//${u.host}` : u.origin;
    return origin + path;
  } catch {
    return url;
  }
}
