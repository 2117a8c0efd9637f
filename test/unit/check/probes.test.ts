// The token probes' two outcomes for an accepted changed token, on a server whose two tools
// share one unverified state and differ only in whether it drives the answer: answered
// exactly as the genuine token was, the acceptance is a warning (M11 lets unprotected state
// pass where tampering is harmless); answered differently, it is a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../worker/check/run.js';
import type { CheckRun, ProbeResult } from '../../../worker/check/types.js';
import { PROBE_SPECS } from '../../../worker/check/verdicts.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { serveUnverifiedStateServer } from '../../peers/unverified-state-server.js';
import type { RunningDemo } from '../../peers/serve-demo.js';

let server: RunningDemo;
let run: CheckRun;
beforeAll(async () => {
  server = await serveUnverifiedStateServer();
  run = await runCheck({ url: server.url, stateOnlyDelayMs: 0 }, fetchTransport({ timeoutMs: 10_000 }));
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const at = (target: string, probe: ProbeResult['probe']) => run.probes.find((p) => p.target === `tools/call ${target}` && p.probe === probe)!;

describe('token probes on an accepted changed token', () => {
  it('warn when the server answers exactly as to the genuine token, saying what to check by hand', () => {
    for (const probe of ['token-modified', 'token-truncated'] as const) {
      const p = at('inert_note', probe);
      expect(p.verdict, probe).toBe('warning');
      expect(p.detail).toMatch(/answered exactly as to the genuine token \(complete: Noted\.\): tampering changed nothing observable here/);
      expect(p.detail).toMatch(/M11 requires integrity protection only where the state influences authorization, resource access or business logic/);
      expect(p.clause).toBe('M10, M11 (mrtr:232-233)');
    }
  });

  it('fail when the changed token changed the answer, naming what moved', () => {
    const modified = at('quoted_note', 'token-modified');
    expect(modified.verdict).toBe('failed');
    expect(modified.detail).toMatch(/the server went on as if the state were good \(complete: Noted .*\); its answer differs from the genuine token's: content\[0\]\.text changed from "Noted .* \(carried between rounds\)"/);
    const truncated = at('quoted_note', 'token-truncated');
    expect(truncated.verdict).toBe('failed');
    expect(truncated.detail).toMatch(/^sent the first 13 of 27 characters; .*\(complete: Noted check \(carried \)\); its answer differs/);
  });

  it('states the rule in the expected outcome every report prints', () => {
    for (const probe of ['token-modified', 'token-truncated'] as const) {
      expect(PROBE_SPECS[probe].expected).toMatch(/MUST where the state influences authorization, resource access or business logic/);
      expect(PROBE_SPECS[probe].expected).toMatch(/exactly the genuine token's answer it is a warning .*with a different answer a failure/);
    }
  });
});
