// What a verification key is entered for: one MCP server, named by its endpoint. Shared by
// the worker's keyring, the views that group findings per server, and the CLI's report.

/** Origin + path without query, hash or trailing slash: what a key is entered for. A
 *  wrapped stdio server (`stdio://<name>`) has no origin in the URL standard (`origin` is
 *  the string "null" for every non-special scheme), so it is named by scheme and host: one
 *  name per wrapped server, and a key entered for one is never tried on another's tokens. */
export function serverOf(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    const origin = u.origin === 'null' ? `${u.protocol}//${u.host}` : u.origin;
    return origin + path;
  } catch {
    return url;
  }
}
