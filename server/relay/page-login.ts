// How a browser gets the page cookie: only by opening the one link printed in the terminal
// that started the inspector (`http://127.0.0.1:<port>/?token=<page token>`). The token is
// exchanged for the HttpOnly cookie and the browser is sent on to the clean URL, so the
// token leaves the address bar. Another local user can reach the port and forge any header
// (a navigation's Sec-Fetch-* included), so no header ever earns the cookie; only the token,
// which lives in the developer's terminal and 0600 files, does.
//
// Hazard: the page's own document is what a stranger would load first; without the cookie
// it is replaced by a short page saying where the link is, never by the app (whose every
// page-API call would fail with less helpful messages).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pageCookie, pageCookieName, tokenMatches } from './guards.js';

/** The query parameter of the one link that signs a browser in. */
export const PAGE_TOKEN_PARAM = 'token';

/** The link printed at start: the page with its token. */
export function pageLoginUrl(origin: string, pageToken: string): string {
  return `${origin}/?${PAGE_TOKEN_PARAM}=${pageToken}`;
}

// The cookie's value when the request carries one of ours.
function cookieValue(req: IncomingMessage): string | undefined {
  const name = pageCookieName(req);
  let given: string | undefined;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) given = part.slice(eq + 1).trim();
  }
  return given;
}

/** True when the request carries this start's page cookie. */
export function hasPageCookie(req: IncomingMessage, secret: string): boolean {
  const given = cookieValue(req);
  return given !== undefined && tokenMatches(secret, given);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a browser without the cookie gets instead of the app: where the link is, and why. */
export function lockedPage(origin: string, reason: 'no-cookie' | 'wrong-token', infoFile: string | undefined): string {
  const first = reason === 'wrong-token'
    ? `<p><strong>This link's token is not this inspector's.</strong> The token changes every time the inspector starts (unless MRTR_PAGE_TOKEN is set), so a link from an earlier start no longer opens it.</p>`
    : `<p><strong>This browser has not been let in yet.</strong> Only the person who started the inspector may use it: it calls their MCP servers, runs their stdio tools and holds their captures.</p>`;
  const file = infoFile ? `<p>Lost the terminal? The same link is in <code>${escapeHtml(infoFile)}</code> (readable only by you): <code>cat ${escapeHtml(infoFile)}</code>.</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mrtr-inspector: open the link from your terminal</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f2f2f2;padding:0 .2em;border-radius:3px;word-break:break-all}</style>
</head><body data-testid="page-locked">
<h1>Open the link printed in your terminal</h1>
${first}
<p>Open the <em>Inspector</em> link that <code>npm start</code> or <code>npx mrtr-inspector</code> printed when it started. It looks like <code>${escapeHtml(origin)}/?token=…</code>. Opening it once lets this browser in: afterwards <code>${escapeHtml(origin)}/</code> works in every tab of this browser, reloads included, until the inspector restarts.</p>
${file}
<p>Started with <code>--open</code>? The browser it opened is already in; use that one.</p>
</body></html>
`;
}

/** What the login step needs to know. */
export interface PageLogin {
  pageToken: string;
  pageSecret: string;
  /** The 0600 file that also holds the link (named on the locked page), when there is one. */
  infoFile?: string;
}

function answerHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

/**
 * For a request outside /relay/ and /demo/: exchanges the link's token for the cookie (and
 * redirects to the URL without it), or answers the page's document with the locked page when
 * the cookie is missing. Returns true when it answered; false lets the page's files be served.
 */
export function handlePageLogin(req: IncomingMessage, res: ServerResponse, url: URL, login: PageLogin, origin: string): boolean {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  const given = url.searchParams.get(PAGE_TOKEN_PARAM);
  if (given !== null) {
    if (!tokenMatches(login.pageToken, given)) {
      answerHtml(res, 403, lockedPage(origin, 'wrong-token', login.infoFile));
      return true;
    }
    url.searchParams.delete(PAGE_TOKEN_PARAM);
    const clean = url.pathname + (url.searchParams.size > 0 ? `?${url.searchParams}` : '');
    res.writeHead(303, { location: clean, 'set-cookie': pageCookie(req, login.pageSecret), 'cache-control': 'no-store' });
    res.end();
    return true;
  }
  const isDocument = url.pathname === '/' || url.pathname === '/index.html';
  if (isDocument && !hasPageCookie(req, login.pageSecret)) {
    answerHtml(res, 403, lockedPage(origin, 'no-cookie', login.infoFile));
    return true;
  }
  return false;
}
