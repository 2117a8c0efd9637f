// Storage failures as data the caller can show. Quota is the one users can act on, so it
// gets its own kind and a message that says what to do.

export type StorageErrorKind = 'quota' | 'unavailable' | 'blocked' | 'not-found' | 'unknown';

/** Plain, cloneable form of a StorageError, for notices and comlink replies. */
export interface StorageErrorInfo {
  kind: StorageErrorKind;
  message: string;
}

/** The one error type the storage module throws. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(readonly kind: StorageErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
  toInfo(): StorageErrorInfo {
    return { kind: this.kind, message: this.message };
  }
}

/** Any failure as a StorageErrorInfo: a StorageError's own, else `unknown` with its message. */
export function storageErrorInfo(err: unknown): StorageErrorInfo {
  return err instanceof StorageError ? err.toInfo() : { kind: 'unknown', message: err instanceof Error ? err.message : String(err) };
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && 'name' in err ? String((err as { name: unknown }).name) : '';
}

/** True for the browser's "disk full / origin over quota" errors, however they arrive. */
export function isQuotaError(err: unknown): boolean {
  if (err instanceof StorageError) return err.kind === 'quota';
  const name = errorName(err);
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** Wraps anything thrown by IndexedDB into a StorageError (leaves StorageErrors alone). */
export function toStorageError(err: unknown, doing: string): StorageError {
  if (err instanceof StorageError) return err;
  if (isQuotaError(err)) {
    return new StorageError(
      'quota',
      `Storage is full while ${doing}: the browser refused more data for this site. ` +
        'Clear old capture sessions, or free disk space, then try again.',
      { cause: err },
    );
  }
  const name = errorName(err);
  if (name === 'InvalidStateError' || name === 'UnknownError' || name === 'SecurityError') {
    return new StorageError(
      'unavailable',
      `IndexedDB is unavailable while ${doing} (${name}). Private windows and some browser ` +
        'settings disable it; captures cannot be kept until it is available.',
      { cause: err },
    );
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new StorageError('unknown', `IndexedDB failed while ${doing}: ${detail}`, { cause: err });
}
