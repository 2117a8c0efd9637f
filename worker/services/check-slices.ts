// What builds left unchecked (a backlog listed before it was checked) is checked here a short
// slice at a time, giving the worker's event loop a turn between slices: a live record pushed
// meanwhile, and the page's reads, are served between two slices rather than after all of
// them. Before each slice, records still arriving (a relay push being numbered) are laid in
// first, and a record laid in ends the run: its build comes next (the coalescer runs again)
// and checks it first, newest first.
//
// The page is told of checks' progress at most every `tellEveryMs` and after the last slice:
// it re-reads its list when told, and a re-read after each slice kept the page and this
// worker busy reading rows whose only change was a findings count, so a live record's own
// re-read queued behind them. The slices between two notices defer their changes, and the
// slice the page is told of publishes them (view/session-model.ts): a live record's read in
// between carries its own rows, not those the slices changed.
//
// Race, written down: a run ended by a change of records leaves its progress untold; the
// change itself tells the page, and the page's next read is a build made after the slice.

/** The session's model as this loop uses it. */
export interface Checkable {
  /** Bumped when records are laid in (or held copies change). */
  readonly version: number;
  /** Conversations and exchanges still to check. */
  readonly unchecked: number;
  /** One slice of checks (a build within the host's budget); `defer`: its changes wait for
   *  a slice that publishes them. A slice that does not defer publishes those before it. */
  checkMore(opts: { defer: boolean }): Promise<unknown>;
}

export interface CheckSlicesDeps {
  /** True while checks may run (no large batch is being read). */
  open: () => boolean;
  /** The page is told the session changed (its findings counts did). */
  tell: (session: string) => void;
  /** What goes before the next slice: records on their way in (relay pushes being
   *  numbered), the page's read of a change it was told of; null when nothing. */
  arriving: () => Promise<unknown> | null;
  /** A turn of the event loop (a macrotask: messages and reads queued meanwhile run first). */
  turn?: () => Promise<void>;
  now?: () => number;
  /** How often the page is told while slices run. */
  tellEveryMs?: number;
}

/** How often the page is told of checks' progress while they run (the status bar's `checking N…`). */
export const TELL_EVERY_MS = 250;

// A turn of the event loop through a message, not a timer: a timer set from a timer's task
// five levels deep is held back at least 4 ms (the HTML timer clamp), a large part of a 10 ms slice.
function macrotask(): Promise<void> {
  if (typeof MessageChannel !== 'function') return new Promise((r) => setTimeout(r, 0));
  return new Promise((r) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => {
      c.port1.close();
      r();
    };
    c.port2.postMessage(null);
  });
}

export class CheckSlices {
  readonly #deps: CheckSlicesDeps;
  /** When each session's page was last told of checks' progress. */
  readonly #toldAt = new Map<string, number>();

  constructor(deps: CheckSlicesDeps) {
    this.#deps = deps;
  }

  /** Checks what `model` left, a slice at a time, until it is all checked, the gate shuts or records are laid in. */
  async run(session: string, model: Checkable): Promise<void> {
    const { open, arriving } = this.#deps;
    const now = this.#deps.now ?? Date.now;
    const turn = this.#deps.turn ?? macrotask;
    const every = this.#deps.tellEveryMs ?? TELL_EVERY_MS;
    let untold = false;
    const tell = () => {
      untold = false;
      this.#toldAt.set(session, now());
      this.#deps.tell(session);
    };
    while (open() && model.unchecked > 0) {
      for (let a = arriving(); a !== null; a = arriving()) await a.catch(() => undefined);
      const version = model.version;
      const due = now() - (this.#toldAt.get(session) ?? -Infinity) >= every;
      await model.checkMore({ defer: !due });
      // Laid in meanwhile: told, built and checked next (what this slice deferred is
      // published by the next run's first told slice, or by the build that ends the checks).
      if (model.version !== version) return;
      untold = true;
      if (model.unchecked === 0 || due) tell();
      await turn();
    }
    if (untold) {
      // The gate shut: what was checked so far is published (a build that checks nothing
      // while the gate is shut) and shown meanwhile.
      await model.checkMore({ defer: false });
      tell();
    }
  }
}
