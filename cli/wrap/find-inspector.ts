// Finds the developer's own inspector before wrap sends it anything. Its details (origin,
// relay token, proof key) are in the 0600 info file in the per-user 0700 folder, so the
// kernel vouches they are the developer's and the token never needs argv. Whatever answers
// on the port must then prove it knows the key (server/relay/proof.ts): a squatter on a port
// the inspector left gets a nonce, and neither the token nor a record.
//
// Hazard: the inspector may restart (new token, new key) or stop while wrap runs; callers
// find it again before each new attach, never reuse a proof across connections they open later.
import { relayDir } from '../../server/relay/capture-path.js';
import { readInfoFile } from '../../server/relay/info-file.js';
import { freshSecret, NONCE_PARAM, PROOF_PATH, proofMatches } from '../../server/relay/proof.js';
import { terminalSafe } from '../../worker/report/terminal-safe.js';

/** The verified inspector: where it is and the relay token it gave the developer. */
export interface VerifiedInspector {
  url: string;
  token: string;
}

const PROOF_TIMEOUT_MS = 5000;

/** The port an inspector URL names (default 80 for http). */
export function portOf(url: string): number {
  const u = new URL(url);
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}

/** Finds and verifies the inspector that `url` names; a problem says what to do. */
export async function findInspector(url: string, env: Record<string, string | undefined> = process.env): Promise<VerifiedInspector | { problem: string; absent?: true }> {
  const port = portOf(url);
  const info = readInfoFile(relayDir(env), port);
  if ('problem' in info) return info;
  // The file's own address (127.0.0.1), not a name that might resolve elsewhere.
  const nonce = freshSecret();
  let answer: unknown;
  try {
    const res = await fetch(`${info.url}${PROOF_PATH}?${NONCE_PARAM}=${nonce}`, { signal: AbortSignal.timeout(PROOF_TIMEOUT_MS) });
    answer = res.ok ? ((await res.json()) as { proof?: unknown }).proof : undefined;
  } catch (err) {
    return { problem: `the inspector at ${info.url} cannot be reached (${terminalSafe((err as Error).message)}); is it still running?` };
  }
  if (typeof answer !== 'string' || !proofMatches(info.proofKey, nonce, answer)) {
    return { problem: `whatever answers at ${info.url} could not prove it is your inspector (it does not know the key in your 0600 info file), so nothing was sent to it. If your inspector stopped, another program may hold its port: start the inspector again (npm start) and retry.` };
  }
  return { url: info.url, token: info.token };
}
