// A strict Content Security Policy on every response of the inspector's own server (dev
// and `npm start`), so captured text can never become running script: no inline script,
// no eval, nothing loaded from elsewhere. The browser tests run under it.
//
// Styles may be inline (Svelte injects component styles in dev; element style properties
// are set from script); `connect-src` must reach whatever MCP server the user watches, so
// it allows any http(s) origin, and the dev server's own websocket for hot reload.
import type { Connect, Plugin } from 'vite';

/** The policy, one directive per entry. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' http: https: ws://127.0.0.1:* ws://localhost:*",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const setCsp: Connect.NextHandleFunction = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', CSP);
  // No page of ours names its URL to anyone: relay URLs carry the token.
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** Adds the header in front of every other middleware, for `vite dev` and `vite preview`. */
export function cspPlugin(): Plugin {
  const front = (m: Connect.Server) => (m.stack as { route: string; handle: Connect.NextHandleFunction }[]).unshift({ route: '', handle: setCsp });
  return {
    name: 'mrtr-inspector:csp',
    configureServer(server) {
      front(server.middlewares);
    },
    configurePreviewServer(server) {
      front(server.middlewares);
    },
  };
}
