// Issue 6: the relay's token is a secret of the user's machine. It never lands in the JSONL
// capture file, the backlog or the records pushed to the page, never reaches a target, and
// no answer or warning the relay gives contains it: through complete, refused, failed,
// broken and aborted exchanges. refusals.test.ts checks the refusal bodies; this checks
// every other output, and shows each search can fail by putting the token there on purpose.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unreachableUrl } from '../console/servers.js';
import { eventually, openEvents, parseJsonl, putTargets, send, startRelay, startUpstream, type RawResponse, type RelayHarness } from './relay-harness.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const TOKEN = [...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('');
const NEEDLES = [TOKEN, TOKEN.slice(0, 12), TOKEN.slice(-12), Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('hex')];

/** Where the relay's outputs went, place by place. */
class Outputs {
  readonly places: { place: string; text: string }[] = [];
  note(place: string, text: string): void {
    this.places.push({ place, text });
  }
  response(what: string, r: RawResponse): RawResponse {
    this.note(`answer to ${what}`, `${r.status}\n${JSON.stringify(r.headers)}\n${r.text}`);
    return r;
  }
  /** The places whose text holds the token in any spelling. */
  leaks(): string[] {
    return [...new Set(this.places.filter((p) => NEEDLES.some((n) => p.text.includes(n))).map((p) => p.place))];
  }
}

const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const body = (method: string, extra = '') => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { note: extra } });

describe("the relay's token", () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  /** A relay under TOKEN, with its warnings kept, and targets: echo, broken stream, silent, down. */
  async function setup(out: Outputs, jsonlPath?: string) {
    const h: RelayHarness = await startRelay({ token: TOKEN, warn: (m) => out.note('relay warning', m), ...(jsonlPath ? { jsonlPath } : {}) });
    started.push(h);
    let reached!: () => void;
    const silentReached = new Promise<void>((r) => (reached = r));
    const upstream = await startUpstream((req: IncomingMessage, res: ServerResponse) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        out.note('what a target received', `${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${text}`);
        if (req.url?.startsWith('/broken')) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: {"n":1}\n\n', () => res.destroy());
        } else if (req.url?.startsWith('/silent')) reached();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { echo: text } }));
      });
    });
    started.push(upstream);
    const base = upstream.url.replace(/\/mcp$/, '');
    const targets = [{ id: 'local', url: `${base}/mcp` }, { id: 'broken', url: `${base}/broken` }, { id: 'silent', url: `${base}/silent` }, { id: 'down', url: await unreachableUrl() }];
    out.response('the target list', await putTargets(h, targets));
    const relayed = async (target: string, opts: { body?: string; query?: string; method?: string } = {}) =>
      out.response(`${target}${opts.query ?? ''}`, await send(h.port, { method: opts.method ?? 'POST', path: `/relay/${TOKEN}/${target}${opts.query ?? ''}`, headers: MCP, body: opts.body ?? body('tools/call') }));
    return { h, relayed, silentReached };
  }

  it('is in no capture record, backlog, page event, target request, answer or warning', async () => {
    const out = new Outputs();
    const { h, relayed, silentReached } = await setup(out);
    // No page open: every exchange goes to the capture file.
    expect((await relayed('local')).status).toBe(200);
    expect((await relayed('local', { query: '?session=1&x=y' })).status).toBe(200);
    expect((await relayed('local', { method: 'GET', body: '' })).status).toBe(200);
    await relayed('demo', { body: body('ping') });
    expect((await relayed('down')).status).toBe(502);
    await relayed('broken').catch((err: Error) => out.note('broken stream', err.message));
    // The client gives up while the target is still thinking: recorded as aborted.
    const aborted = httpRequest({ host: '127.0.0.1', port: h.port, method: 'POST', path: `/relay/${TOKEN}/silent`, headers: { ...MCP, host: `127.0.0.1:${h.port}` } });
    aborted.on('error', () => undefined);
    aborted.end(body('tools/call'));
    await silentReached;
    aborted.destroy();
    // Refusals, for the record: a wrong token, no target, an unknown one, a path too long.
    for (const path of [`/relay/wrong-${TOKEN.slice(0, 20)}/local`, `/relay/${TOKEN}`, `/relay/${TOKEN}/`, `/relay/${TOKEN}/unlisted`, `/relay/${TOKEN}/local/more`, '/relay/api/forward/unlisted']) {
      const r = await send(h.port, { method: 'POST', path, headers: { ...MCP, origin: h.origin }, body: body('tools/call') });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      // The wrong token shares its first 20 characters with ours: only the answer matters here.
      out.response(`refused ${path.includes('wrong-') ? 'wrong token' : path}`, r);
    }
    await eventually(async () => {
      const { records } = parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => ''));
      // 7 exchanges and the 5 refusals of relay URLs (the page API's refusal is not recorded).
      return records.length === 12 && records.every((r) => r.state !== 'pending' && r.state !== 'streaming');
    }, 15_000);
    const records = parseJsonl(await readFile(h.jsonl, 'utf8')).records;
    // The broken stream ends as failed or aborted, whichever side notices first.
    expect(records.map((r) => r.state)).toEqual(expect.arrayContaining(['aborted', 'complete', 'failed']));
    expect(records.filter((r) => r.refused !== undefined)).toHaveLength(5);

    // A page connects: new exchanges are pushed to it; then it drains the backlog.
    const page = await openEvents(h.port, { path: '/relay/api/events', headers: { origin: h.origin } });
    await relayed('local', { body: body('tools/call', 'while the page listens') });
    out.note('page event', await page.next(10_000));
    while (page.pending() > 0) out.note('page event', await page.next());
    page.close();
    const backlog = out.response('backlog', await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } }));
    expect(parseJsonl(backlog.text).records).toHaveLength(12);
    await h.relay.close();
    for (const f of await readdir(h.dir)) out.note(`file ${f}`, await readFile(join(h.dir, f), 'utf8'));

    expect(out.leaks()).toEqual([]);
    // The search covered every place.
    const places = new Set(out.places.map((p) => p.place));
    for (const p of ['what a target received', 'page event', 'answer to backlog', 'answer to down', 'answer to refused wrong token', 'file capture.targets.json']) expect(places).toContain(p);
  }, 60_000);

  it('is found by the same search where it is put on purpose: a body, a page event, the file, a warning', async () => {
    const out = new Outputs();
    const { h, relayed } = await setup(out);
    await relayed('local', { body: body('tools/call', `a client that sends ${TOKEN}`) });
    await eventually(async () => (await readFile(h.jsonl, 'utf8').catch(() => '')).includes('"complete"'));
    out.note('capture file', await readFile(h.jsonl, 'utf8'));
    const page = await openEvents(h.port, { path: '/relay/api/events', headers: { origin: h.origin } });
    await relayed('local', { body: body('tools/call', `again ${TOKEN}`) });
    out.note('page event', await page.next(10_000));
    page.close();
    // A capture path the relay cannot write (a directory) is named in its warning.
    const blocked = join(h.dir, `blocked-${TOKEN}`);
    await mkdir(blocked);
    const other = await setup(out, blocked);
    await other.relayed('local');
    await eventually(() => out.places.some((p) => p.place === 'relay warning'));
    expect(out.leaks().sort()).toEqual(['answer to local', 'capture file', 'page event', 'relay warning', 'what a target received']);
  }, 60_000);
});
