import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { ExchangeStart } from './exchange-recorder.js';
import { MAX_RECORDED_BYTES, pairsFromRaw, type ExchangeRecorder } from './exchange-recorder.js';
import { bodyOnce, describeError, downstreamHeaders, isUnrecordedRequestHeader, pipeResponse, readBody, upstreamHeaders, type Fetcher } from './forward.js';
import { refuse } from './guards.js';

/** Where one relayed request goes. */
export interface RelayRoute {
  targetId: string;
  /** The target's URL, with the incoming query string merged in. */
  url: string;
  fetch: Fetcher;
}

/** How this kind of relaying differs: the page's forwarder vs an external client's URL. */
export interface RelayPolicy {
  /** Request headers (lower-case names) not to pass upstream, beyond the hop-by-hop ones. */
  dropRequest?: (name: string) => boolean;
  /** Response headers not to pass back. */
  dropResponse?: (name: string) => boolean;
  /** Headers added to the response (CORS for the page). */
  extraResponse?: (upstream: Response) => OutgoingHttpHeaders;
  /** The most of the request body to record (default MAX_RECORDED_BYTES). */
  maxRecordedBytes?: number;
  /** Starts a record for the exchange; absent when someone else records it (the SW). */
  record?: (start: Omit<ExchangeStart, 'id' | 'seq'>) => ExchangeRecorder;
}

// The target URL with the incoming query string's parameters appended.
export function targetUrl(base: string, incoming: URLSearchParams): string {
  const url = new URL(base);
  for (const [k, v] of incoming) url.searchParams.append(k, v);
  return url.href;
}

const CLIENT_GONE = 'The client closed the connection before the response arrived.';

/**
 * Forwards one request to its target and streams the answer back, recording it when the
 * policy says so. The request body is read whole first (it is one JSON-RPC message, and
 * the record needs it); the response is never held: see pipeResponse.
 */
export async function relayExchange(req: IncomingMessage, res: ServerResponse, route: RelayRoute, policy: RelayPolicy): Promise<void> {
  const startedAt = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const bytes = await readBody(req);
  if (!bytes) {
    refuse(res, 413, 'Request body too large for the relay (limit 16 MiB). MCP requests are single JSON-RPC messages; send a smaller one.');
    return;
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && bytes.length > 0;
  const limit = policy.maxRecordedBytes ?? MAX_RECORDED_BYTES;
  const recorder = policy.record?.({
    startedAt,
    method,
    url: route.url,
    headers: pairsFromRaw(req.rawHeaders).filter((h) => !isUnrecordedRequestHeader(h.name)),
    // The record keeps the forwarded buffer itself; only a body past the limit has its
    // start copied out, so the whole upload is not held for the life of the record.
    ...(hasBody ? { body: bytes.length > limit ? bytes.slice(0, limit) : bytes } : {}),
    ...(hasBody && bytes.length > limit ? { bodyTruncated: { recordedBytes: limit, totalBytes: bytes.length } } : {}),
  });

  // The client may give up while the target is still thinking: abort the upstream call.
  const abort = new AbortController();
  const onEarlyClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onEarlyClose);
  let upstream: Response;
  try {
    const headers = upstreamHeaders(req.rawHeaders, policy.dropRequest);
    upstream = await route.fetch(
      new Request(route.url, {
        method,
        headers,
        // The one buffer read above goes upstream as it is (see bodyOnce).
        ...(hasBody ? bodyOnce(bytes, headers) : {}),
        redirect: 'manual',
        signal: abort.signal,
      }),
    );
  } catch (err) {
    if (abort.signal.aborted) {
      recorder?.fail('aborted', CLIENT_GONE);
      return;
    }
    const reason = describeError(err);
    recorder?.fail('failed', `Could not reach the target: ${reason}`);
    refuse(res, 502, `Could not reach target "${route.targetId}" at ${route.url}: ${reason}. Is that server running, and is the URL right?`);
    return;
  } finally {
    res.off('close', onEarlyClose);
  }
  const headers = { ...downstreamHeaders(upstream.headers, policy.dropResponse), ...policy.extraResponse?.(upstream) };
  await pipeResponse(upstream, res, headers, abort, recorder);
}
