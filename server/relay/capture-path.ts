// Where captures go when no inspector page takes them: one definition for the relay and for
// `mrtr-inspector wrap`, which writes the same file when the relay is not running.
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Default capture path when neither the option nor MRTR_RELAY_JSONL is set: a folder of
 *  this user's own in the shared temp folder (checked 0700 and ours before use). */
export function defaultJsonlPath(): string {
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_');
  return join(tmpdir(), `mrtr-inspector-${user}`, 'relay-capture.jsonl');
}
