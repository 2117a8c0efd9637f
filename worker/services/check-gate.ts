// When the analysis worker may check (read tokens, lint): not while a large batch is being
// read (a relay drain, a page import), and, once it is read, not before the page has its
// list. Listed first, checked next: checking as soon as the reading ended made the last
// batch's listing wait behind check slices, and the news of each slice made the page draw
// its list again meanwhile (a 20k relay backlog was listed 0.2-0.8 s later, on a
// machine whose two cores the page and this worker share).
//
// Race, written down: readings overlap (a drain during an import); the gate opens when the
// last of them is read AND listed, and `resume` is called once per opening. A reading whose
// end is reported twice counts once.

export interface CheckGateDeps {
  /** Resolves once what the reading laid in is analysed and the page had its read of it. */
  listed: () => Promise<void>;
  /** The gate opened: checks may go on (the host schedules each loaded session's). */
  resume: () => void;
}

export class CheckGate {
  readonly #deps: CheckGateDeps;
  #holds = 0;

  constructor(deps: CheckGateDeps) {
    this.#deps = deps;
  }

  /** True when checks may run. */
  get open(): boolean {
    return this.#holds === 0;
  }

  /** A large batch is being read: the gate stays shut until the returned function is called
   *  and what was read is listed. */
  reading(): () => void {
    this.#holds += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      void this.#deps.listed().catch(() => undefined).finally(() => {
        this.#holds -= 1;
        if (this.#holds === 0) this.#deps.resume();
      });
    };
  }
}

/** What `pageHasRead` looks at: whether a page listens, when it was last told of a change, and
 *  when a view was last read (Date.now() stamps). */
export interface PageReads {
  listening: () => boolean;
  told: () => number;
  read: () => number;
}

/**
 * Resolves once the page, told of a change, has read a view since, or after `ms` (a page
 * busy drawing, or one not reading this session); at once when no page listens.
 */
export async function pageHasRead(p: PageReads, ms: number, now: () => number = Date.now): Promise<void> {
  const until = now() + ms;
  while (p.listening() && p.read() < p.told() && now() < until) await new Promise((r) => setTimeout(r, 10));
}
