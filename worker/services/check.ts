// "Check this server" in the page: the check engine (worker/check, the CLI's) run here over
// the Console's link, so every request goes out through the page's fetch, is tapped and is
// recorded in the capture session like any Console send. The drives carry origin `check`,
// the probes `tamper` (experiments: they never count against the calls they join). The
// report is linted as the CLI lints it and can be downloaded in the CLI's formats.
import { analyze } from '../analysis.js';
import { CHECK_DEFAULTS } from '../check/defaults.js';
import { checkJson, checkJunit, checkSarif } from '../check/report-formats.js';
import { runCheck } from '../check/run.js';
import { changesData } from '../check/select.js';
import type { CheckRun } from '../check/types.js';
import type { Transport } from '../console/types.js';
import { ALL_RULES } from '../lint/rules/index.js';
import type { Answer, Finding } from '../protocol.js';
import { checkView, type CheckGuardedTool, type CheckProgressView, type CheckView } from '../view/check-view.js';
import { fail, safeName, VERSION, type ServiceContext } from './context.js';
import { serverOf } from './keyring.js';

/** How a skipped tool is let in from the page. */
export const PAGE_ALLOW = 'tick it under "Tools that may change data" to check it';

/** The check's report in one of the CLI's formats. */
export type CheckFormat = 'json' | 'sarif' | 'junit';

export function createCheckService({ link, keyring }: Pick<ServiceContext, 'link' | 'keyring'>) {
  let running: AbortController | null = null;
  let last: { run: CheckRun; findings: Finding[] } | null = null;
  return {
    /** The tools a check leaves out unless ticked (not marked read-only), with why. */
    guarded(tools: readonly { name: string; annotations?: unknown }[]): CheckGuardedTool[] {
      return tools.flatMap((t) => {
        const reason = changesData(t.annotations);
        return reason !== undefined ? [{ name: t.name, reason }] : [];
      });
    },

    /** The budget every check runs with (the CLI's defaults), for the panel to state. */
    defaults(): { maxCalls: number; maxTimeMs: number; concurrency: number; maxWaitMs: number } {
      return { maxCalls: CHECK_DEFAULTS.maxCalls, maxTimeMs: CHECK_DEFAULTS.maxTimeMs, concurrency: CHECK_DEFAULTS.concurrency, maxWaitMs: CHECK_DEFAULTS.maxWaitMs };
    },

    /** Whether a check is running now. */
    running(): boolean {
      return running !== null;
    },

    /**
     * Checks the server at `url` (the Console's endpoint) with the CLI's budget; `allow`
     * names the tools not marked read-only that the user ticked. `progress` hears each step.
     */
    async start(url: string, opts: { allow: readonly string[] }, progress?: (p: CheckProgressView) => void): Promise<Answer<CheckView>> {
      if (running) return fail('invalid', 'a check is already running: stop it first');
      const controller = new AbortController();
      running = controller;
      // What really went out (a request the budget refused after Stop never did, so it is not recorded).
      const sent = new Set<string>();
      const send: Transport = (req) => {
        if (req.link) sent.add(req.link.id);
        return link.send(req);
      };
      try {
        const run = await runCheck({ url, allow: opts.allow, maxWaitMs: CHECK_DEFAULTS.maxWaitMs, maxCalls: CHECK_DEFAULTS.maxCalls, maxTimeMs: CHECK_DEFAULTS.maxTimeMs, concurrency: CHECK_DEFAULTS.concurrency },
          send, (s) => progress?.({ calls: s.calls, maxCalls: CHECK_DEFAULTS.maxCalls, target: s.target, ...(s.probe ? { probe: s.probe } : {}) }),
          { signal: controller.signal, howToAllow: PAGE_ALLOW });
        // Linted as the CLI lints it: the probes break client rules on purpose, so findings on their exchanges are left out.
        const analysis = await analyze(run.records, { keysFor: (u) => keyring.keysFor(serverOf(u)) });
        const probeSeqs = new Set(run.records.filter((r) => r.origin?.kind === 'tamper').map((r) => r.seq));
        const findings = analysis.findings.filter((f) => !probeSeqs.has(f.exchange));
        last = { run, findings };
        const session = await link.keep(run.records.filter((r) => sent.has(r.id)));
        return { ok: true, value: checkView(run, findings, { maxCalls: CHECK_DEFAULTS.maxCalls, stopped: controller.signal.aborted, session }) };
      } finally {
        running = null;
      }
    },

    /** Stops the running check: nothing more is sent; it ends with what it has. */
    stop(): boolean {
      if (!running) return false;
      running.abort();
      return true;
    },

    /** The last check's report as the CLI writes it (`--format json|sarif|junit`). */
    export(format: CheckFormat): { text: string; fileName: string; type: string } | null {
      if (!last) return null;
      const { run, findings } = last;
      let host = run.target;
      try {
        host = new URL(run.target).host;
      } catch { /* a stdio:// or odd URL: its text is made safe below */ }
      const base = `check-${safeName(host)}`;
      if (format === 'json') return { text: checkJson(run, findings, VERSION), fileName: `${base}.json`, type: 'application/json' };
      if (format === 'sarif') return { text: checkSarif(run, findings, ALL_RULES, VERSION), fileName: `${base}.sarif`, type: 'application/sarif+json' };
      return { text: checkJunit(run, findings), fileName: `${base}.xml`, type: 'application/xml' };
    },
  };
}
