// Verification keys as the page may see them: which servers have one, never the key.
import { StorageError } from '../storage/index.js';
import type { Answer } from '../protocol.js';
import type { KeyError, KeyInfo } from '../view/types.js';
import type { ServiceContext } from './context.js';

export function createKeysService({ store, keyring }: Pick<ServiceContext, 'store' | 'keyring'>) {
  async function rememberKeys(): Promise<void> {
    await store.setSetting('tokenKeys', keyring.remembered());
  }

  return {
    list(): KeyInfo[] {
      return keyring.list();
    },

    /**
     * Sets the verification key for a server (empty text removes it). Kept in memory; with
     * `remember`, also in IndexedDB settings. The answer (the keys now set) never contains
     * the key; a failure's `applied` says whether the key is in use all the same (set for
     * this visit, not remembered) or not (it could not be read).
     */
    async set(server: string, text: string, remember: boolean): Promise<Answer<KeyInfo[], KeyError>> {
      const r = keyring.set(server, text, { remembered: remember });
      if (!r.ok) return { ok: false, error: { kind: 'invalid', message: r.error, keys: keyring.list(), applied: false } };
      try {
        await rememberKeys();
      } catch (err) {
        const why = err instanceof StorageError ? err.message : 'unexpected storage error';
        const kind = err instanceof StorageError ? err.kind : 'unknown';
        return { ok: false, error: { kind, message: `The key is set for this visit but could not be remembered: ${why}`, keys: keyring.list(), applied: true } };
      }
      return { ok: true, value: keyring.list() };
    },
  };
}
