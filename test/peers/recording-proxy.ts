import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { createParser } from 'eventsource-parser';
import type { Har, HarEntry, HarHeader, MrtrEvent } from './har-types.js';

// Options for startRecordingProxy.
export interface RecordingProxyOptions {
  /** Where to forward: scheme, host and port are used; the request path is kept as sent. */
  target: string;
  /** The `_mrtr.client` label written on each entry (default: `127.0.0.1:<client port>`). */
  client?: string;
  /** Optional label for an exchange, asked once its request body is in (e.g. a call id). */
  tagRequest?: (method: string, url: string, body: string) => string | undefined;
}

// A running proxy: its URL, the recording so far, and teardown.
export interface RecordingProxy {
  /** The URL to point a client at (same path as the target). */
  url: string;
  /** Index the next request to arrive will get in log.entries. */
  readonly nextSeq: number;
  /** Labels handed out by tagRequest, by entry index. */
  tagOf(seq: number): string | undefined;
  /** Resolves once every exchange started so far has finished (or been cut off). */
  settled(): Promise<void>;
  /** The recording as HAR 1.2, entries in the order their requests started. */
  har(): Har;
  /** Waits for settled() and writes the HAR file. */
  writeHar(path: string): Promise<void>;
  /** Stops listening, cuts any open stream and closes every socket it opened. */
  close(): Promise<void>;
}

interface Pending {
  entry: HarEntry;
  tag?: string;
  done: Promise<void>;
}

const toHeaders = (raw: string[]): HarHeader[] => {
  const out: HarHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i], value: raw[i + 1] });
  return out;
};

const isEventStream = (contentType: string | undefined) => (contentType ?? '').toLowerCase().startsWith('text/event-stream');

// Starts an HTTP recording proxy on 127.0.0.1 (random port) in front of `target`. Responses
// are streamed through chunk by chunk (an event stream reaches the client as it is written),
// and each exchange is recorded with its SSE events' arrival times.
export async function startRecordingProxy(opts: RecordingProxyOptions): Promise<RecordingProxy> {
  const target = new URL(opts.target);
  const exchanges: Pending[] = [];
  const upstreamRequests = new Set<ReturnType<typeof httpRequest>>();
  let proxyUrl = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as Socket;
    const started = Date.now();
    const t0 = performance.now();
    const seq = exchanges.length;
    const requestHeaders = toHeaders(req.rawHeaders);
    const host = req.headers.host ?? new URL(proxyUrl).host;
    const entry: HarEntry = {
      startedDateTime: new Date(started).toISOString(),
      time: 0,
      request: {
        method: req.method ?? 'GET',
        url: `http://${host}${req.url ?? '/'}`,
        httpVersion: `HTTP/${req.httpVersion}`,
        cookies: [],
        headers: requestHeaders,
        queryString: [...new URL(req.url ?? '/', 'http://x').searchParams].map(([name, value]) => ({ name, value })),
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 0,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        content: { size: 0, mimeType: '', text: '' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
      serverIPAddress: target.hostname,
      connection: String(socket.remotePort ?? ''),
      _mrtr: { source: 'import', client: opts.client ?? `127.0.0.1:${socket.remotePort}`, events: [] },
    };
    let finish!: () => void;
    const pending: Pending = { entry, done: new Promise<void>((resolve) => (finish = resolve)) };
    exchanges.push(pending);

    const bodyChunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => bodyChunks.push(chunk));
    req.on('end', () => {
      const sentAt = performance.now();
      const body = Buffer.concat(bodyChunks);
      const text = body.toString('utf8');
      entry.request.bodySize = body.length;
      if (body.length > 0 || req.method === 'POST') {
        entry.request.postData = { mimeType: req.headers['content-type'] ?? '', text };
      }
      pending.tag = opts.tagRequest?.(entry.request.method, entry.request.url, text);

      // Forward with the client's headers, only Host rewritten to the target.
      const forwardHeaders: string[] = [];
      for (const { name, value } of requestHeaders) {
        forwardHeaders.push(name, name.toLowerCase() === 'host' ? target.host : value);
      }
      const upstream = httpRequest({
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: forwardHeaders as unknown as Record<string, string>,
      });
      upstreamRequests.add(upstream);
      let firstByteAt = 0;
      const complete = () => {
        const endAt = performance.now();
        upstreamRequests.delete(upstream);
        entry.timings.send = Math.round((sentAt - t0) * 1000) / 1000;
        entry.timings.wait = firstByteAt ? Math.round((firstByteAt - sentAt) * 1000) / 1000 : Math.round((endAt - sentAt) * 1000) / 1000;
        entry.timings.receive = firstByteAt ? Math.round((endAt - firstByteAt) * 1000) / 1000 : 0;
        entry.time = Math.round((endAt - t0) * 1000) / 1000;
        finish();
      };

      upstream.on('response', (up) => {
        firstByteAt = performance.now();
        entry.response.status = up.statusCode ?? 0;
        entry.response.statusText = up.statusMessage ?? '';
        entry.response.httpVersion = `HTTP/${up.httpVersion}`;
        entry.response.headers = toHeaders(up.rawHeaders);
        const contentType = up.headers['content-type'];
        entry.response.content.mimeType = contentType ?? '';
        const stream = isEventStream(contentType);
        const parser = stream
          ? createParser({
              onEvent: (ev) => {
                const event: MrtrEvent = { t: Date.now(), data: ev.data };
                if (ev.event !== undefined) event.event = ev.event;
                if (ev.id !== undefined) event.id = ev.id;
                entry._mrtr.events.push(event);
              },
            })
          : undefined;
        const decoder = new TextDecoder();
        const responseChunks: Buffer[] = [];
        res.writeHead(up.statusCode ?? 502, up.rawHeaders as unknown as Record<string, string>);
        res.flushHeaders();
        up.on('data', (chunk: Buffer) => {
          responseChunks.push(chunk);
          parser?.feed(decoder.decode(chunk, { stream: true }));
          res.write(chunk);
        });
        let settledOnce = false;
        const settle = () => {
          if (settledOnce) return;
          settledOnce = true;
          const body = Buffer.concat(responseChunks);
          entry.response.content.text = body.toString('utf8');
          entry.response.content.size = body.length;
          entry.response.bodySize = body.length;
          if (!res.writableEnded) res.end();
          complete();
        };
        up.on('end', settle);
        up.on('aborted', settle);
        up.on('error', settle);
        up.on('close', settle);
      });
      upstream.on('error', (err) => {
        if (entry.response.status === 0) {
          entry.response.status = 502;
          entry.response.statusText = 'Bad Gateway';
          entry.response.content = { size: 0, mimeType: 'text/plain', text: `proxy: ${err.message}` };
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
          if (!res.writableEnded) res.end(`proxy: ${err.message}`);
          complete();
        }
      });
      // A client that hangs up (e.g. closing a GET stream) cuts the upstream exchange too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(body);
    });
  };

  const server: Server = createServer(handle);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxyUrl = `http://127.0.0.1:${port}${target.pathname}${target.search}`;

  const settled = async () => {
    // New exchanges may start while earlier ones settle; loop until the count is stable.
    for (let seen = -1; seen !== exchanges.length; ) {
      seen = exchanges.length;
      await Promise.all(exchanges.map((p) => p.done));
    }
  };

  const har = (): Har => ({
    log: {
      version: '1.2',
      creator: { name: 'mrtr-inspector recording-proxy', version: '0.1.0' },
      pages: [],
      entries: exchanges.map((p) => p.entry),
    },
  });

  return {
    url: proxyUrl,
    get nextSeq() {
      return exchanges.length;
    },
    tagOf: (seq) => exchanges[seq]?.tag,
    settled,
    har,
    async writeHar(path) {
      await settled();
      await writeFile(path, JSON.stringify(har(), null, 2) + '\n');
    },
    async close() {
      for (const up of upstreamRequests) up.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
