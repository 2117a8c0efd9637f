// One POST of records to the relay, over node:http with a kept-alive connection. fetch
// (undici) cost wrap several times the CPU per POST, spent on the same thread that passes
// the client's bytes through, and a kept-alive socket spares a connect per batch.
import { Agent, request } from 'node:http';

/** One kept-alive connection per sink (batches go one at a time). */
export const ingestAgent = (): Agent => new Agent({ keepAlive: true, maxSockets: 1 });

/** POSTs `body`; resolves to the answer's status and text. Rejects with the signal's reason
 *  when it aborts (a TimeoutError for AbortSignal.timeout), else with the socket's error. */
export function postText(agent: Agent, url: URL, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<{ status: number; ok: boolean; text: string }> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        signal.removeEventListener('abort', abort);
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: Buffer.concat(parts).toString('utf8') });
      });
      res.on('error', fail);
    });
    function fail(err: Error) {
      signal.removeEventListener('abort', abort);
      reject(signal.aborted ? signal.reason : err);
    }
    function abort() {
      req.destroy(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    }
    signal.addEventListener('abort', abort, { once: true });
    req.on('error', fail);
    req.end(body);
  });
}
