// The wrap bench measures the relay path only if wrap really recorded to the relay; a pipe
// that fell back to its capture file must stop the bench with an error (issue 33 item 18).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertRelayed, loadLine, type Pipe } from '../../bench/wrap.js';

const pipe = (name: string, stderr = ''): Pipe => ({ name, stderr: () => stderr } as unknown as Pipe);
const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `r${i}`, request: { url: 'stdio://bench' } })).join('\n') + '\n';

describe('wrap bench: the relay path or an error', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'mrtr-bench-check-'));
    dirs.push(d);
    return d;
  };

  it('passes when the relay holds the records and no pipe fell back', () => {
    const d = dir();
    writeFileSync(join(d, 'relay.jsonl'), lines(20));
    expect(() => assertRelayed([pipe('direct'), pipe('wrap → relay'), pipe('wrap → file', 'Recording to x')], join(d, 'none.jsonl'), join(d, 'relay.jsonl'), 20)).not.toThrow();
  });

  it('throws when a relay pipe wrote its fallback capture file', () => {
    const d = dir();
    writeFileSync(join(d, 'relay.jsonl'), lines(20));
    writeFileSync(join(d, 'not-relayed.jsonl'), lines(1));
    expect(() => assertRelayed([pipe('wrap → relay')], join(d, 'not-relayed.jsonl'), join(d, 'relay.jsonl'), 20)).toThrow(/fell back to the capture file.*not measured/);
  });

  it('throws when a relay pipe said it records to a file, or was given a --token it ignores', () => {
    const d = dir();
    writeFileSync(join(d, 'relay.jsonl'), lines(20));
    for (const said of ['mrtr-inspector wrap: the inspector at … cannot be reached. Recording to /tmp/x instead', 'mrtr-inspector wrap: --token is ignored'])
      expect(() => assertRelayed([pipe('before → relay', said)], join(d, 'none.jsonl'), join(d, 'relay.jsonl'), 20)).toThrow(/before → relay said: mrtr-inspector wrap: /);
  });

  it('throws when the relay holds fewer records than were sent', () => {
    const d = dir();
    writeFileSync(join(d, 'relay.jsonl'), lines(19));
    expect(() => assertRelayed([pipe('wrap → relay')], join(d, 'none.jsonl'), join(d, 'relay.jsonl'), 20)).toThrow(/holds 19 of at least 20/);
    expect(() => assertRelayed([pipe('wrap → relay')], join(d, 'none.jsonl'), join(d, 'absent.jsonl'), 1)).toThrow(/holds 0/);
  });

  it('says the load beside the figures', () => {
    expect(loadLine()).toMatch(/^load average \d+\.\d\d \/ \d+\.\d\d \/ \d+\.\d\d on \d+ cores$/);
  });
});
