// A hostile HAR plus `r` once ran a stdio tool (`/relay/stdio/<name>`) and remapped a watched
// target (`/relay/api/targets`) with the page's cookie. Every Console send is judged by
// judgeSend, and the transport refuses, unsent, what it refuses.
import { describe, expect, it } from 'vitest';
import { judgeSend, type SendGuardContext } from '../../../worker/console/send-guard.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { parseTargetList } from '../../../server/relay/target-store.js';

const OWN = 'http://127.0.0.1:5173';
const ctx = (over: Partial<SendGuardContext> = {}): SendGuardContext => ({
  ownOrigins: [OWN, 'http://localhost:5173'],
  usedOrigins: new Set(['http://localhost:3000']),
  pickedStdio: new Set(),
  ...over,
});

describe('judgeSend', () => {
  it("refuses the inspector's own API under either loopback name, whatever the path's spelling", () => {
    for (const url of [`${OWN}/relay/api/targets`, '/relay/api/backlog', 'http://localhost:5173/relay/api/info', `${OWN}/relay/api/backlog/ack`, `${OWN}/relay/some-token/demo/mcp`, `${OWN}/relay/ingest`, `${OWN}/relay/stdio-attach/x`]) {
      const v = judgeSend(url, ctx());
      expect(v.kind, url).toBe('refused');
      expect(v.kind === 'refused' && v.reason).toMatch(/Not sent/);
    }
    expect(judgeSend(`${OWN}/relay/api/targets`, ctx())).toMatchObject({ reason: expect.stringMatching(/inspector's own API/) });
  });

  it('refuses a stdio endpoint (the page one, the relay forward and the token URL) unless the user picked that server in this page', () => {
    for (const url of [`${OWN}/relay/stdio/fs`, `${OWN}/relay/api/forward/stdio-fs`, `${OWN}/relay/api/forward/stdio%2Dfs`, `${OWN}/relay/tok/stdio-fs/mcp`]) {
      expect(judgeSend(url, ctx()).kind, url).toBe('refused');
    }
    expect(judgeSend(`${OWN}/relay/stdio/fs`, ctx())).toMatchObject({ reason: expect.stringMatching(/stdio server "fs"/) });
    expect(judgeSend(`${OWN}/relay/stdio/fs`, ctx({ pickedStdio: new Set(['fs']) }))).toEqual({ kind: 'allowed' });
    expect(judgeSend(`${OWN}/relay/api/forward/stdio-fs`, ctx({ pickedStdio: new Set(['fs']) }))).toEqual({ kind: 'allowed' });
    // Picking one server allows that one only.
    expect(judgeSend(`${OWN}/relay/stdio/other`, ctx({ pickedStdio: new Set(['fs']) })).kind).toBe('refused');
  });

  it('allows the embedded demo and the forwarder to a watched target', () => {
    expect(judgeSend(`${OWN}/demo/mcp`, ctx())).toEqual({ kind: 'allowed' });
    expect(judgeSend(`${OWN}/relay/api/forward/local-3000`, ctx())).toEqual({ kind: 'allowed' });
    expect(judgeSend(`${OWN}/relay/api/forward/a/b`, ctx()).kind).toBe('refused');
    expect(judgeSend(`${OWN}/other`, ctx()).kind).toBe('refused');
  });

  it('asks first, naming the host, before a send to a host not used in this page; a used one goes', () => {
    expect(judgeSend('https://attacker.example:8443/mcp', ctx())).toEqual({ kind: 'ask', host: 'attacker.example:8443' });
    expect(judgeSend('http://localhost:3000/mcp', ctx())).toEqual({ kind: 'allowed' });
    expect(judgeSend('http://localhost:3001/mcp', ctx())).toEqual({ kind: 'ask', host: 'localhost:3001' });
  });

  it('refuses what is not http(s) or carries credentials in the URL', () => {
    expect(judgeSend('file:///etc/passwd', ctx()).kind).toBe('refused');
    expect(judgeSend('http://u:p@localhost:3000/mcp', ctx()).kind).toBe('refused');
  });
});

describe("the transport's guard", () => {
  it('sends nothing when the guard refuses, and reports the reason as the failure', async () => {
    const sent: string[] = [];
    const send = fetchTransport({
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
      guard: (url) => {
        const v = judgeSend(url, ctx());
        return v.kind === 'allowed' ? undefined : v.kind === 'refused' ? v.reason : `Not sent: you declined to send to ${v.host}.`;
      },
    });
    const r = await send({ url: `${OWN}/relay/api/targets`, method: 'POST', headers: [], body: '{"jsonrpc":"2.0","id":1,"method":"x","params":{},"targets":[]}' });
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/inspector's own API/);
    const ok = await send({ url: `${OWN}/demo/mcp`, method: 'POST', headers: [], body: '{}' });
    expect(ok.status).toBe(200);
    expect(sent).toEqual([`${OWN}/demo/mcp`]);
  });
});

describe('the relay target list', () => {
  it('is not read out of a JSON-RPC body that carries a targets key', () => {
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {}, targets: [{ id: 'local', url: 'http://attacker.example/mcp' }] };
    const r = parseTargetList(rpc);
    expect(r.ok).toBe(false);
    expect(parseTargetList({ targets: [{ id: 'local', url: 'http://localhost:3000/mcp' }] })).toMatchObject({ ok: true });
    expect(parseTargetList([{ id: 'local', url: 'http://localhost:3000/mcp' }])).toMatchObject({ ok: true });
  });
});
