import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile, writeFile } from 'node:fs/promises';
import type { HarEntry, Manifest, ManifestCall, ManifestFixture } from './har-types.js';

// Labels every HTTP request a client sends with the logical call it belongs to. The driver
// runs each call inside within(label); the client's fetch notes each body it sends under
// that label, and the proxy looks the body up when it arrives. Bodies carry unique JSON-RPC
// ids, so the match is exact even for calls that are in flight at the same time.
export interface CallTagger {
  fetch: typeof fetch;
  within<T>(label: string, fn: () => Promise<T>): Promise<T>;
  tagRequest(method: string, url: string, body: string): string | undefined;
}

// Creates a tagger around the global fetch.
export function createCallTagger(): CallTagger {
  const als = new AsyncLocalStorage<string>();
  const expected = new Map<string, string>();
  return {
    fetch: async (input, init) => {
      const label = als.getStore();
      if (label !== undefined && typeof init?.body === 'string') expected.set(init.body, label);
      return fetch(input, init);
    },
    within: (label, fn) => als.run(label, fn),
    tagRequest: (_method, _url, body) => {
      const label = expected.get(body);
      expected.delete(body);
      return label;
    },
  };
}

// What the driver knows about a call before looking at any traffic.
export interface PlannedCall extends Omit<ManifestCall, 'exchanges' | 'rounds' | 'tampered'> {
  label: string;
}

const bodyMethod = (entry: HarEntry): string => {
  try {
    const msg = JSON.parse(entry.request.postData?.text ?? '') as { method?: string; result?: unknown; error?: unknown };
    if (typeof msg.method === 'string') return msg.method;
    if (msg.result !== undefined || msg.error !== undefined) return '(response)';
  } catch {
    // fall through: not JSON (a GET, a DELETE, an empty body)
  }
  return entry.request.method;
};

// Assembles one fixture's manifest entry from the proxy's tags and the driver's plan.
// Exchanges tagged with a planned call's label belong to it; everything else is "other".
export function buildFixture(
  base: Omit<ManifestFixture, 'entryCount' | 'calls' | 'other'>,
  entries: HarEntry[],
  tagOf: (seq: number) => string | undefined,
  planned: PlannedCall[],
  extra: Record<string, Partial<ManifestCall>> = {},
): ManifestFixture {
  const bySeq = entries.map((_, seq) => tagOf(seq));
  const calls = planned.map(({ label, ...call }) => {
    const exchanges = bySeq.flatMap((tag, seq) => (tag === label ? [seq] : []));
    if (exchanges.length === 0) throw new Error(`call ${label} produced no exchanges: was it run inside tagger.within()?`);
    return { ...call, exchanges, rounds: exchanges.length, ...extra[label] } as ManifestCall;
  });
  const labels = new Set(planned.map((p) => p.label));
  const other = bySeq.flatMap((tag, seq) => (tag !== undefined && labels.has(tag) ? [] : [{ seq, method: bodyMethod(entries[seq]) }]));
  return { ...base, entryCount: entries.length, calls, other };
}

// Replaces one fixture's entry in manifest.json, keeping the others (two scripts share it).
export async function writeManifestEntry(path: string, stateKey: string, name: string, fixture: ManifestFixture): Promise<void> {
  let manifest: Manifest = { version: 1, stateKey, fixtures: {} };
  try {
    manifest = JSON.parse(await readFile(path, 'utf8')) as Manifest;
  } catch {
    // first run: start a fresh manifest
  }
  manifest.stateKey = stateKey;
  manifest.fixtures[name] = fixture;
  const sorted = Object.fromEntries(Object.entries(manifest.fixtures).sort(([a], [b]) => a.localeCompare(b)));
  await writeFile(path, JSON.stringify({ ...manifest, fixtures: sorted }, null, 2) + '\n');
}
