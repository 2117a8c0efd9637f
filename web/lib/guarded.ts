// The page's own storage writes (settings, watched targets, a new session) never throw at
// the user: a refusal is said, in the storage module's words when it has some, and the verb
// answers false so the caller leaves its state as it was.
import { StorageError } from '../../worker/storage/index.js';

/** Runs `fn`; a failure is said and answers false, success answers true. */
export async function guarded(say: (message: string) => void, fn: () => Promise<unknown>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (err) {
    say(err instanceof StorageError ? err.message : `Unexpected error: ${String(err)}`);
    return false;
  }
}
