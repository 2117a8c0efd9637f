import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// The relay's refusals. Every one is a JSON body `{ error }` that says what was refused and
// how to fix it. None of them ever echoes the request path, because a wrong or stale
// relay URL may carry a token (ours or an older one) and error bodies end up in logs.

// Answers a request with a status and a JSON `{ error }` body, and closes it.
export function refuse(res: ServerResponse, status: number, error: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

// The app's own origin as the browser spells it, from the socket the request came in on.
export function ownOrigin(req: IncomingMessage): string {
  const port = req.socket.localPort;
  return port === 80 ? 'http://127.0.0.1' : `http://127.0.0.1:${port}`;
}

// The host names a page or client may use to reach us: loopback only, on our own port.
function allowedHosts(port: number | undefined): string[] {
  return port === 80 ? ['127.0.0.1', 'localhost', '127.0.0.1:80', 'localhost:80'] : [`127.0.0.1:${port}`, `localhost:${port}`];
}

function isLoopbackAddress(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::ffff:127.0.0.1' || address === '::1';
}

// DNS rebinding guard: a page on evil.example whose name now resolves to 127.0.0.1 sends
// `Host: evil.example:5173`; only our loopback names on our own port get through. Returns
// the refusal message, or undefined when the request may proceed.
export function hostProblem(req: IncomingMessage): string | undefined {
  const port = req.socket.localPort;
  if (!isLoopbackAddress(req.socket.localAddress)) {
    return 'Refused: the relay only answers on 127.0.0.1. Start the inspector without --host and open http://127.0.0.1:' + port + '/.';
  }
  const host = (req.headers.host ?? '').toLowerCase();
  if (allowedHosts(port).includes(host)) return undefined;
  const shown = JSON.stringify(host.slice(0, 100));
  return `Refused: Host ${shown} is not this inspector (expected 127.0.0.1:${port} or localhost:${port}). Use http://127.0.0.1:${port}/; other host names are refused to block DNS rebinding.`;
}

// The page's origins: the same server reached as 127.0.0.1 or localhost.
function pageOrigins(req: IncomingMessage): string[] {
  const port = req.socket.localPort;
  return port === 80 ? ['http://127.0.0.1', 'http://localhost'] : allowedHosts(port).map((h) => `http://${h}`);
}

// Page-facing calls come only from the inspector page itself. A same-origin GET carries no
// `Origin` header in browsers (fetch spec: only CORS-tainted or non-GET requests get one),
// so an absent Origin is accepted when `Sec-Fetch-Site: same-origin` vouches for it. Tools
// that send neither (curl) are refused: the page API is not for them.
export function pageOriginProblem(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  const expected = ownOrigin(req);
  if (typeof origin === 'string') {
    if (pageOrigins(req).includes(origin.toLowerCase())) return undefined;
    const shown = JSON.stringify(origin.slice(0, 100));
    return `Refused: the relay's page API only answers the inspector page at ${expected} (this request came from Origin ${shown}). Open the inspector itself; external MCP clients use the relay URL with the token printed at start.`;
  }
  if (req.headers['sec-fetch-site'] === 'same-origin') return undefined;
  return `Refused: the relay's page API only answers the inspector page at ${expected}, and this request carries no Origin. Open the inspector in a browser; external MCP clients use the relay URL with the token printed at start.`;
}

// For the demo endpoint: browsers elsewhere may not drive it (a present Origin must be
// ours), while non-browser MCP clients, which send no Origin, may.
export function foreignOriginProblem(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || pageOrigins(req).includes(origin.toLowerCase())) return undefined;
  const shown = JSON.stringify(origin.slice(0, 100));
  return `Refused: Origin ${shown} may not use this server; only the inspector page at ${ownOrigin(req)} and non-browser clients may.`;
}

// Constant-time token comparison: both sides are hashed first so lengths never leak.
export function tokenMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

// The relay answers fetches only. A browser navigation, frame, script, style or image load
// of a relay URL would make a target's answer (or our JSON) a document or a script on the
// inspector's own origin. Browsers say what a request is for in Sec-Fetch-Dest; fetch,
// XHR and EventSource send `empty`. Non-browser MCP clients send no Sec-Fetch-* headers at
// all, so an absent header is not a navigation and passes.
export function destinationProblem(req: IncomingMessage): string | undefined {
  const dest = req.headers['sec-fetch-dest'];
  if (dest === undefined || dest === 'empty') return undefined;
  return `Refused: relay and demo URLs answer fetch requests only, not a browser ${JSON.stringify(String(dest).slice(0, 32))} load. Point an MCP client at the URL, or open the inspector at ${ownOrigin(req)}/.`;
}

/** Headers on everything under /relay/ and /demo/: never a document, never sniffed, no referrer. */
export const INERT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

// The page's secret: a cookie the relay sets when a browser opens the link printed at start
// (page-login.ts; never for a header, since any local program can forge headers), HttpOnly (no script reads it), SameSite=Strict (no other site's
// request carries it), named for our port (cookies ignore ports, and two inspectors may
// run side by side). The page API wants it on top of the Origin check, so a program that
// only forges Origin or Sec-Fetch-Site headers is refused.
export function pageCookieName(req: IncomingMessage): string {
  return `mrtr-page-${req.socket.localPort}`;
}

/** The Set-Cookie value that hands the page its secret. */
export function pageCookie(req: IncomingMessage, secret: string): string {
  return `${pageCookieName(req)}=${secret}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Why a page-API request lacks the page's secret, or undefined when it carries it. */
export function pageSecretProblem(req: IncomingMessage, secret: string): string | undefined {
  const name = pageCookieName(req);
  let given: string | undefined;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) given = part.slice(eq + 1).trim();
  }
  if (given !== undefined && tokenMatches(secret, given)) return undefined;
  return `Refused: the relay's page API answers only the inspector page opened in a browser at ${ownOrigin(req)}/ since this start (${given === undefined ? 'no' : 'a stale'} page cookie). Open the Inspector link printed in the terminal that started it (${ownOrigin(req)}/?token=…); external MCP clients use the relay URL with the token printed at start.`;
}
