// The misbehaving demo's HTTP-level tricks. The SDK's seam refuses to ask for input the
// request's clientCapabilities did not declare (-32021), and never mints Mcp-Session-Id
// on the modern path, so both breaches are staged here, around the SDK handler.

const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';

// Whether a request asks for misbehaving mode (`?misbehave=1` on its URL).
export function wantsMisbehave(req: Request): boolean {
  const value = new URL(req.url).searchParams.get('misbehave');
  return value === '1' || value === 'true';
}

// Re-issues a POST whose envelope claims every input capability, so the server may ask
// for kinds the client never declared; the recorded request still shows the original.
export async function widenDeclaredCapabilities(req: Request): Promise<Request> {
  if (req.method !== 'POST') return req;
  const raw = await req.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return req;
  }
  const meta = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  if (!meta || typeof meta[CAPS_KEY] !== 'object' || meta[CAPS_KEY] === null) return req;
  meta[CAPS_KEY] = {
    ...(meta[CAPS_KEY] as object),
    elicitation: { form: {}, url: {} },
    sampling: { tools: {}, context: {} },
    roots: {},
  };
  const headers = new Headers(req.headers);
  headers.delete('content-length');
  return new Request(req.url, { method: 'POST', headers, body: JSON.stringify(body), signal: req.signal });
}

// Adds a session id to a modern response (the 2026 protocol has no sessions), echoing the
// client's if it sent one; the body, status and streaming are passed through untouched.
export function withSessionHeader(res: Response, sessionId: string): Response {
  const headers = new Headers(res.headers);
  headers.set('mcp-session-id', sessionId);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
