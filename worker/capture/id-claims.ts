// Which exchange ids are being numbered, and by which batch: the relay's pushed (live) batches
// and its backlog batches are numbered in two lanes (capture/write-behind.ts), so a batch
// holding an id the other lane is numbering must wait for that batch, or the same id would be
// numbered twice by one worker.
//
// Race, written down: a batch registers its ids and then waits only for the batches that
// held any of them when it registered, which all registered before it: the waits follow the
// order of registration, so they never form a cycle.
export class IdClaims {
  readonly #by = new Map<string, Promise<unknown>>();

  /** Registers `ids` for the batch `mine` (settled when it is numbered); resolves once every
   *  other batch that held one of them is numbered. */
  async claim(ids: readonly string[], mine: Promise<unknown>): Promise<void> {
    const before = new Set<Promise<unknown>>();
    for (const id of ids) {
      const other = this.#by.get(id);
      if (other && other !== mine) before.add(other);
      this.#by.set(id, mine);
    }
    await Promise.all(before);
  }

  /** The batch `mine` is numbered: its ids are free (those a later batch claimed stay its). */
  release(ids: readonly string[], mine: Promise<unknown>): void {
    for (const id of ids) if (this.#by.get(id) === mine) this.#by.delete(id);
  }
}
