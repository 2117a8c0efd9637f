// Verification keys as the page may see them: which servers have one, never the key.
import { StorageError } from '../storage/index.js';
import type { KeyInfo } from '../view/types.js';
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
     * `remember`, also in IndexedDB settings. The answer never contains the key; `applied`
     * says whether the key is now in use (false only for a key that could not be read).
     */
    async set(server: string, text: string, remember: boolean): Promise<{ ok: boolean; error?: string; keys: KeyInfo[]; applied: boolean }> {
      const r = keyring.set(server, text, { remembered: remember });
      if (!r.ok) return { ok: false, error: r.error, keys: keyring.list(), applied: false };
      try {
        await rememberKeys();
      } catch (err) {
        const why = err instanceof StorageError ? err.message : 'unexpected storage error';
        return { ok: false, error: `The key is set for this visit but could not be remembered: ${why}`, keys: keyring.list(), applied: true };
      }
      return { ok: true, keys: keyring.list(), applied: true };
    },
  };
}
