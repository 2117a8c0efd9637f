// Which demo tool the toolbar's "Call" sends: the user's last choice (kept in localStorage,
// like the layout: view state, not capture data), else DEMO_TOOL. The menu's names come
// from the demo's own tools/list, asked once, the first time the menu opens or before the
// first Call of a tool other than DEMO_TOOL, so a tool the list says runs only as a task is
// offered as a task before any call fails (a -32021 answer still marks one that did not say).
import type { ListedTool } from '../../worker/facade.js';
import { DEMO_ENDPOINT, DEMO_TOOL, listTools } from './demo-call.js';

const KEY = 'mrtr-inspector.demo-tool.v1';

function stored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export class DemoTools {
  /** Reads the tools out of the answer's body (the analysis worker does). */
  readonly #read: (body: string) => Promise<ListedTool[]>;
  #chosen = $state(stored() ?? DEMO_TOOL);
  #names = $state.raw<string[] | null>(null);
  #error = $state<string | null>(null);
  /** Tools the demo's list declares task-only or answered -32021 for: "Call" offers the Console instead. */
  #taskOnly = $state.raw<ReadonlySet<string>>(new Set());
  #loading: Promise<void> | null = null;

  constructor(read: (body: string) => Promise<ListedTool[]>) {
    this.#read = read;
  }

  /** The tool "Call" sends. */
  get chosen(): string { return this.#chosen; }
  /** The demo's tools, once listed; null before. */
  get names(): readonly string[] | null { return this.#names; }
  /** Why the list could not be read (the menu says it, and still offers the chosen tool). */
  get error(): string | null { return this.#error; }

  /** Lists the demo's tools, once (a failed attempt may be tried again). */
  load(): Promise<void> {
    this.#loading ??= listTools(DEMO_ENDPOINT, this.#read).then((r) => {
      if ('tools' in r) {
        this.#names = r.tools.map((t) => t.name);
        const declared = r.tools.filter((t) => t.taskOnly).map((t) => t.name);
        if (declared.length) this.#taskOnly = new Set([...this.#taskOnly, ...declared]);
        this.#error = null;
      } else {
        this.#error = r.error;
        this.#loading = null;
      }
    });
    return this.#loading;
  }

  /**
   * Whether `name` must be called as a task, asked before a Call: lists the demo's tools
   * first when they were never listed and `name` is not the default (which is known to
   * answer at once), so the list's declaration is read before anything is sent.
   */
  async needsTask(name: string): Promise<boolean> {
    if (this.#names === null && name !== DEMO_TOOL) await this.load();
    return this.isTaskOnly(name);
  }

  /** Whether the demo said `name` runs only as a task. */
  isTaskOnly(name: string): boolean { return this.#taskOnly.has(name); }
  markTaskOnly(name: string): void { this.#taskOnly = new Set([...this.#taskOnly, name]); }

  /** Makes `name` the tool "Call" sends, now and on later visits. */
  choose(name: string): void {
    this.#chosen = name;
    try {
      localStorage.setItem(KEY, name);
    } catch {
      // Storage blocked: the choice lasts for this visit.
    }
  }
}
