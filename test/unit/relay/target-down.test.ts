// Fault: the relay's target goes down mid-stream (issue 6). A target sends an event-stream
// head and one event, then its socket is destroyed, as when its process dies. The exchange
// must be recorded `aborted` with the event received so far, never lost: in the JSONL file
// when no page listens, and pushed to the page when one does.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { eventually, openEvents, openPage, parseJsonl, putTargets, startRelay, startUpstream, TOKEN, type RelayHarness } from './relay-harness.js';

const CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}';

// A target that answers with an event stream, sends one event, and destroys its socket
// when the test calls `die()` (after the client has seen that event, so nothing races).
function dyingTarget() {
  let die!: () => void;
  const dead = new Promise<void>((r) => (die = r));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write('id: 1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n');
    void dead.then(() => res.socket?.destroy());
  };
  return { handler, die };
}

describe('the relay when its target goes down mid-stream', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });
  const setup = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<RelayHarness> => {
    const h = await startRelay();
    const upstream = await startUpstream(handler);
    started.push(h, upstream);
    expect((await putTargets(h, [{ id: 'dying', url: upstream.url }])).status).toBe(200);
    return h;
  };
  const fileRecords = async (h: RelayHarness) => parseJsonl(await readFile(h.jsonl, 'utf8').catch(() => '')).records;

  it('with no page open, files the exchange as aborted with the event received so far, and cuts the client', async () => {
    const target = dyingTarget();
    const h = await setup(target.handler);
    const client = await openEvents(h.port, { method: 'POST', path: `/relay/${TOKEN}/dying`, headers: { 'content-type': 'application/json' }, body: CALL });
    expect(client.status).toBe(200);
    expect(JSON.parse(await client.next())).toMatchObject({ method: 'notifications/progress' });
    await eventually(async () => (await fileRecords(h))[0]?.state === 'streaming');

    target.die();
    // The client sees a broken stream, not a clean end it would take for a whole answer.
    expect(await client.finished).toBe('cut');
    await eventually(async () => (await fileRecords(h))[0]?.state === 'aborted');
    const records = await fileRecords(h);
    expect(records).toHaveLength(1);
    const [rec] = records;
    expect(rec).toMatchObject({ source: 'relay', state: 'aborted', request: { method: 'POST', body: CALL }, response: { status: 200 } });
    expect(rec.error).toMatch(/target closed the connection before the response ended/);
    expect(rec.response?.events?.map((e) => [e.id, e.event])).toEqual([['1', 'message']]);
    expect(rec.endedAt).toBeGreaterThanOrEqual(rec.startedAt);
  });

  it('with a page open, pushes the aborted record with the event received so far, and files nothing', async () => {
    const target = dyingTarget();
    const h = await setup(target.handler);
    const page = await openPage(h);
    started.push({ close: async () => page.close() });
    const client = await openEvents(h.port, { method: 'POST', path: `/relay/${TOKEN}/dying`, headers: { 'content-type': 'application/json' }, body: CALL });
    await client.next();

    const pushed: ExchangeRecord[] = [];
    while (pushed.at(-1)?.response?.events?.length !== 1) pushed.push(await page.next());
    target.die();
    expect(await client.finished).toBe('cut');
    while (pushed.at(-1)?.state !== 'aborted') pushed.push(await page.next());

    expect(new Set(pushed.map((r) => r.id)).size).toBe(1);
    expect(pushed.map((r) => r.state)).toEqual(['pending', 'streaming', 'streaming', 'aborted']);
    const last = pushed.at(-1)!;
    expect(last.error).toMatch(/target closed the connection before the response ended/);
    expect(last.response?.events?.map((e) => e.id)).toEqual(['1']);
    // Pushed, so not filed: the file never appears.
    await h.relay.close();
    await expect(readFile(h.jsonl, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
