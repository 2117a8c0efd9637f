// One writer at a time for the capture file across processes (server/relay/file-lock.ts):
// the relay's rewrite (dropping acknowledged lines) and wrap's appends.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Backlog } from '../../../server/relay/backlog.js';
import { CaptureFile } from '../../../server/relay/capture-file.js';
import { LockBusyError, withFileLock } from '../../../server/relay/file-lock.js';

const APPENDER = 'test/support/locked-appender.ts';

describe('the capture file lock', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  async function tempFile() {
    const d = await mkdtemp(join(tmpdir(), 'mrtr-lock-'));
    dirs.push(d);
    return join(d, 'c.jsonl');
  }

  it('runs two holders one after the other, never both at once', async () => {
    const path = await tempFile();
    const trail: string[] = [];
    const hold = (name: string) => withFileLock(path, async () => {
      trail.push(`${name} in`);
      await new Promise((r) => setTimeout(r, 30));
      trail.push(`${name} out`);
    });
    await Promise.all([hold('a'), hold('b')]);
    // Either may go first; neither starts before the other is out.
    const first = trail[0].split(' ')[0];
    const second = first === 'a' ? 'b' : 'a';
    expect(trail).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
  });

  it('breaks a lock left by a process that no longer runs', async () => {
    const path = await tempFile();
    const dead = spawn(process.execPath, ['-e', '']);
    const pid = await new Promise<number>((resolve) => dead.on('exit', () => resolve(dead.pid!)));
    await writeFile(`${path}.lock`, String(pid));
    expect(await withFileLock(path, async () => 'ran', 2000)).toBe('ran');
  });

  it('gives up on a lock a live process holds, without running the job', async () => {
    const path = await tempFile();
    await writeFile(`${path}.lock`, String(process.ppid));
    let ran = false;
    await expect(withFileLock(path, async () => { ran = true; }, 100)).rejects.toBeInstanceOf(LockBusyError);
    expect(ran).toBe(false);
  });

  it('loses no line another process appends while the relay drains and drops acknowledged lines', async () => {
    const path = await tempFile();
    const file = new CaptureFile(path, () => undefined, { batchBytes: 16 * 1024, pieceBytes: 4096 });
    const backlog = new Backlog(file);
    const COUNT = 3000;
    const child = spawn(process.execPath, ['--import', 'tsx', APPENDER, path, String(COUNT), '15'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const finished = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`appender exited ${code}`)))));
    let running = true;
    void finished.then(() => { running = false; }, () => { running = false; });
    // The page: drain, acknowledge everything handed out, again, while the appender writes.
    const stored = new Set<string>();
    const drainOnce = async (): Promise<boolean> => {
      const { drain, content, more } = await backlog.handOut();
      const ids = content.split('\n').filter((l) => l.includes('"id"')).map((l) => (JSON.parse(l) as { id: string }).id);
      for (const id of ids) stored.add(id);
      await backlog.ack({ drain, ids });
      return more;
    };
    while (running) await drainOnce();
    await finished;
    while (await drainOnce());
    const left = (await readFile(path, 'utf8')).split('\n').filter((l) => l.includes('"id"'));
    expect(left).toEqual([]);
    const missing = Array.from({ length: COUNT }, (_, i) => `wrap-${i}`).filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
  }, 120_000);
});
