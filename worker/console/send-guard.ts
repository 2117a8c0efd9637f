// Where a Console send may go. A capture file is data, not a command: a hostile HAR whose
// rounds name the inspector's own API (`/relay/api/targets`) or a stdio server's endpoint
// (`/relay/stdio/<name>`), re-sent with `r`, would act with the page's cookie and run the
// developer's tools. Every Console send (step, fork, re-send, edit, tamper, replay, catalog)
// is judged here, once, by one pure function: the page's transport and its endpoint choice
// both ask it, and the page turns `ask` into a prompt naming the host.

/** The verdict on one send. */
export type SendVerdict =
  | { kind: 'allowed' }
  | { kind: 'refused'; reason: string }
  /** A host the user has not used in this page: ask first, naming it. */
  | { kind: 'ask'; host: string };

/** What the page knows when it judges a send. */
export interface SendGuardContext {
  /** The page's own origins (the inspector as 127.0.0.1 and as localhost, same port). */
  ownOrigins: readonly string[];
  /** Origins the user used in this page: watched targets, and hosts confirmed at a prompt. */
  usedOrigins: ReadonlySet<string>;
  /** Attached stdio servers the user picked in this page's Console (by name). */
  pickedStdio: ReadonlySet<string>;
}

const FORWARD = '/relay/api/forward/';
const STDIO_PAGE = '/relay/stdio/';
const STDIO_PREFIX = 'stdio-';

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Judges a send to `url` (absolute, or relative to the first own origin). */
export function judgeSend(url: string, ctx: SendGuardContext): SendVerdict {
  let u: URL;
  try {
    u = new URL(url, ctx.ownOrigins[0]);
  } catch {
    return { kind: 'refused', reason: `"${url.slice(0, 100)}" is not a URL the Console can send to.` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { kind: 'refused', reason: `The Console sends over http(s) only, not ${u.protocol}.` };
  if (u.username || u.password) return { kind: 'refused', reason: 'The Console does not send to URLs that carry a user name or password.' };
  const own = ctx.ownOrigins.map((o) => o.toLowerCase()).includes(u.origin.toLowerCase());
  if (!own) return ctx.usedOrigins.has(u.origin) ? { kind: 'allowed' } : { kind: 'ask', host: u.host };

  const path = u.pathname;
  if (path === '/demo/mcp') return { kind: 'allowed' };
  const stdioName = path.startsWith(STDIO_PAGE)
    ? decode(path.slice(STDIO_PAGE.length))
    : path.startsWith(FORWARD) && decode(path.slice(FORWARD.length)).startsWith(STDIO_PREFIX)
      ? decode(path.slice(FORWARD.length)).slice(STDIO_PREFIX.length)
      : undefined;
  if (stdioName !== undefined) {
    if (ctx.pickedStdio.has(stdioName)) return { kind: 'allowed' };
    return { kind: 'refused', reason: `Not sent: ${path.slice(0, 100)} is the inspector's endpoint for the stdio server "${stdioName.slice(0, 64)}", which runs your tools as you. Pick that server in the Console's stdio list to call it; a capture's URL never does.` };
  }
  // The page's forwarder reaches only watched targets, which the user added.
  if (path.startsWith(FORWARD) && path.length > FORWARD.length && !path.slice(FORWARD.length).includes('/')) return { kind: 'allowed' };
  if (path.startsWith('/relay/')) {
    return { kind: 'refused', reason: `Not sent: ${path.startsWith('/relay/api/') ? path.slice(0, 100) : 'that /relay/ URL'} is the inspector's own API, not an MCP server; the Console never sends there (a capture's URL may point at it to act with this page's authority).` };
  }
  return { kind: 'refused', reason: `Not sent: ${path.slice(0, 100)} on the inspector's own origin is not an MCP endpoint (the embedded demo is /demo/mcp).` };
}
