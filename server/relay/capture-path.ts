// Where captures go when no inspector page takes them: one definition for the relay and for
// `mrtr-inspector wrap`, which writes the same file when the relay is not running.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Default capture path when neither the option nor MRTR_RELAY_JSONL is set. */
export function defaultJsonlPath(): string {
  return join(tmpdir(), 'mrtr-inspector', 'relay-capture.jsonl');
}
