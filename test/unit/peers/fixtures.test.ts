import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoHandler } from '../../../server/demo/handler.js';
import { flipMiddleChar } from '../../peers/tamper.js';
import type { Har, HarEntry, Manifest } from '../../peers/har-types.js';

// Sanity checks on the committed real-peer recordings, using nothing but JSON.parse: they
// hold whatever the analysis engine is later tested against, so they must be what they claim.

const dir = fileURLToPath(new URL('../../fixtures/sdk/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${dir}manifest.json`, 'utf8')) as Manifest;
const hars: Record<string, Har> = Object.fromEntries(
  Object.keys(manifest.fixtures).map((name) => [name, JSON.parse(readFileSync(dir + name, 'utf8')) as Har]),
);

type Rpc = { jsonrpc?: string; id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number } };
const requestOf = (e: HarEntry): Rpc => JSON.parse(e.request.postData?.text || '{}') as Rpc;
// The JSON-RPC messages of a response: the body itself, or each SSE event's data.
const responsesOf = (e: HarEntry): Rpc[] =>
  e.response.content.mimeType.startsWith('text/event-stream')
    ? e._mrtr.events.map((ev) => JSON.parse(ev.data) as Rpc)
    : e.response.content.text
      ? [JSON.parse(e.response.content.text) as Rpc]
      : [];
const tokenIssued = (e: HarEntry) => responsesOf(e).find((m) => m.result?.resultType === 'input_required')?.result?.requestState as string | undefined;
const sdkFixtures = ['sdk-v2-auto.har', 'sdk-v2-manual.har'];

describe('recorded SDK fixtures', () => {
  it('lists the three fixtures in the manifest', () => {
    expect(Object.keys(manifest.fixtures).sort()).toEqual(['legacy-2025.har', 'sdk-v2-auto.har', 'sdk-v2-manual.har']);
  });

  for (const [name, fixture] of Object.entries(manifest.fixtures)) {
    it(`${name} is HAR 1.2 with the manifest's entry count, each exchange in exactly one place`, () => {
      const { log } = hars[name];
      expect(log.version).toBe('1.2');
      expect(log.entries).toHaveLength(fixture.entryCount);
      const seqs = [...fixture.calls.flatMap((c) => c.exchanges), ...fixture.other.map((o) => o.seq)].sort((a, b) => a - b);
      expect(seqs).toEqual(log.entries.map((_, i) => i));
      for (const e of log.entries) {
        expect(e._mrtr.source).toBe('import');
        expect(Number(e.connection)).toBeGreaterThan(0);
        expect(Date.parse(e.startedDateTime)).not.toBeNaN();
      }
    });

    it(`${name} keeps entries in the order their requests started`, () => {
      const starts = hars[name].log.entries.map((e) => Date.parse(e.startedDateTime));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    });
  }

  it('every requestState in the SDK fixtures is a v1. codec token', () => {
    for (const name of sdkFixtures) {
      for (const e of hars[name].log.entries) {
        const issued = tokenIssued(e);
        const echoed = requestOf(e).params?.requestState;
        for (const token of [issued, echoed]) if (token !== undefined) expect(token).toMatch(/^v1\./);
      }
    }
  });

  it('each SDK call matches its manifest method and name, and every retry carries a new id', () => {
    for (const name of sdkFixtures) {
      const { log } = hars[name];
      for (const call of manifest.fixtures[name].calls) {
        const requests = call.exchanges.map((seq) => requestOf(log.entries[seq]));
        for (const r of requests) {
          expect(r.method).toBe(call.method);
          expect(r.params?.name ?? r.params?.uri).toBe(call.name);
        }
        expect(new Set(requests.map((r) => r.id)).size).toBe(requests.length);
        expect(call.rounds).toBe(call.exchanges.length);
      }
    }
  });

  it('each retry echoes the token issued by the round before it, except the tampered one', () => {
    for (const name of sdkFixtures) {
      const { log } = hars[name];
      for (const call of manifest.fixtures[name].calls) {
        for (let i = 1; i < call.exchanges.length; i++) {
          const issued = tokenIssued(log.entries[call.exchanges[i - 1]]);
          const echoed = requestOf(log.entries[call.exchanges[i]]).params?.requestState;
          if (call.exchanges[i] === call.tampered) expect(echoed).not.toBe(issued);
          else expect(echoed).toBe(issued);
        }
      }
    }
  });

  it('the tampered retry differs from the issued token by exactly one character and is refused with -32602', () => {
    const { log } = hars['sdk-v2-manual.har'];
    const call = manifest.fixtures['sdk-v2-manual.har'].calls.find((c) => c.tampered !== undefined);
    expect(call).toBeDefined();
    const at = call!.exchanges.indexOf(call!.tampered!);
    const issued = tokenIssued(log.entries[call!.exchanges[at - 1]])!;
    const sent = requestOf(log.entries[call!.tampered!]).params?.requestState as string;
    expect(sent).toHaveLength(issued.length);
    expect([...sent].filter((ch, i) => ch !== issued[i])).toHaveLength(1);
    expect(responsesOf(log.entries[call!.tampered!])[0].error?.code).toBe(-32602);
    expect(call!.finalOutcome).toBe('error');
  });

  it('the manual fixture holds two confirm_action calls whose rounds interleave', () => {
    const calls = manifest.fixtures['sdk-v2-manual.har'].calls.filter((c) => c.name === 'confirm_action' && c.finalOutcome === 'complete');
    expect(calls).toHaveLength(2);
    // A is listed first and answered second; which first round reaches the server first is a race.
    const [a, b] = calls;
    expect(Math.max(a.exchanges[0], b.exchanges[0])).toBeLessThan(Math.min(a.exchanges[1], b.exchanges[1]));
    expect(b.exchanges[1]).toBeLessThan(a.exchanges[1]);
  });

  it('the wizard takes three input rounds and the slow report streams events before its result', () => {
    const auto = manifest.fixtures['sdk-v2-auto.har'];
    expect(auto.calls.find((c) => c.name === 'setup_wizard')?.rounds).toBe(4);
    const slow = hars['sdk-v2-auto.har'].log.entries[auto.calls.find((c) => c.name === 'slow_report')!.exchanges[0]];
    expect(slow.response.content.mimeType).toBe('text/event-stream');
    expect(slow._mrtr.events.length).toBeGreaterThan(1);
    expect(responsesOf(slow).at(-1)?.result?.resultType).toBe('complete');
  });

  it('the legacy fixture carries a server-initiated elicitation/create on an SSE stream and a client POST answered 202', () => {
    const { log } = hars['legacy-2025.har'];
    const call = manifest.fixtures['legacy-2025.har'].calls.find((c) => c.name === 'legacy_confirm')!;
    const stream = log.entries[call.serverRequestsOn!];
    expect(stream.response.content.mimeType).toBe('text/event-stream');
    const serverRequest = responsesOf(stream).find((m) => m.method === 'elicitation/create');
    expect(serverRequest?.id).toBeDefined();
    const answer = log.entries[call.answerExchanges![0]];
    expect(answer.request.method).toBe('POST');
    expect(answer.response.status).toBe(202);
    expect(requestOf(answer).id).toBe(serverRequest!.id);
    expect(requestOf(answer).result).toBeDefined();
    expect(log.entries.some((e) => e.request.method === 'GET')).toBe(true);
  });
});

describe('embedded demo server', () => {
  const demo = createDemoHandler();
  afterAll(() => demo.close());
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'unit', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  };
  let nextId = 1;
  const call = async (url: string, params: Record<string, unknown>) => {
    const res = await demo.fetch(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': String(params.name),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { ...params, _meta: envelope } }),
      }),
    );
    return { res, body: (await res.json()) as Rpc };
  };
  const confirm = { name: 'confirm_action', arguments: { action: 'unit test' } };
  const accepted = { confirm: { action: 'accept', content: { confirm: true, priority: 'low' } } };

  it('rejects a tampered requestState with -32602 invalid_request_state', async () => {
    const first = await call('http://127.0.0.1/demo/mcp', confirm);
    const token = first.body.result?.requestState as string;
    expect(token).toMatch(/^v1\./);
    const good = await call('http://127.0.0.1/demo/mcp', { ...confirm, inputResponses: accepted, requestState: token });
    expect(good.body.result?.resultType).toBe('complete');
    const bad = await call('http://127.0.0.1/demo/mcp', { ...confirm, inputResponses: accepted, requestState: flipMiddleChar(token) });
    expect(bad.body.error?.code).toBe(-32602);
    expect((bad.body.error as { data?: unknown }).data).toEqual({ reason: 'invalid_request_state' });
  });

  it('refuses a token minted for one tool when it is presented to another', async () => {
    const first = await call('http://127.0.0.1/demo/mcp', confirm);
    const wizard = await call('http://127.0.0.1/demo/mcp', { name: 'setup_wizard', arguments: {}, requestState: first.body.result?.requestState });
    expect(wizard.body.error?.code).toBe(-32602);
  });

  it('with ?misbehave=1 mints an unsigned base64 JSON token without expiry and sends Mcp-Session-Id', async () => {
    const { res, body } = await call('http://127.0.0.1/demo/mcp?misbehave=1', confirm);
    const token = body.result?.requestState as string;
    expect(token).not.toMatch(/^v1\./);
    const decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
    expect(decoded).toMatchObject({ tool: 'confirm_action', step: 1 });
    expect(decoded).not.toHaveProperty('exp');
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('with ?misbehave=1 asks for sampling with tools although the client declared no sampling at all', async () => {
    const { body } = await call('http://127.0.0.1/demo/mcp?misbehave=1', { name: 'summarize', arguments: { text: 'x' } });
    const request = (body.result?.inputRequests as Record<string, { method: string; params: { tools?: unknown[] } }>).summary;
    expect(request.method).toBe('sampling/createMessage');
    expect(request.params.tools).toHaveLength(1);
  });
});
