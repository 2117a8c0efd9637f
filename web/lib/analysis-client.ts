// The page's one handle on the analysis worker: the ONE `wrap()` in the project. It also
// keeps the worker alive (a crash or out-of-memory must not lose the page): when it dies, every call still waiting on it is
// rejected with AnalysisWorkerDied, a new worker is started and initialised, the page's
// `rebuild` gives it what only the page has and re-reads the views, and the user is told.
//
// How a death is seen. An uncaught error fires `error` on the Worker; the worker may live
// on, but in a state nobody can vouch for, so it is replaced. A death that fires nothing
// (the worker closed itself, or was killed for memory) is seen through a Web Lock: the
// worker takes a lock named for this life and never lets go (`life.lifeline`); the page queues
// for the same lock, which is granted only when the worker is gone. A worker busy for a
// long analysis still holds it, so it is never taken for dead (a ping with a timeout would).
//
// Hazard: comlink calls to a dead worker never settle. Every call goes through a proxy that
// races it against this life's death, so nothing waits forever on a dead worker.
//
// Keys set this visit and not remembered (`keys.set` with remember=false) exist only in the
// worker's memory and die with it. The client keeps what it passed to `keys.set` in the
// page's memory (never in storage) and passes it again to each new worker.
//
// Race, written down: a worker can die during its own restart (a bad record that crashes
// every analysis, a script that fails to load). Its death starts the next restart, and the
// one in progress stops at its next call. After MAX_RESTARTS deaths with no rebuild
// finished in between, no new worker is started and the user is asked to reload, so a
// worker that dies on every start cannot loop. Hazard: a worker that closes itself before
// it holds its lifeline (during `init`) fires no event and is not seen: `start` then waits.
import { wrap, type Remote } from 'comlink';
import type { AnalysisApi } from '../../worker/facade.js';

/** The worker's services as the page calls them (comlink types a nested object as a value, not as calls). */
export type Analysis = { readonly [N in keyof AnalysisApi]: Remote<AnalysisApi[N]> };
/** Calls `K` of service `N` as plain async functions: what a state class asks of the worker (and a test's stub implements). */
export type Calls<N extends keyof AnalysisApi, K extends keyof AnalysisApi[N]> = {
  readonly [M in K]: AnalysisApi[N][M] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};
type InitOptions = Parameters<AnalysisApi['life']['init']>[0];
type InitAnswer = Awaited<ReturnType<AnalysisApi['life']['init']>>;
const MAX_RESTARTS = 3;

export interface ClientHooks {
  /** The options of `init`, for every new worker. */
  init: () => InitOptions;
  /** After a restart: hand the new worker what only the page has, and re-read the views. */
  rebuild: (api: Analysis) => Promise<void>;
  say: (message: string) => void;
}

/** What a call still waiting on a worker that died is rejected with. */
export class AnalysisWorkerDied extends Error {
  override readonly name = 'AnalysisWorkerDied';
}

interface Life {
  api: Analysis;
  /** Ends this life: terminates the worker and rejects what waits on it. */
  end(reason: string, report: boolean): void;
  /** Resolves once the worker holds its lifeline (or at once without Web Locks). */
  watch(): Promise<void>;
}

// Every call on `remote` (at any depth: `api.sessions.list()`) raced against `dead`; `onCall`
// is told the call's dotted path. `then` and symbols pass through untouched: an async
// function returning the api reads `then`, and comlink answers it so that the api is not
// mistaken for a promise. comlink's proxies are functions at every depth, so one proxy here
// wraps both the step down a path (`get`) and the call at its end (`apply`).
function guarded<T extends object>(remote: T, dead: Promise<never>, onCall: (path: string, args: unknown[], result: unknown) => void, path: readonly string[] = []): T {
  return new Proxy(remote, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'symbol' || prop === 'then' || typeof value !== 'function') return value;
      return guarded(value, dead, onCall, [...path, prop]);
    },
    apply(target, thisArg, args: unknown[]) {
      return Promise.race([Reflect.apply(target as (...a: unknown[]) => Promise<unknown>, thisArg, args), dead]).then((result) => {
        onCall(path.join('.'), args, result);
        return result;
      });
    },
  });
}

/** The analysis worker, replaced by `start` whenever it is needed. */
export class AnalysisClient {
  #life: Life | null = null;
  /** The keys passed to `keys.set` this visit, by server (page memory only). */
  readonly #keys = new Map<string, { text: string; remember: boolean }>();
  readonly #hooks: ClientHooks;
  #deaths = 0;

  constructor(hooks: ClientHooks) {
    this.#hooks = hooks;
  }

  /** The live worker's api; null before `start` and while a dead worker is being replaced. */
  get api(): Analysis | null {
    return this.#life?.api ?? null;
  }

  /**
   * Starts a worker (ending the current one, if any), initialises it, passes it again the
   * keys of this visit, and begins watching its life. Rejects with AnalysisWorkerDied if
   * it dies meanwhile (its death is reported to `onDeath` as well).
   */
  async start(): Promise<InitAnswer> {
    this.#life?.end('replaced', false);
    const life = this.#spawn();
    this.#life = life;
    const answer = await life.api.life.init(this.#hooks.init());
    for (const [server, k] of [...this.#keys]) await life.api.keys.set(server, k.text, k.remember);
    await life.watch();
    return answer;
  }

  // See the header's race. Every await below rejects if this new worker dies in turn.
  async #restart(reason: string): Promise<void> {
    const say = this.#hooks.say;
    if (++this.#deaths > MAX_RESTARTS) {
      if (this.#deaths === MAX_RESTARTS + 1) say(`The analysis worker stopped again (${reason}) and is not restarted any more: reload the page. Capture goes on; exchanges are still stored.`);
      return;
    }
    try {
      const init = await this.start();
      const api = this.api;
      if (!api) return;
      if (!init.ok) say(init.error.message);
      await this.#hooks.rebuild(api);
      if (this.api !== api) return; // it died during the rebuild: that death restarts
      this.#deaths = 0;
      say(`The analysis worker stopped (${reason}); it was restarted and rebuilt the session from storage.`);
    } catch (err) {
      if (err instanceof AnalysisWorkerDied) return;
      say(`The analysis worker stopped (${reason}) and could not be restarted (${err instanceof Error ? err.message : String(err)}): reload the page.`);
    }
  }

  terminate(): void {
    this.#life?.end('closed by the page', false);
    this.#life = null;
  }

  #spawn(): Life {
    const worker = new Worker(new URL('../../worker/facade.ts', import.meta.url), { type: 'module', name: 'mrtr-analysis' });
    let kill!: (err: Error) => void;
    const dead = new Promise<never>((_, reject) => (kill = reject));
    dead.catch(() => undefined);
    const lifeline = new AbortController();
    let over = false;
    const api = guarded(wrap<AnalysisApi>(worker) as unknown as Analysis, dead, (prop, args, result) => this.#journal(prop, args, result));
    const life: Life = {
      api,
      end: (reason, report) => {
        if (over) return;
        over = true;
        lifeline.abort();
        worker.terminate();
        kill(new AnalysisWorkerDied(`The analysis worker stopped (${reason}).`));
        if (this.#life === life) this.#life = null;
        if (report) void this.#restart(reason);
      },
      watch: async () => {
        const name = `mrtr-analysis-${crypto.randomUUID()}`;
        if (!(await api.life.lifeline(name)) || !navigator.locks) return;
        void navigator.locks
          .request(name, { signal: lifeline.signal }, () => life.end('it stopped without reporting an error: closed, or out of memory', true))
          .catch(() => undefined); // aborted: this life was ended by the page
      },
    };
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      life.end(`an uncaught error: ${e.message || 'no message (the worker script may have failed to load)'}`, true);
    });
    return life;
  }

  // keys.set, as the worker took it: a removal (empty text) forgets the key; an applied one
  // is kept (a success, or a failure to remember it: `applied`). A key that could not be read changed nothing
  // there, nor here.
  #journal(path: string, args: unknown[], result: unknown): void {
    if (path !== 'keys.set') return;
    const [server, text, remember] = args as Parameters<AnalysisApi['keys']['set']>;
    const r = result as Awaited<ReturnType<AnalysisApi['keys']['set']>>;
    if (!r.ok && !r.error.applied) return;
    if (text === '') this.#keys.delete(server);
    else this.#keys.set(server, { text, remember });
  }
}
