// What a batch handed to the write-behind (capture/write-behind.ts) resolves to, and the
// count-down behind it: a batch is written when every one of its copies is, whichever
// chunk and transaction each went into.
import type { ReservedCopy } from '../storage/index.js';

/** Copies grouped by the session they were numbered into. */
export function bySession(items: readonly ReservedCopy[]): Map<string, ReservedCopy[]> {
  const out = new Map<string, ReservedCopy[]>();
  for (const i of items) {
    const list = out.get(i.copy.session);
    if (list) list.push(i);
    else out.set(i.copy.session, [i]);
  }
  return out;
}

/** One batch taken: laid once numbered, written later. */
export interface Taken {
  /** Resolves once the batch is laid (or refused). */
  laid: Promise<void>;
  /** Resolves true once every copy of the batch is committed; false when any was refused. */
  written: Promise<boolean>;
}

/** What one take's `written` resolves to: counted down as its copies are written. */
export interface Outcome {
  left: number;
  ok: boolean;
  resolve: (ok: boolean) => void;
  promise: Promise<boolean>;
}

export function outcome(left: number): Outcome {
  let resolve: (ok: boolean) => void = () => undefined;
  const promise = new Promise<boolean>((r) => { resolve = r; });
  return { left, ok: true, resolve, promise };
}
