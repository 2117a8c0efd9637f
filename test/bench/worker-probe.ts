// A page's dedicated workers (the analysis worker holds the session) over the DevTools
// protocol: their JS heap, sampled, and a CPU profile. Playwright opens no protocol session
// on a worker, and `performance.memory` is not told in one by this Chromium, so the page's
// own session attaches to them (non-flat: messages go through Target.sendMessageToTarget).
// Attach on the blank page, before navigating: workers are attached as they are spawned.
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }
/** V8's profile (Profiler.stop's answer). */
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

export interface WorkerProbe {
  /** The largest used JS heap seen in any worker (MB), sampled every `heapEveryMs`; null if none was. */
  heapPeakMb(): number | null;
  /** Starts the CPU profiles now, in the workers attached so far (else they start at attach when asked for). */
  startProfiles(): Promise<void>;
  /** Ends the CPU profiles: one per worker. */
  stopProfiles(): Promise<{ url: string; profile: CpuProfile }[]>;
  detach(): Promise<void>;
}

/** Attaches to every worker the page spawns from now on; `profile`: start V8's sampling profiler in each. */
export async function probeWorkers(page: Page, opts: { profile?: boolean; intervalUs?: number; heapEveryMs?: number } = {}): Promise<WorkerProbe> {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map<string, string>(); // session → url
  const waiting = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  let peak: number | null = null;
  let on = true;
  const send = (sessionId: string, method: string, params: object = {}) => new Promise<unknown>((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => {
      waiting.delete(id);
      resolve(null);
    });
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id === undefined) return;
    waiting.get(m.id)?.(m.result ?? null);
    waiting.delete(m.id);
  });
  cdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => void workers.delete(e.sessionId));
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (e.targetInfo.type !== 'worker') return;
    workers.set(e.sessionId, e.targetInfo.url);
    if (opts.profile) void startProfile(e.sessionId);
  });
  const startProfile = async (sessionId: string) => {
    await send(sessionId, 'Profiler.enable');
    await send(sessionId, 'Profiler.setSamplingInterval', { interval: opts.intervalUs ?? 500 });
    await send(sessionId, 'Profiler.start');
  };
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  void (async () => {
    while (on) {
      for (const sessionId of [...workers.keys()]) {
        const r = await send(sessionId, 'Runtime.getHeapUsage') as { usedSize?: number } | null;
        if (r?.usedSize !== undefined) peak = Math.max(peak ?? 0, r.usedSize);
      }
      await new Promise((r) => setTimeout(r, opts.heapEveryMs ?? 250));
    }
  })();
  return {
    heapPeakMb: () => (peak === null ? null : peak / (1 << 20)),
    async startProfiles() {
      await Promise.all([...workers.keys()].map(startProfile));
    },
    async stopProfiles() {
      const out: { url: string; profile: CpuProfile }[] = [];
      for (const [sessionId, url] of [...workers]) {
        const r = await send(sessionId, 'Profiler.stop') as { profile?: CpuProfile } | null;
        if (r?.profile) out.push({ url, profile: r.profile });
      }
      return out;
    },
    async detach() {
      on = false;
      await cdp.detach().catch(() => undefined);
    },
  };
}

/** Self time per function (ms), largest first; `(garbage collector)`, `(idle)` and `(program)` included. */
export function selfTimes(profile: CpuProfile): { name: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]!)!;
    const file = n.callFrame.url.split('/').pop() ?? '';
    const name = `${n.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${n.callFrame.lineNumber + 1}` : ''}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return [...self].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/** Writes each profile (`<path>.<i>.cpuprofile`, for DevTools) and prints its largest self times. */
export function reportProfiles(path: string, profiles: { url: string; profile: CpuProfile }[], top = 25): void {
  profiles.forEach(({ url, profile }, i) => {
    writeFileSync(`${path}.${i}.cpuprofile`, JSON.stringify(profile));
    const times = selfTimes(profile);
    const total = times.reduce((s, t) => s + t.ms, 0);
    console.log(`  worker ${i} (${url.split('/').pop()}): ${(total / 1000).toFixed(2)} s sampled, written to ${path}.${i}.cpuprofile; self time:`);
    for (const t of times.slice(0, top)) console.log(`    ${t.ms.toFixed(0).padStart(6)} ms  ${t.name}`);
  });
}
