// The inspector's details for the developer's own programs: `<relay dir>/inspector-<port>.json`,
// 0600 in the per-user 0700 folder, so the kernel lets only the developer read it. It holds
// the page link (with its token), the relay token `wrap` needs, and the key the inspector
// proves itself with (proof.ts): `wrap` reads its token here instead of from argv, and
// checks that whatever answers on the port knows the key before it sends anything.
//
// Hazard: another user may have planted a file or symlink at the name, or own the folder;
// ensurePrivateDir and the O_NOFOLLOW, owner-checked reads refuse both.
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, readPrivateSync, replacePrivateSync } from './private-files.js';

/** What the file holds. */
export interface InspectorInfo {
  /** The inspector's origin, http://127.0.0.1:<port>. */
  url: string;
  /** The link that lets a browser in (page-login.ts). */
  pageUrl: string;
  /** The relay token (external clients, wrap). */
  token: string;
  /** The key the inspector answers challenges with (proof.ts), base64url. */
  proofKey: string;
  pid: number;
}

/** The file of the inspector on `port`. */
export function infoFilePath(dir: string, port: number): string {
  return join(dir, `inspector-${port}.json`);
}

/** The ports of the inspectors with an info file in `dir` (running, or left by a crash),
 *  ascending; none when the folder is missing or unreadable. */
export function inspectorPorts(dir: string): number[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const n of names) {
    const m = /^inspector-(\d{1,5})\.json$/.exec(n);
    if (m) ports.push(Number(m[1]));
  }
  return ports.sort((a, b) => a - b);
}

/** Writes the file (0600, through a random O_EXCL temp name); the folder must be ours and 0700. */
export function writeInfoFile(dir: string, port: number, info: InspectorInfo): string {
  ensurePrivateDir(dir, true);
  const path = infoFilePath(dir, port);
  replacePrivateSync(path, JSON.stringify(info, null, 2) + '\n');
  return path;
}

/** Removes the file when it is still this process's. */
export function removeInfoFile(path: string): void {
  try {
    const info = JSON.parse(readPrivateSync(path)) as Partial<InspectorInfo>;
    if (info.pid === process.pid) unlinkSync(path);
  } catch {
    // gone already, or not ours to remove
  }
}

/** Reads the file of the inspector on `port`: the details, or why they cannot be used. */
export function readInfoFile(dir: string, port: number): InspectorInfo | { problem: string; absent?: true } {
  const path = infoFilePath(dir, port);
  try {
    ensurePrivateDir(dir, true);
    const v = JSON.parse(readPrivateSync(path)) as Partial<InspectorInfo>;
    if (typeof v.url !== 'string' || typeof v.token !== 'string' || typeof v.proofKey !== 'string' || typeof v.pageUrl !== 'string') {
      return { problem: `${path} is not an inspector's details file (url, pageUrl, token and proofKey expected).` };
    }
    return { url: v.url, pageUrl: v.pageUrl, token: v.token, proofKey: v.proofKey, pid: typeof v.pid === 'number' ? v.pid : 0 };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return { absent: true, problem: `no inspector of yours is running on port ${port} (${path} is missing). Start it with \`npm start\` or \`npx mrtr-inspector\` (add --port ${port} if it is not the default).` };
    return { problem: `cannot read ${path}: ${e.message}` };
  }
}
