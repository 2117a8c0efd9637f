// Issue 31's proof on an independent peer: `check` against servers built with tmcp (a
// third-party library, test/peers/tmcp-server.ts) finds no failed probe. What it does find
// are warnings, each a SHOULD tmcp leaves to the application (../shared/spec clauses):
// its requestState is not bound to the tool or arguments (M12c), carries no expiry and is
// not single-use (M12b, M13); none of them is a MUST, so none may be a failed probe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../worker/check/run.js';
import type { CheckRun, ProbeResult } from '../../../worker/check/types.js';
import { fetchTransport } from '../../../worker/console/transport.js';
import { serveTmcp, type RunningTmcp } from '../../peers/tmcp-server.js';

let signed: RunningTmcp;
let plain: RunningTmcp;
beforeAll(async () => {
  [signed, plain] = await Promise.all([serveTmcp(), serveTmcp({ plainState: true })]);
});
afterAll(async () => {
  await Promise.all([signed?.close(), plain?.close()]);
});

const send = fetchTransport({ timeoutMs: 10_000 });
const verdicts = (run: CheckRun, verdict: ProbeResult['verdict']) =>
  run.probes.filter((p) => p.verdict === verdict).map((p) => `${p.target} ${p.probe}`).sort();
const at = (run: CheckRun, target: string, probe: ProbeResult['probe']) => run.probes.find((p) => p.target === target && p.probe === probe);
const SHOULD_WARNINGS = [
  'tools/call book_room arguments-changed', 'tools/call book_room replay-after-complete',
  'tools/call book_room token-other-tool', 'tools/call book_room token-parallel-reuse',
];

describe('check on a tmcp server (requestStateCodec signed with an HMAC, as tmcp advises)', () => {
  it('drives both read-only tools through all rounds and finds no failed probe', async () => {
    const run = await runCheck({ url: signed.url, stateOnlyDelayMs: 0 }, send);
    expect(verdicts(run, 'failed')).toEqual([]);
    expect(at(run, 'tools/call book_room', 'drive')).toMatchObject({ verdict: 'passed', detail: expect.stringMatching(/^3 rounds: complete: Booked for check/) });
    expect(at(run, 'tools/call room_rates', 'drive')).toMatchObject({ verdict: 'passed', detail: expect.stringMatching(/^1 round: complete/) });
    for (const probe of ['token-modified', 'token-truncated'] as const) {
      expect(at(run, 'tools/call book_room', probe)).toMatchObject({ verdict: 'passed', detail: expect.stringContaining('requestState signature does not match') });
    }
    for (const probe of ['decline', 'cancel', 'token-dropped', 'responses-missing', 'responses-unknown-key', 'responses-wrong-kind', 'retry-id'] as const) {
      expect(at(run, 'tools/call book_room', probe)?.verdict, probe).toBe('passed');
    }
    expect(verdicts(run, 'warning')).toEqual(SHOULD_WARNINGS);
  }, 60_000);
});

describe('check on a tmcp server with its default (plain JSON) requestState', () => {
  it('finds no failed probe either: the same SHOULD warnings, and a changed token still refused by tmcp re-validating the answers it carries', async () => {
    const run = await runCheck({ url: plain.url, stateOnlyDelayMs: 0 }, send);
    expect(verdicts(run, 'failed')).toEqual([]);
    expect(verdicts(run, 'warning')).toEqual(SHOULD_WARNINGS);
    // The plain token is readable JSON with tmcp's stored answers; tmcp validates them again
    // on each retry, so the probe's one changed byte (in the room enum) is refused. A change
    // that stays inside the schema (nights 2 to 14) would go through: M11 allows an
    // unprotected state only where tampering does nothing worse than fail the request, which
    // the probe cannot judge, hence the signed codec above for anything that matters.
    expect(at(run, 'tools/call book_room', 'token-modified')).toMatchObject({ verdict: 'passed', detail: expect.stringContaining('Invalid elicitation result') });
    expect(at(run, 'tools/call book_room', 'token-expired')).toMatchObject({ verdict: 'not-applicable', detail: expect.stringContaining('no expiry (json)') });
  }, 60_000);
});
