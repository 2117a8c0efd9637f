// What a verification key is entered for: one MCP server, named by its endpoint. Shared by
// the worker's keyring, the views that group findings per server, and the CLI's report.

/** Origin + path without query, hash or trailing slash: what a key is entered for. */
export function serverOf(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    return u.origin + path;
  } catch {
    return url;
  }
}
