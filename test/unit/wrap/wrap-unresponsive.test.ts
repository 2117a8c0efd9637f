// wrap with an inspector that stops answering (stopped with SIGSTOP, or hung): the
// connection is accepted and nothing comes back. wrap must still end with its server, and
// what it had not delivered must be in the capture file.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeInfoFile } from '../../../server/relay/info-file.js';
import { freshSecret, NONCE_PARAM, PROOF_PATH, proofFor } from '../../../server/relay/proof.js';
import { buildCliIfStale, ECHO_SERVER, feed, startNode, wrapArgv } from '../../support/wrap-process.js';
import { parseJsonl } from '../relay/relay-harness.js';

const req = (id: number, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) + '\n';

beforeAll(() => buildCliIfStale(), 120_000);

describe('wrap and an inspector that stops answering, or none', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('exits with its server, and files the records the inspector never took', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-hung-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const key = freshSecret();
    const hung: ServerResponse[] = [];
    let ingests = 0;
    // Proves itself (it knows the key in the info file), then holds every ingest unanswered.
    const server = createServer((rq: IncomingMessage, rs: ServerResponse) => {
      const url = new URL(rq.url ?? '/', 'http://x');
      if (url.pathname === PROOF_PATH) {
        rs.setHeader('content-type', 'application/json');
        return rs.end(JSON.stringify({ proof: proofFor(key, url.searchParams.get(NONCE_PARAM) ?? '') }));
      }
      ingests++;
      rq.resume();
      hung.push(rs);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise<void>((r) => {
      for (const rs of hung) rs.destroy();
      server.close(() => r());
    }));
    const port = (server.address() as { port: number }).port;
    const origin = `http://127.0.0.1:${port}`;
    writeInfoFile(dir, port, { url: origin, pageUrl: `${origin}/?token=x`, token: 'relay-token', proofKey: key, pid: process.pid });
    const file = join(dir, 'capture.jsonl');

    const w = startNode(wrapArgv(['--name', 'hung', '--inspector', origin, '--capture', file], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: dir });
    await feed(w.child, [req(1, 'tools/list'), req(2, 'tools/call')]);
    // If wrap waited on the inspector, this would never resolve (the test's timeout fails it).
    const run = await w.done;
    expect(run.code).toBe(0);
    expect(ingests).toBeGreaterThan(0);
    expect(run.stderr.toString()).toMatch(/had not taken the last records when the server ended; recording to .*capture\.jsonl/);
    const { records } = parseJsonl(await readFile(file, 'utf8'));
    const done = records.filter((r) => r.state === 'complete').map((r) => (JSON.parse(r.request.body!) as { id: number }).id);
    expect(done.sort()).toEqual([1, 2]);
  }, 60_000);

  it('says once on stderr where records go when no inspector runs and the file is the default one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mrtr-none-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const w = startNode(wrapArgv(['--name', 'alone'], [process.execPath, ECHO_SERVER]), { MRTR_RELAY_DIR: dir, MRTR_INSPECTOR_URL: undefined, MRTR_RELAY_JSONL: undefined });
    await feed(w.child, [req(1, 'tools/list')]);
    const run = await w.done;
    expect(run.code).toBe(0);
    const said = run.stderr.toString();
    expect(said.match(/no inspector of yours is running on port 5173/g)).toHaveLength(1);
    expect(said).toContain(`Recording to ${join(dir, 'relay-capture-5173.jsonl')} instead`);
    const { records } = parseJsonl(await readFile(join(dir, 'relay-capture-5173.jsonl'), 'utf8'));
    expect(records.map((r) => r.state)).toEqual(['complete']);
  }, 60_000);
});
