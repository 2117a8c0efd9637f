// Keys are per server: a token is verified only with the keys of the server that issued
// it, so one server's key never makes another server's tokens read as forged.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../worker/analysis.js';
import { parseKey, type TokenKey } from '../../../worker/tokens/index.js';
import { ask, capture, reply } from '../../support/capture-builder.js';
import { sdkToken, unix } from '../../support/tokens.js';

function key(text: string): TokenKey {
  const k = parseKey(text);
  if (!k.ok) throw new Error(k.error);
  return k.key;
}

describe('keys per server', () => {
  it('verifies each token with its own server key and leaves servers without one unverified', async () => {
    const A = 'server-a-key-0123456789abcdef0123456789';
    const B = 'server-b-key-0123456789abcdef0123456789';
    const a = capture({ url: 'http://127.0.0.1:3001/mcp' });
    const first = a.call('tools/call', { name: 't', arguments: {} }).inputRequired({ k: ask.form('?', { x: { type: 'string' } }) }, sdkToken(A, { s: 1 }, unix(a.now) + 600));
    a.retry(first, { k: reply.accept({ x: 'y' }) });
    const b = capture({ url: 'http://127.0.0.1:3002/mcp', start: a.now + 10_000 });
    const other = b.call('tools/call', { name: 't', arguments: {} }).inputRequired({ k: ask.form('?', { x: { type: 'string' } }) }, sdkToken(B, { s: 2 }, unix(a.now) + 600));
    b.retry(other, { k: reply.accept({ x: 'y' }) });
    const records = [...a.build(), ...b.build().map((r, i) => ({ ...r, seq: 2 + i, id: `b-${2 + i}` }))];

    const onlyA = await analyze(records, { keysFor: (url) => (url.includes(':3001') ? [key(A)] : []) });
    const readings = [...onlyA.tokens.values()];
    expect(readings.map((r) => r.verified).sort()).toEqual([null, true]);
    expect(onlyA.findings.filter((f) => f.rule === 'state/signature-invalid')).toEqual([]);

    const wrongForB = await analyze(records, { keysFor: (url) => (url.includes(':3001') ? [key(A)] : [key(A)]) });
    expect(wrongForB.findings.filter((f) => f.rule === 'state/signature-invalid').map((f) => f.exchange)).toEqual([2]);
  });
});
