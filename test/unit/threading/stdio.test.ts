// Stdio exchanges (recorded by `mrtr-inspector wrap`) through the same core as HTTP ones:
// decoding, threading, lint applicability and HAR/JSONL round-trips.
import { describe, expect, it } from 'vitest';
import { StdioPairing } from '../../../cli/wrap/stdio-pairing.js';
import { analyze } from '../../../worker/analysis.js';
import { exportHar } from '../../../worker/capture/har-export.js';
import { exportJsonl } from '../../../worker/capture/jsonl.js';
import { importCapture } from '../../../worker/capture/import.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';
import { Keyring } from '../../../worker/services/keyring.js';
import { conversationSummary } from '../../../worker/view/conversation-summary.js';
import { conversationView, indexAnalysis, TokenReader } from '../../../worker/view/conversation-view.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};
const call = (id: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'deploy', arguments: { env: 'prod' }, _meta: META, ...extra } });
const inputRequired = (id: number, state: string) => JSON.stringify({
  jsonrpc: '2.0', id,
  result: { resultType: 'input_required', requestState: state, inputRequests: { ok: { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } },
});
const complete = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } });

// Two interleaved calls to the same tool over one stdio connection; each retry echoes its
// own chain's token, so only the token can tell them apart.
function records(client = 'stdio:demo:1'): ExchangeRecord[] {
  const latest = new Map<string, ExchangeRecord>();
  let t = 1_800_000_000_000;
  const p = new StdioPairing({ name: 'demo', client, emit: (r) => latest.set(r.id, structuredClone(r)), now: () => (t += 5) });
  p.clientLine(call(1));
  p.clientLine(call(2));
  p.serverLine(inputRequired(2, 'state-B'));
  p.serverLine(inputRequired(1, 'state-A'));
  p.clientLine(call(3, { requestState: 'state-A', inputResponses: { ok: { action: 'accept', content: { ok: true } } } }));
  p.clientLine(call(4, { requestState: 'state-B', inputResponses: { ok: { action: 'accept', content: { ok: false } } } }));
  p.serverLine(complete(4));
  p.serverLine(complete(3));
  p.clientLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, _meta: META } }));
  return [...latest.values()].sort((a, b) => a.seq - b.seq);
}

describe('stdio exchanges in the core', () => {
  it('threads interleaved stdio calls into conversations by their echoed tokens', async () => {
    const a = await analyze(records());
    const calls = a.conversations.filter((c) => c.method === 'tools/call');
    expect(calls).toHaveLength(2);
    for (const c of calls) {
      expect(c.status).toBe('complete');
      expect(c.era).toBe('2026-07-28');
      expect(c.rounds.map((r) => r.link)).toEqual([null, 'state']);
    }
    const byFirstId = new Map(calls.map((c) => [c.rounds[0].requestId, c.rounds.map((r) => r.requestId)]));
    expect(byFirstId.get(1)).toEqual([1, 3]);
    expect(byFirstId.get(2)).toEqual([2, 4]);
  });

  it('reads a client notification on stdio as complete, as the same notification over HTTP (202) does', async () => {
    const a = await analyze(records());
    const note = a.conversations.find((c) => c.method === 'notifications/cancelled');
    expect(note?.status).toBe('complete');
    const live = await analyze(records(), { final: false });
    expect(live.conversations.find((c) => c.method === 'notifications/cancelled')?.status).toBe('complete');
  });

  it('says where a server request travelled in stdio terms (stdout, not a POST\'s SSE stream)', async () => {
    const out: ExchangeRecord[] = [];
    let t = 1_800_000_000_000;
    const p = new StdioPairing({ name: 'demo', client: 'stdio:demo:2', emit: (r) => out.push(structuredClone(r)), now: () => (t += 5) });
    p.clientLine(call(1));
    p.serverLine(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } } }));
    p.clientLine(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'decline' } }));
    p.serverLine(complete(1));
    const latest = [...new Map(out.map((r) => [r.id, r])).values()];
    const a = await analyze(latest);
    const messages = a.findings.filter((f) => f.rule === 'mrtr/server-initiated-request').map((f) => f.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('elicitation/create (id "srv-1") on its stdout');
    expect(messages[0]).not.toMatch(/post-sse/);
  });

  it('shows no HTTP status for stdio rounds, whose records carry a placeholder 200', async () => {
    const a = await analyze(records());
    const index = indexAnalysis(a);
    const call = a.conversations.find((c) => c.method === 'tools/call')!;
    expect(conversationSummary(call, index).httpStatus).toBeNull();
    const view = await conversationView(call, index, new TokenReader(new Keyring()));
    expect(view.rounds.map((r) => r.httpStatus)).toEqual([null, null]);
  });

  it('does not fire HTTP rules on stdio traffic, which has no headers; the same records as HTTP do', async () => {
    const stdio = await analyze(records());
    const httpOnly = (id: string) => id.startsWith('http/') || id.startsWith('legacy/');
    expect(stdio.findings.filter((f) => httpOnly(f.rule))).toEqual([]);
    const asHttp = records().map(({ stdio: _drop, ...r }) => ({ ...r, request: { ...r.request, url: 'http://localhost/mcp' } }));
    const http = await analyze(asHttp);
    expect(http.findings.map((f) => f.rule)).toContain('http/protocol-version-header');
    // The transport-neutral rules judge both alike.
    const neutral = (fs: { rule: string }[]) => fs.map((f) => f.rule).filter((r) => !httpOnly(r)).sort();
    expect(neutral(stdio.findings)).toEqual(neutral(http.findings));
  });

  it('round-trips stdio records through HAR (the _mrtr.stdio extension) and JSONL unchanged', () => {
    const rs = records();
    rs[0].stdio = { name: 'demo', exit: { code: 3, signal: null, stderrTail: 'boom\n' } };
    const har = importCapture(exportHar(rs, { sanitize: false }));
    const jsonl = importCapture(exportJsonl(rs));
    for (const back of [har, jsonl]) {
      expect(back.ok).toBe(true);
      if (!back.ok) return;
      expect(back.exchanges.map((r) => r.stdio)).toEqual(rs.map((r) => r.stdio));
      expect(back.exchanges.map((r) => r.request)).toEqual(rs.map((r) => r.request));
      expect(back.exchanges.map((r) => r.response?.events)).toEqual(rs.map((r) => r.response?.events));
    }
  });

  it('redacts secrets from a crashed server\'s stderr tail in a sanitised export', () => {
    const rs = records();
    rs[0].stdio = { name: 'demo', exit: { code: 1, signal: null, stderrTail: 'token=sk-live-123 failed' } };
    const har = importCapture(exportHar(rs, { secrets: ['sk-live-123'] }));
    expect(har.ok && har.exchanges[0].stdio?.exit?.stderrTail).not.toContain('sk-live-123');
  });
});
