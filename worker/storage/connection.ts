// One lazily opened connection per store instance. The service worker can be killed and
// restarted at any time and a newer page may upgrade the schema under an older worker,
// so the connection is dropped (and reopened on next use) whenever the browser asks.
import { openDB } from 'idb';
import { DB_NAME, DB_VERSION, upgrade, type MrtrDatabase } from './schema.js';
import { StorageError, toStorageError } from './errors.js';

export class Connection {
  #db: Promise<MrtrDatabase> | null = null;
  constructor(readonly name: string = DB_NAME) {}

  /** The open database; opens it on first use and after it was closed or lost. */
  get(): Promise<MrtrDatabase> {
    if (!this.#db) {
      const opening = openDB<import('./schema.js').MrtrSchema>(this.name, DB_VERSION, {
        upgrade,
        // Another context wants a newer schema: let it, and reopen on our next call.
        blocking: () => this.#drop(opening),
        // The browser closed the connection abnormally (storage cleared, crash).
        terminated: () => this.#drop(opening, false),
        blocked: () => undefined,
      }).catch((err: unknown) => {
        this.#db = null;
        if (err instanceof Error && err.name === 'VersionError') {
          throw new StorageError(
            'blocked',
            'The stored capture database is newer than this build of the inspector. Reload the page to get the current build.',
            { cause: err },
          );
        }
        throw toStorageError(err, 'opening the capture database');
      });
      this.#db = opening;
    }
    return this.#db;
  }

  close(): void {
    const db = this.#db;
    this.#db = null;
    db?.then((d) => d.close(), () => undefined);
  }

  #drop(opening: Promise<MrtrDatabase>, close = true): void {
    if (this.#db === opening) this.#db = null;
    if (close) opening.then((d) => d.close(), () => undefined);
  }
}
