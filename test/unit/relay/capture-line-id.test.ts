// An acknowledgement rewrites the relay's capture file (server/relay/capture-file.ts): the
// lines of ids not acknowledged are copied as they are, read for their id only (`lineId`),
// not parsed; a line that does not start as the relay writes it is parsed, as before.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonlHeader, lineId } from '../../../server/relay/capture-file.ts';
import { eventually, parseJsonl, putTargets, send, startRelay, startUpstream, TOKEN, type RelayHarness } from './relay-harness.js';

describe('the id of a capture file line, without a parse', () => {
  it('reads the id of a line as the relay writes it', () => {
    expect(lineId('{"v":1,"id":"a1b2","seq":0,"state":"complete"}')).toBe('a1b2');
    expect(lineId('{"v":12,"id":"","state":"pending"}')).toBe('');
  });

  it('gives null (parse it) for the header, a line cut short, another key order, and an id with escapes', () => {
    expect(lineId(jsonlHeader())).toBeNull();
    expect(lineId('{"v":1,"id":"a1b2","seq":0,"state":"compl')).toBeNull();
    expect(lineId('{"id":"a1b2","v":1,"state":"complete"}')).toBeNull();
    expect(lineId('{"v":1,"id":"a\\"b","state":"complete"}')).toBeNull();
    expect(lineId('{"v":1,"id":"a\\\\","state":"complete"}')).toBeNull();
    expect(lineId('{ "v": 1, "id": "a1b2", "state": "complete" }')).toBeNull();
  });
});

describe('a rewrite after an acknowledgement', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const s of started.splice(0).reverse()) await s.close();
  });

  async function filed(n: number): Promise<RelayHarness> {
    const upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    const h = await startRelay();
    started.push(upstream, h);
    await putTargets(h, [{ id: 'local', url: upstream.url }]);
    for (let i = 0; i < n; i++) await send(h.port, { method: 'POST', path: `/relay/${TOKEN}/local`, body: `{"n":${i}}` });
    await eventually(async () => parseJsonl(await readFile(h.jsonl, 'utf8')).records.filter((r) => r.state === 'complete').length === n);
    return h;
  }

  it('finds the id of every line the relay files without a parse, and copies the lines not acknowledged byte for byte', async () => {
    const h = await filed(3);
    const before = (await readFile(h.jsonl, 'utf8')).split('\n').filter((l) => l !== '');
    const records = parseJsonl(before.join('\n')).records;
    // Every record line (the header aside) takes the quick way.
    expect(before.slice(1).map(lineId)).toEqual(before.slice(1).map((l) => (JSON.parse(l) as { id: string }).id));
    const backlog = await send(h.port, { method: 'POST', path: '/relay/api/backlog', headers: { origin: h.origin } });
    const last = records.at(-1)!.id;
    const res = await send(h.port, {
      method: 'POST', path: '/relay/api/backlog/ack', headers: { origin: h.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ drain: backlog.headers['mrtr-drain'], ids: [last] }),
    });
    expect(res.json()).toEqual({ removed: 1, left: 2 });
    const after = (await readFile(h.jsonl, 'utf8')).split('\n').filter((l) => l !== '');
    expect(after.slice(1)).toEqual(before.slice(1).filter((l) => lineId(l) !== last));
  });
});
