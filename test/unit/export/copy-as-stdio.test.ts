// Copying a stdio exchange: the JSON-RPC line, and a shell pipe that writes it into the
// server's command, instead of `curl 'stdio://…'`, which runs nothing.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { StdioPairing } from '../../../cli/wrap/stdio-pairing.js';
import { toCurl, toFetch } from '../../../worker/export/index.js';
import type { ExchangeRecord } from '../../../worker/protocol.js';

function stdioRecord(line: string): ExchangeRecord {
  let rec: ExchangeRecord | undefined;
  const p = new StdioPairing({ name: 'server-memory', client: 'stdio:x:1', emit: (r) => { rec = structuredClone(r); }, now: () => 1 });
  p.clientLine(line);
  return rec!;
}

const LINE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'say', arguments: { text: "it's $HOME `x` \\n ok" } } });

describe('copying a stdio exchange', () => {
  it('gives the JSON-RPC line the client wrote as the fetch copy', () => {
    expect(toFetch(stdioRecord(LINE))).toBe(LINE);
  });

  it('gives a shell pipe whose output, piped into $SERVER, is the line and its newline byte for byte', () => {
    const pipe = toCurl(stdioRecord(LINE));
    expect(pipe).not.toContain('curl');
    expect(pipe).toContain('stdio://server-memory');
    expect(execFileSync('sh', ['-c', pipe], { env: { ...process.env, SERVER: 'cat' } }).toString()).toBe(`${LINE}\n`);
  });

  it('carries a line holding NUL through printf, since a shell argument cannot', () => {
    const withNul = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'x' }).replace('"x"', '"a\u0000b"');
    const pipe = toCurl(stdioRecord(withNul));
    expect(execFileSync('sh', ['-c', pipe], { env: { ...process.env, SERVER: 'cat' } }).toString()).toBe(`${withNul}\n`);
  });

  it('redacts configured secrets from the line by default', () => {
    const secret = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'login', arguments: { key: 'sk-live-abcdef123456' } } });
    expect(toFetch(stdioRecord(secret), { secrets: ['sk-live-abcdef123456'] })).not.toContain('sk-live-abcdef123456');
    expect(toCurl(stdioRecord(secret), { secrets: ['sk-live-abcdef123456'] })).not.toContain('sk-live-abcdef123456');
  });
});
