// What a run of backlog drains sends a tab waiting to drain after it (capture/backlog-lock.ts):
// its numbered copies, so that tab lists them before they are stored. All at once when the
// run's writes begin (its reading ended, or reached the memory bound), each batch as it is
// read after that. While the run reads, the batches are only held and an empty notice says
// the run is moving: copying them across then (a structured clone each) and the waiting tab's
// analysis of them slowed this tab's own listing about twofold on two cores
// (docs/benchmarks.md, 2026-12-07: two tabs). Nothing is sent while no tab waits
// (`othersWaiting`), and the held copies go at the run's end.
//
// The copies of a batch were laid just before it is reported read; pushes laid meanwhile
// are not the batch's (filtered by id).
import type { ExchangeRecord } from '../protocol.js';
import type { StoredExchange } from '../storage/index.js';

export interface BacklogShareDeps {
  /** True when another tab waits to drain after this run. */
  othersWaiting: () => Promise<boolean>;
  /** Posts the copies (`backlog-laid`) for the waiting tab. */
  post: (records: StoredExchange[]) => void;
  stopped: () => boolean;
}

export class BacklogShare {
  readonly #deps: BacklogShareDeps;
  /** Copies laid since the last batch of the run being read (null between runs). */
  #laid: StoredExchange[] | null = null;
  /** The run's copies not yet sent, held back while the run reads (null once its writes began). */
  #held: StoredExchange[] | null = null;

  constructor(deps: BacklogShareDeps) {
    this.#deps = deps;
  }

  /** A run of drains starts reading. */
  begin(): void {
    this.#laid = [];
    this.#held = [];
  }

  /** The run ended: nothing more is collected. */
  end(): void {
    this.#laid = null;
    this.#held = null;
  }

  /** Copies laid in (the run's batches, and any push laid meanwhile). */
  laid(records: readonly StoredExchange[]): void {
    this.#laid?.push(...records);
  }

  /** A batch of the run was read and laid in. */
  batchRead(batch: readonly ExchangeRecord[]): void {
    const laid = this.#laid;
    if (!laid) return;
    this.#laid = [];
    const ids = new Set(batch.map((r) => r.id));
    const records = laid.filter((r) => ids.has(r.id));
    if (this.#held) {
      this.#held.push(...records);
      this.#send([]);
    } else {
      this.#send(records);
    }
  }

  /** The run's writes begin: what was held is sent. */
  writing(): void {
    const held = this.#held;
    this.#held = null;
    if (held?.length) this.#send(held);
  }

  #send(records: StoredExchange[]): void {
    void this.#deps.othersWaiting().then((waiting) => {
      if (waiting && !this.#deps.stopped()) this.#deps.post(records);
    });
  }
}
