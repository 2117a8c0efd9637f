// One writer at a time for the capture file, across processes. The relay drops acknowledged
// lines by writing the file anew and renaming it over the old one, while `wrap` (another
// process) may be appending to the same file: an append that lands between the relay's read
// and its rename is in the old file only, and the rename throws it away (blocks of 14–16
// records, one wrap write, went missing that way). Both hold this lock for those steps: the
// relay for a rewrite, wrap for each append. The relay's own appends need no lock: they are
// queued behind its rewrites in the same process.
//
// The lock is a file beside the capture (`<file>.lock`, created with O_EXCL, 0600) holding
// its owner's pid. A lock whose owner is gone (crashed between create and unlink) is broken,
// so a killed process never blocks the other for good.
import { constants } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';

const { O_CREAT, O_EXCL, O_WRONLY, O_NOFOLLOW = 0 } = constants;

/** How long a writer waits for the lock by default before giving up (a rewrite of a large
 *  file can take seconds; nothing normal holds it longer). */
export const LOCK_WAIT_MS = 30_000;
const RETRY_MS = 5;

/** The lock was held by a live process for longer than the caller would wait. */
export class LockBusyError extends Error {}

/** The process with this pid is still running (or we cannot tell: then assume it is). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function tryTake(lock: string): Promise<boolean> {
  try {
    const fh = await open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    try {
      await fh.write(String(process.pid));
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

// A lock left by a process that no longer runs. Read before unlinking: a lock just created
// (pid not written yet) reads empty and is left alone.
async function breakIfStale(lock: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(lock, 'utf8');
  } catch {
    return; // gone already
  }
  const pid = Number(text.trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) {
    await unlink(lock).catch(() => undefined);
  }
}

/** Runs `fn` while holding the lock of `path`; waits up to `waitMs` for it, then throws
 *  LockBusyError without running `fn`. */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const lock = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  let checked = 0;
  while (!(await tryTake(lock))) {
    // Checking the owner costs a read: every 20 tries (~100 ms) is enough.
    if (checked++ % 20 === 0) await breakIfStale(lock);
    if (Date.now() >= deadline) throw new LockBusyError(`${path} stayed locked by another process for ${Math.round(waitMs / 1000)} s (${lock})`);
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
