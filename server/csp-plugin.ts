// A strict Content Security Policy on every response of the inspector's dev server (the
// policy itself is server/csp.ts, shared with the production server), so captured text can
// never become running script. The browser tests run under it.
import type { Connect, Plugin } from 'vite';
import { setCspHeaders } from './csp.js';

export { CSP } from './csp.js';

const setCsp: Connect.NextHandleFunction = (_req, res, next) => {
  setCspHeaders(res);
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
