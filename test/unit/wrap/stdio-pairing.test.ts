import { describe, expect, it } from 'vitest';
import { StdioPairing } from '../../../cli/wrap/stdio-pairing.js';
import { LineSplitter } from '../../../cli/wrap/line-splitter.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

// A pairing whose records are kept by id (the latest copy), with a clock the test moves.
function harness() {
  const latest = new Map<string, ExchangeRecord>();
  let t = 1000;
  const p = new StdioPairing({ name: 'echo', client: 'stdio:echo:1', emit: (r) => latest.set(r.id, structuredClone(r)), now: () => ++t });
  return { p, records: () => [...latest.values()].sort((a, b) => a.seq - b.seq) };
}

const req = (id: unknown, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const res = (id: unknown, result: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, result });

describe('pairing stdio lines into exchanges', () => {
  it('pairs each request with its answer by id, out of order, as stdio://<name> records with no headers', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'tools/call'));
    p.clientLine(req(2, 'tools/list'));
    p.serverLine(res(2, { tools: [] }));
    p.serverLine(res(1, { content: [] }));
    const rs = records();
    expect(rs).toHaveLength(2);
    expect(rs.map((r) => JSON.parse(r.request.body!).id)).toEqual([1, 2]);
    expect(rs.map((r) => JSON.parse(r.response!.events![0].data).id)).toEqual([1, 2]);
    for (const r of rs) {
      expect(r).toMatchObject({ state: 'complete', request: { method: 'POST', url: 'stdio://echo', headers: [] }, stdio: { name: 'echo' }, client: 'stdio:echo:1' });
      expect(r.response!.events).toHaveLength(1);
    }
  });

  it('keeps 1 and "1" apart', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'a'));
    p.clientLine(req('1', 'b'));
    p.serverLine(res('1'));
    expect(records().map((r) => r.state)).toEqual(['pending', 'complete']);
  });

  it('puts what the server says while one request is open on that request, and on a record of its own when two are open', () => {
    const { p, records } = harness();
    p.clientLine(req(7, 'tools/call'));
    p.serverLine(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} }));
    p.clientLine(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept' } }));
    p.serverLine(res(7));
    p.clientLine(req(8, 'a'));
    p.clientLine(req(9, 'b'));
    p.serverLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} }));
    const rs = records();
    expect(rs[0].response!.events!.map((e) => JSON.parse(e.data).method ?? 'answer')).toEqual(['elicitation/create', 'answer']);
    // The client's answer to the server request is its own record, finished at once.
    expect(rs[1]).toMatchObject({ state: 'complete', request: { method: 'POST' } });
    expect(rs[1].response).toBeUndefined();
    const stray = rs.find((r) => r.request.method === 'GET')!;
    expect(stray.request.body).toBeUndefined();
    expect(JSON.parse(stray.response!.events![0].data).method).toBe('notifications/message');
  });

  it('records a line that is not JSON verbatim, from either side', () => {
    const { p, records } = harness();
    p.clientLine('hello?');
    p.serverLine('Listening on stdio');
    expect(records().map((r) => r.request.body ?? r.response!.events![0].data)).toEqual(['hello?', 'Listening on stdio']);
  });

  it('aborts open requests with the exit code and stderr tail when the server dies, and leaves one record of the crash', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'tools/call'));
    p.exit({ code: 3, signal: null, stderrTail: 'fatal: boom\n' });
    const [open, crash] = records();
    expect(open).toMatchObject({ state: 'aborted', stdio: { exit: { code: 3, signal: null, stderrTail: 'fatal: boom\n' } } });
    expect(open.error).toMatch(/exited with code 3 before answering; its last stderr output: fatal: boom/);
    expect(crash).toMatchObject({ state: 'failed', request: { method: 'GET' }, stdio: { exit: { code: 3 } } });
  });

  it('leaves no crash record after a clean exit', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'x'));
    p.serverLine(res(1));
    p.exit({ code: 0, signal: null, stderrTail: '' });
    expect(records()).toHaveLength(1);
  });

  it('leaves no crash record when the server ends from the signal its client sent to stop it, and says so on what was open', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'tools/call'));
    p.exit({ code: null, signal: 'SIGTERM', stderrTail: 'shutting down\n' }, undefined, { signal: 'SIGTERM' });
    const rs = records();
    expect(rs).toHaveLength(1);
    expect(rs[0].state).toBe('aborted');
    expect(rs[0].error).toBe('the server process was stopped by its client (SIGTERM) before answering');
  });

  it('still records a crash when the server dies from another signal than the one its client sent', () => {
    const { p, records } = harness();
    p.exit({ code: null, signal: 'SIGKILL', stderrTail: '' }, undefined, { signal: 'SIGTERM' });
    expect(records().map((r) => [r.state, r.error])).toEqual([['failed', 'the server process was killed by SIGKILL']]);
  });

  it('closes an open request as aborted when the client reuses its id', () => {
    const { p, records } = harness();
    p.clientLine(req(1, 'a'));
    p.clientLine(req(1, 'b'));
    p.serverLine(res(1));
    expect(records().map((r) => r.state)).toEqual(['aborted', 'complete']);
  });
});

describe('splitting a byte stream into lines', () => {
  it('joins a line cut across chunks, drops a trailing CR, and hands on an unterminated last line at the end', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l.toString()));
    s.push(Buffer.from('{"a":'));
    s.push(Buffer.from('1}\r\n{"b"'));
    s.push(Buffer.from(':2}\n\n'));
    s.push(Buffer.from('tail'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    s.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', 'tail']);
  });

  it('does not split a multi-byte character cut across chunks', () => {
    const bytes = Buffer.from('{"x":"é"}\n');
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l.toString('utf8')));
    const cut = bytes.indexOf(0xa9);
    s.push(bytes.subarray(0, cut));
    s.push(bytes.subarray(cut));
    expect(lines).toEqual(['{"x":"é"}']);
  });
});
