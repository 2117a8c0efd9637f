// The inspector's Content Security Policy and the headers that go with it, for every
// response of its own server: `vite dev` (csp-plugin.ts) and the production server
// (serve/inspector-server.ts) both set exactly these, so tests under one hold for the other.
//
// Styles may be inline (Svelte injects component styles in dev; element style properties
// are set from script); `connect-src` must reach whatever MCP server the user watches, so
// it allows any http(s) origin, and the dev server's own websocket for hot reload.

/** The policy, one directive per entry. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http: https: ws://127.0.0.1:* ws://localhost:*",
  "worker-src 'self'",
  // The web app manifest; default-src allows it too, but it stays allowed if that tightens.
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sets the policy headers on a response (anything with setHeader: node or connect). */
export function setCspHeaders(res: { setHeader(name: string, value: string): unknown }): void {
  res.setHeader('Content-Security-Policy', CSP);
  // No page of ours names its URL to anyone: relay URLs carry the token.
  res.setHeader('Referrer-Policy', 'no-referrer');
}
