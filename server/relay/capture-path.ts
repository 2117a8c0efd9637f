// Where the relay keeps its files: one definition for the relay and for `mrtr-inspector
// wrap`, which writes the same capture file when the inspector is not running and reads the
// inspector's details (info-file.ts) from the same folder.
//
// Each inspector has its own capture file, named for its port: two inspectors of one user
// must never drain each other's records, and a page's IndexedDB is per origin (per port)
// anyway, so a restart on the same port finds what was filed while it was away.
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** The inspector's default port (`--port`, PORT). */
export const DEFAULT_PORT = 5173;

/** The env variable that names the per-user folder instead of `<tmp>/mrtr-inspector-<uid>`. */
export const RELAY_DIR_ENV = 'MRTR_RELAY_DIR';

/** The per-user folder (checked ours and 0700 before use): MRTR_RELAY_DIR, else one in the shared temp folder. */
export function relayDir(env: Record<string, string | undefined> = process.env): string {
  const given = env[RELAY_DIR_ENV];
  if (given) return resolve(given);
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_');
  return join(tmpdir(), `mrtr-inspector-${user}`);
}

/** Default capture path of the inspector on `port` when neither an option nor MRTR_RELAY_JSONL names one. */
export function defaultJsonlPath(port: number = DEFAULT_PORT, dir: string = relayDir()): string {
  return join(dir, `relay-capture-${port}.jsonl`);
}
