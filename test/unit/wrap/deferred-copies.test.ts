// wrap forwards first and records after: a chunk's copy is read only once the pass-through
// has handled every chunk ready in this turn, in arrival order, stamped with its arrival time.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeferredCopies } from '../../../cli/wrap/deferred-copies.js';
import { LineSplitter } from '../../../cli/wrap/line-splitter.js';

afterEach(() => vi.restoreAllMocks());

describe('DeferredCopies', () => {
  it('reads no copy while the data handlers run, then both directions in arrival order with each chunk\'s arrival time', async () => {
    const seen: string[] = [];
    const copies = new DeferredCopies();
    const fromClient = new LineSplitter((l) => seen.push(`client ${l.toString()} @${copies.at}`));
    const fromServer = new LineSplitter((l) => seen.push(`server ${l.toString()} @${copies.at}`));
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(1000);
    copies.add(fromClient, Buffer.from('{"id":1,"method":"tools/call"}\n{"id":2,'));
    now.mockReturnValue(1001);
    copies.add(fromServer, Buffer.from('{"id":1,"result":{}}\n'));
    now.mockReturnValue(1002);
    copies.add(fromClient, Buffer.from('"method":"ping"}\n'));
    expect(seen).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([
      'client {"id":1,"method":"tools/call"} @1000',
      'server {"id":1,"result":{}} @1001',
      'client {"id":2,"method":"ping"} @1002',
    ]);
  });

  it('reads an unterminated last line at the end of its direction, and drain() reads what is queued at once', () => {
    const seen: string[] = [];
    const copies = new DeferredCopies();
    const fromServer = new LineSplitter((l) => seen.push(l.toString()));
    copies.add(fromServer, Buffer.from('{"id":9,"result":{}}'));
    copies.end(fromServer);
    copies.drain();
    expect(seen).toEqual(['{"id":9,"result":{}}']);
  });
});
