// wrap --serve remembers which era its server process chose, from the lines written to it.
import { describe, expect, it } from 'vitest';
import { EraWatch } from '../../../cli/wrap/era-watch.js';

const line = (v: unknown) => JSON.stringify(v) + '\n';
const discover = line({ jsonrpc: '2.0', id: 'mrtr-1', method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });
const legacyInit = line({ jsonrpc: '2.0', id: 'mrtr-2', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sdk', version: '1.32.2' } } });
const modernCall = line({ jsonrpc: '2.0', id: 'mrtr-3', method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } });

describe('EraWatch', () => {
  it('takes the era from the first line that picks one, across chunk boundaries, passing over the SDK v2 discovery probe', () => {
    const w = new EraWatch();
    const bytes = Buffer.from(discover + legacyInit + modernCall);
    const cut = discover.length + 10;
    w.push(bytes.subarray(0, cut));
    expect(w.era).toBeUndefined();
    w.push(bytes.subarray(cut));
    expect(w.era).toBe('legacy');
  });

  it('reads a 2026-07-28 opening as the modern era and keeps it whatever follows', () => {
    const w = new EraWatch();
    w.push(Buffer.from(modernCall));
    w.push(Buffer.from(legacyInit));
    expect(w.era).toBe('2026-07-28');
  });
});
