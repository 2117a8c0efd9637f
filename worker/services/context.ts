// The one shared context every service of the analysis worker is built from: storage, the
// sessions held in memory, the keyring, the capture owner and the Console's link. Built
// once per worker by the facade; every piece of state here has exactly one owner, named
// beside it, and services reach it only through this object.
//
// Faults: the worker may die and be replaced by the page. All held here is rebuilt:
// sessions load lazily from storage, remembered keys from settings, and what storage cannot
// give back (keys set for this visit only, exchanges storage refused) the page sends again.
import { CaptureStore, StorageError } from '../storage/index.js';
import { TokenReader } from '../view/conversation-view.js';
import { SessionModel } from '../view/session-model.js';
import type { Answer, ErrorInfo, ErrorKind } from '../protocol.js';
import { CaptureOwner } from './capture-owner.js';
import { CheckGate, pageHasRead } from './check-gate.js';
import { CheckSlices } from './check-slices.js';
import { Coalescer } from './coalescer.js';
import { createConsoleLink, type ConsoleLink } from './console-link.js';
import { ConsoleStep } from './console-step.js';
import { Keyring, serverOf } from './keyring.js';
import { ReadFirst } from './read-first.js';
import { createUnsavedApi } from './unsaved-api.js';

export interface ServiceContext {
  store: CaptureStore;
  /** Session models by id, loaded on first read; a failed load is not cached. */
  sessions: Map<string, Promise<SessionModel>>;
  keyring: Keyring;
  tokens: TokenReader;
  /** The one owner of capture sessions' changes (services/capture-owner.ts). */
  owner: CaptureOwner;
  /** Exchanges storage refused, held for the page (services/unsaved-api.ts). */
  unsaved: ReturnType<typeof createUnsavedApi>;
  /** How Console sends leave and are kept (services/console-link.ts). */
  link: ConsoleLink;
  /** The step-through call: the console drives it, tamper tests read its rounds. */
  step: ConsoleStep;
  /** Runs `fn`, answering a storage refusal as data; anything else is a bug and throws. */
  guard: <T>(fn: () => Promise<T>) => Promise<Answer<T>>;
  modelOf: (session: string) => Promise<SessionModel>;
  /** The session's model if it is loaded (its load finished), else undefined; never loads. */
  loadedModel: (session: string) => SessionModel | undefined;
  builtOf: (session: string) => ReturnType<SessionModel['built']>;
  /** As `builtOf`, for the page's read of its list: check slices waiting for that read go on (services/read-first.ts). */
  listBuiltOf: (session: string) => ReturnType<SessionModel['built']>;
  /** The analysis with every check done (findings whole: exports, the findings summary, replay). */
  checkedOf: (session: string) => ReturnType<SessionModel['built']>;
  /** Schedules the analysis of a session that changed. */
  analyseSoon: (session: string) => void;
  /** Resolves once what the owner laid in so far is analysed, checks included, and the page had a moment to read it (the check gate waits for it). */
  analysed: () => Promise<void>;
  /**
   * Resolves once what the owner laid in so far is listed (built, not necessarily checked):
   * relay and import writes wait for this, so they run beside the trailing checks instead of
   * after them.
   */
  listed: () => Promise<void>;
  /**
   * A large batch is being read (a relay drain, an import): until the returned function is
   * called and the page has its list, builds list and thread what comes but check none of it
   * (see `checkMs`, services/check-gate.ts).
   */
  reading: () => () => void;
  /** How long a build may check now (the SessionModel option): nothing while a batch is read. */
  checkMs: () => number | undefined;
  /** Records on their way in (a relay push being numbered): check slices wait for them. */
  arriving: (laid: Promise<unknown>) => void;
  /** A session was cleared through this worker's page: who holds numbers for it hears it. */
  cleared: Listeners<string>;
}

/** A list of listeners to one kind of event. */
export class Listeners<T> {
  readonly #fns = new Set<(value: T) => void>();
  hear(fn: (value: T) => void): void { this.#fns.add(fn); }
  tell(value: T): void { for (const fn of this.#fns) fn(value); }
}

/** How long the page is given to read its view after being told of a change (see `analysed`). */
const PAGE_READ_MS = 100;

/** How long checks wait, after a large batch was read, for the page to read its list. */
const LISTED_WAIT_MS = 1000;

/** How long check slices wait, once the page was told records changed, for its read (services/read-first.ts). */
const PAGE_FIRST_MS = 100;

/**
 * How long one build may check (read tokens, lint) when no large batch is being read: a live
 * exchange is checked whole within it (a page's read checks only its own changes, newest
 * first: SessionModel.built); what a large batch left is checked in slices of it, with a turn
 * of the event loop between two, so a live record or a read waits for one short slice at most. 40 ms slices of
 * 128-conversation chunks ran 47-112 ms in Node (more in a busy browser), and a live call
 * waited 0.19-0.31 s at p95 while a 20k backlog was checked. Over the 20k backlog in Node,
 * with the budget asked after each subject (unchecked-queue.ts): 10 ms slices of 32 ran
 * p50 10.9 / p95 13.5-16.2 ms, 5 ms slices of 16 p50 5.5-5.7 / p95 6.8-8.0 ms; the whole
 * check 0.43-0.72 s with the first, 0.49-0.50 s with the second (noisy, not slower).
 */
const CHECK_SLICE_MS = 5;

/** Conversations (or exchanges) whose tokens are read together; the budget is asked after each. */
const CHECK_CHUNK = 16;

/** The version written into reports this worker makes (SARIF's tool version). */
export const VERSION = '0.1.0';

/** A failed answer: expected failures are data, with a message saying cause and fix. */
export function fail(kind: ErrorKind, message: string): { ok: false; error: ErrorInfo } {
  return { ok: false, error: { kind, message } };
}

/** A file name made of safe characters only. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'capture';
}

export function createContext(): ServiceContext {
  const store = new CaptureStore();
  const sessions = new Map<string, Promise<SessionModel>>();
  const keyring = new Keyring();
  const tokens = new TokenReader(keyring);
  const unsaved = createUnsavedApi({ store, sessions, guard });

  async function guard<T>(fn: () => Promise<T>): Promise<Answer<T>> {
    try {
      return { ok: true, value: await fn() };
    } catch (err) {
      if (err instanceof StorageError) return { ok: false, error: err.toInfo() };
      throw err;
    }
  }

  // The loaded models, by the load that made them (a session dropped and loaded again is a new load).
  const loaded = new WeakMap<Promise<SessionModel>, SessionModel>();
  function loadedModel(session: string): SessionModel | undefined {
    const m = sessions.get(session);
    return m && loaded.get(m);
  }
  function modelOf(session: string): Promise<SessionModel> {
    let m = sessions.get(session);
    if (!m) {
      m = (async () => {
        // An imported file is a finished capture (final), also after a reload.
        const imported = (await store.listSessions()).some((s) => s.id === session && s.imported === true);
        const model = new SessionModel([], { final: imported, bodies: store, checkMs, engine: { checkChunk: CHECK_CHUNK } });
        for await (const page of store.allExchanges(session)) model.put(page);
        model.hold(unsaved.heldOf(session));
        return model;
      })();
      // A failed load is not cached: the next call tries again.
      const load = m;
      load.then((model) => loaded.set(load, model), () => sessions.delete(session));
      sessions.set(session, m);
    }
    return m;
  }

  const keysFor = (url: string) => keyring.keysFor(serverOf(url));
  /** The page's reads of its list (it reads after it is told), which go before check slices. */
  const reads = new ReadFirst({ listening: () => owner.listening, changed: () => owner.lastChanged, waitMs: PAGE_FIRST_MS });
  async function builtOf(session: string) {
    const model = await modelOf(session);
    const b = await model.built(keysFor, keyring.version);
    // Whatever made this build (a read of a session just loaded, new keys, a batch), what it
    // left unchecked is checked next (once no batch is being read: see `reading`).
    if (model.unchecked > 0 && gate.open) analyseSoon(session);
    return b;
  }
  async function listBuiltOf(session: string) {
    const b = await builtOf(session);
    reads.read();
    return b;
  }
  async function checkedOf(session: string) {
    const model = await modelOf(session);
    const b = await model.built(keysFor, keyring.version);
    return model.unchecked > 0 ? model.checkMore(keysFor, keyring.version, { whole: true }) : b;
  }

  // Changes are analysed once per window while they keep coming (services/coalescer.ts), so
  // the next read finds the analysis done; a read never waits for the window. What a build
  // left unchecked is checked next, a slice per build, while no large batch is being read
  // and nothing new comes (new records are built first: the coalescer runs again).
  const analysers = new Map<string, Coalescer>();
  function analyseSoon(session: string): void {
    let c = analysers.get(session);
    if (!c) analysers.set(session, (c = new Coalescer(() => analyse(session))));
    c.poke();
  }
  async function analyse(session: string): Promise<void> {
    const model = await modelOf(session);
    await model.built(keysFor, keyring.version);
    await slices.run(session, {
      get version() { return model.version; },
      get unchecked() { return model.unchecked; },
      checkMore: (opts) => model.checkMore(keysFor, keyring.version, opts),
    });
  }

  // Records on their way in: a check slice waits for them (services/check-slices.ts).
  const arrivals = new Set<Promise<unknown>>();
  function arriving(laid: Promise<unknown>): void {
    const p = laid.catch(() => undefined).finally(() => arrivals.delete(p));
    arrivals.add(p);
  }
  const slices = new CheckSlices({
    open: () => gate.open,
    tell: (session) => owner.checked(session),
    arriving: () => (arrivals.size > 0 ? Promise.all(arrivals) : reads.pending()),
  });

  // Large batches being read (see `reading`): checks wait for them all to be read and listed
  // (services/check-gate.ts), then each loaded session's checks go on.
  const gate = new CheckGate({
    listed: async () => {
      await analysed();
      await pageHasRead({ listening: () => owner.listening, told: () => owner.lastTold, read: () => reads.lastRead }, LISTED_WAIT_MS);
    },
    resume: () => { for (const s of sessions.keys()) analyseSoon(s); },
  });
  const checkMs = () => (gate.open ? CHECK_SLICE_MS : 0);
  const reading = () => gate.reading();

  // Idle means: what was handed to the owner is laid in and analysed, and the page, told of
  // it, has had a moment to read its view (a page reads within a few ms of being told; a
  // write started before that read would make the read wait behind it).
  async function analysed(): Promise<void> {
    const idle = async () => {
      await new Promise((r) => setTimeout(r, 0));
      await owner.settled();
      await Promise.all([...analysers.values()].map((c) => c.idle()));
    };
    await idle();
    const since = Date.now() - owner.lastTold;
    if (since >= PAGE_READ_MS) return;
    await new Promise((r) => setTimeout(r, PAGE_READ_MS - since));
    await idle();
  }

  // Listed means: what was handed to the owner is laid in and every loaded session is built
  // at its current version (threaded and listed). What the builds left unchecked is checked
  // in slices meanwhile, and a write waits for none of it; nor for the page's read, as
  // `analysed` does: while checks run the page is told every 250 ms, and chunks that waited
  // out each of those reads were stored slower than after the checks (docs/benchmarks.md).
  // A build here is what a page's read would make.
  async function listed(): Promise<void> {
    await new Promise((r) => setTimeout(r, 0));
    await owner.settled();
    for (const session of [...sessions.keys()]) await loadedModel(session)?.built(keysFor, keyring.version);
  }

  // Notices heard, relay records and Console sends are laid into the sessions by the owner;
  // the page is only told.
  const owner = new CaptureOwner({ store, sessions, analyseSoon, load: modelOf });
  const link = createConsoleLink({ store, apply: (records) => owner.apply(records) });
  const step = new ConsoleStep(link.keep, {
    load: () => store.getSetting('consoleAnswers'),
    save: (entries) => store.setSetting('consoleAnswers', entries),
  });

  return { store, sessions, keyring, tokens, owner, unsaved, link, step, guard, modelOf, loadedModel, builtOf, listBuiltOf, checkedOf, analyseSoon, analysed, listed, reading, checkMs, arriving, cleared: new Listeners<string>() };
}
