// The relay's files (capture JSONL, target list) hold credentials, and by default live under
// the shared temp folder, where another local user may have been first. Hazards, each
// handled here: a folder they created (or a symlink to one) would let them read or plant
// files, so the folder must be ours and closed to others (0700); a symlink they planted at a
// file's name would make us write through it, so every open uses O_NOFOLLOW and checks the
// owner; a predictable temp name could be planted the same way, so temp files get random
// names opened with O_EXCL; and files are created 0600.
import { constants, closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, writeSync, type Stats } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

const { O_NOFOLLOW = 0, O_CREAT, O_EXCL, O_WRONLY, O_RDONLY, O_APPEND } = constants;
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** A file-system setup the relay refuses to use, with what to do about it. */
export class UnsafePathError extends Error {}

function describeOwner(s: Stats): string {
  return `owner uid ${s.uid}, mode ${(s.mode & 0o777).toString(8).padStart(3, '0')}`;
}

/**
 * Makes sure `dir` exists, is a real directory (not a symlink), belongs to us and no other
 * user can write to it; with `privateMode`, nobody else may even enter it (0700, created so
 * when missing). Throws UnsafePathError otherwise.
 */
export function ensurePrivateDir(dir: string, privateMode: boolean): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const s = lstatSync(dir);
  // Advice the developer can follow: in a sticky shared temp folder nobody may remove another
  // user's folder (or a symlink they planted), so the way out is a folder of their own.
  const own = `Use a folder of your own instead: MRTR_RELAY_DIR="\${XDG_RUNTIME_DIR:-$HOME/.cache}/mrtr-inspector" npm start (or npx mrtr-inspector; set the same for wrap), or MRTR_RELAY_JSONL=<a file in a folder of yours>.`;
  const theirs = uid !== undefined && s.uid !== uid;
  const fix = theirs
    ? `You cannot remove it (another user made it, maybe to read your captures). ${own}`
    : `Remove it (rm ${s.isDirectory() ? '-r ' : ''}${dir}) or ${own.charAt(0).toLowerCase()}${own.slice(1)}`;
  if (s.isSymbolicLink() || !s.isDirectory()) throw new UnsafePathError(`Refusing to keep relay captures in ${dir}: it is a symbolic link or not a folder. ${fix}`);
  if (theirs) throw new UnsafePathError(`Refusing to keep relay captures in ${dir}: it belongs to another user (${describeOwner(s)}). ${fix}`);
  const open = privateMode ? 0o077 : 0o022;
  if (uid !== undefined && (s.mode & open) !== 0) throw new UnsafePathError(`Refusing to keep relay captures in ${dir}: other users can ${privateMode ? 'enter' : 'write to'} it (${describeOwner(s)}). Close it (chmod 700 ${dir}) or ${own.charAt(0).toLowerCase()}${own.slice(1)}`);
}

// After opening: the file must be a regular file of ours (a hard link to someone else's
// file passes O_NOFOLLOW), and is made 0600 if it was wider.
function checkOpened(path: string, s: Stats): void {
  if (!s.isFile()) throw new UnsafePathError(`Refusing to use ${path}: not a regular file.`);
  if (uid !== undefined && s.uid !== uid) throw new UnsafePathError(`Refusing to use ${path}: it belongs to another user (${describeOwner(s)}).`);
}

async function openChecked(path: string, flags: number): Promise<FileHandle> {
  const fh = await open(path, flags | O_NOFOLLOW, 0o600);
  try {
    const s = await fh.stat();
    checkOpened(path, s);
    if ((s.mode & 0o077) !== 0) await fh.chmod(0o600);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Appends text to a file of ours (created 0600), never through a symlink. */
export async function appendPrivate(path: string, text: (size: number) => string): Promise<void> {
  const fh = await openChecked(path, O_WRONLY | O_APPEND | O_CREAT);
  try {
    const { size } = await fh.stat();
    await fh.write(text(size));
  } finally {
    await fh.close();
  }
}

/** A file of ours read whole ('' when absent), never through a symlink. */
export async function readPrivate(path: string): Promise<string> {
  let fh: FileHandle;
  try {
    fh = await openChecked(path, O_RDONLY);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}

/** Empties a file of ours, never through a symlink. */
export async function truncatePrivate(path: string): Promise<void> {
  const fh = await openChecked(path, O_WRONLY);
  try {
    await fh.truncate(0);
  } finally {
    await fh.close();
  }
}

/**
 * Reads a file of ours line by line, never through a symlink and never as one string: it is
 * read in pieces of `pieceBytes` and each line (without its newline) is handed to `onLine`
 * as soon as it is whole, so only one line is ever held. `onLine` returns false to stop
 * early. A missing file has no lines. Lines are split on the newline byte, which never
 * occurs inside a UTF-8 sequence, so no character is cut.
 */
export function readLinesPrivate(path: string, onLine: (line: string) => boolean | void | Promise<boolean | void>, pieceBytes = 64 * 1024): Promise<void> {
  return readLineBytesPrivate(path, (line) => onLine(line.toString('utf8')), pieceBytes);
}

/**
 * readLinesPrivate without decoding: each line's bytes, as a view that is valid only during
 * the call (the piece it points into is reused by the next read): copy what you keep. `from`:
 * the byte offset to start at (a line boundary).
 */
export async function readLineBytesPrivate(path: string, onLine: (line: Buffer) => boolean | void | Promise<boolean | void>, pieceBytes = 64 * 1024, from = 0): Promise<void> {
  let partial: Buffer[] = [];
  let stopped = false;
  await readBytesPrivate(path, from, async (piece) => {
    let start = 0;
    for (let nl = piece.indexOf(10, 0); nl !== -1; nl = piece.indexOf(10, start)) {
      const line = partial.length ? Buffer.concat([...partial, piece.subarray(start, nl)]) : piece.subarray(start, nl);
      partial = [];
      start = nl + 1;
      // Awaited only when it is a promise: 20k lines are not 20k turns of the event loop.
      const r = onLine(line);
      if ((r instanceof Promise ? await r : r) === false) {
        stopped = true;
        return false;
      }
    }
    // Copied: the piece buffer is reused by the next read.
    if (start < piece.length) partial.push(Buffer.from(piece.subarray(start)));
  }, pieceBytes);
  if (!stopped && partial.length) await onLine(Buffer.concat(partial));
}

/**
 * A file of ours from byte `from` to its end, as it is, in pieces of up to `pieceBytes`
 * handed to `onPiece` (a view valid only during the call: the buffer is reused), which
 * returns false to stop. Never through a symlink; a missing file has no bytes.
 */
export async function readBytesPrivate(path: string, from: number, onPiece: (bytes: Buffer) => boolean | void | Promise<boolean | void>, pieceBytes = 1024 * 1024): Promise<void> {
  let fh: FileHandle;
  try {
    fh = await openChecked(path, O_RDONLY);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const piece = Buffer.alloc(Math.max(1, pieceBytes));
    for (let position = from; ;) {
      const { bytesRead } = await fh.read(piece, 0, piece.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const r = onPiece(piece.subarray(0, bytesRead));
      if ((r instanceof Promise ? await r : r) === false) return;
    }
  } finally {
    await fh.close();
  }
}

/**
 * A replacement for a file of ours, written in pieces: a fresh random 0600 temp file
 * (O_EXCL, no symlink followed) that `commit` renames over `path`; `abort` removes it.
 */
export async function openReplacement(path: string): Promise<{ write(text: string | Uint8Array): Promise<void>; commit(): Promise<void>; abort(): Promise<void> }> {
  const tmp = tempName(path);
  const fh = await open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  let closed = false;
  const close = async () => {
    if (!closed) await fh.close();
    closed = true;
  };
  return {
    write: async (text) => {
      if (typeof text === 'string') {
        await fh.write(text);
        return;
      }
      for (let done = 0; done < text.length;) done += (await fh.write(text, done, text.length - done)).bytesWritten;
    },
    commit: async () => {
      await close();
      await rename(tmp, path);
    },
    abort: async () => {
      await close();
      await unlink(tmp).catch(() => undefined);
    },
  };
}

// A temp name beside `path` nobody can guess in advance.
const tempName = (path: string) => `${path}.${randomBytes(9).toString('base64url')}.tmp`;

/** Replaces a file atomically: a fresh random 0600 temp file (O_EXCL), then rename. */
export async function replacePrivate(path: string, text: string): Promise<void> {
  const tmp = tempName(path);
  const fh = await open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

/** replacePrivate, synchronously. */
export function replacePrivateSync(path: string, text: string): void {
  const tmp = tempName(path);
  const fd = openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** readPrivate, synchronously; throws ENOENT when absent. */
export function readPrivateSync(path: string): string {
  const fd = openSync(path, O_RDONLY | O_NOFOLLOW);
  try {
    checkOpened(path, fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
