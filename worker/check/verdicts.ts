// Each probe's expected outcome and the clause it rests on (../shared/spec clause ids with
// their source lines). A MUST broken is `failed`; a SHOULD not met is `warning`, and so is
// a conditional MUST whose condition the answers do not show (a changed token that changed
// nothing).
import type { ProbeId } from './types.js';

/** The clause and expectation of a probe, as reports print them. */
export interface ProbeSpec {
  clause: string;
  expected: string;
}

// M11 lets a server leave state unprotected where tampering can do nothing worse than fail
// the request; only an answer that moved proves the state mattered.
const HARMLESS = "taken with exactly the genuine token's answer it is a warning (M11 allows unprotected state where tampering is harmless), with a different answer a failure";

export const PROBE_SPECS: Record<ProbeId, ProbeSpec> = {
  drive: { clause: 'M16-M18 (mrtr:247-257)', expected: 'with schema-valid answers the call goes on to a result, an error or a new question, and never asks the same questions again forever' },
  decline: { clause: 'M23 (mrtr:262)', expected: 'a declined form ends in a result, an error or a new question, answered as JSON-RPC' },
  cancel: { clause: 'M23 (mrtr:262)', expected: 'a cancelled form ends in a result, an error or a new question, answered as JSON-RPC' },
  task: { clause: 'tasks extension (tasks:342-381)', expected: 'called as a task, the task reaches a terminal status once its input requests are answered through tasks/update' },
  'token-modified': { clause: 'M10, M11 (mrtr:232-233)', expected: `a requestState with one byte changed fails verification and is rejected (MUST where the state influences authorization, resource access or business logic); ${HARMLESS}` },
  'token-truncated': { clause: 'M10, M11 (mrtr:232-233)', expected: `a requestState cut short fails verification and is rejected (MUST where the state influences authorization, resource access or business logic); ${HARMLESS}` },
  'token-other-tool': { clause: 'M12c (mrtr:234-237)', expected: 'a requestState presented on another tool is rejected (SHOULD: bound to its request)' },
  'token-swapped': { clause: 'M12c (mrtr:234-237)', expected: "another call's requestState is rejected on this call (SHOULD: bound to its request)" },
  'token-dropped': { clause: 'M25 (mrtr:266-267)', expected: 'a retry without its requestState is asked again or refused, not carried on (SHOULD)' },
  'token-parallel-reuse': { clause: 'M12b, M13 (mrtr:234-243)', expected: 'two parallel retries with one token: at most one goes through where the state is single-use (MUST); otherwise replay is bounded by an expiry (SHOULD)' },
  'token-expired': { clause: 'M11, M12b (mrtr:232-237)', expected: 'a requestState sent after the expiry it carries fails verification and is rejected' },
  'replay-after-complete': { clause: 'M12b, M13 (mrtr:234-243)', expected: "the completing retry re-sent after the call completed is refused where the state is single-use (MUST); otherwise replay is bounded by an expiry (SHOULD)" },
  'responses-missing': { clause: 'M25 (mrtr:266-267)', expected: 'a retry without the inputResponses asked for gets a new input_required asking again, rather than an error (SHOULD)' },
  'responses-unknown-key': { clause: 'M24 (mrtr:264)', expected: 'an inputResponses key never asked for is ignored (SHOULD)' },
  'responses-wrong-kind': { clause: 'M22, M23 (mrtr:261-262)', expected: 'an answer of the wrong kind is refused with a JSON-RPC error or asked again (SHOULD validate)' },
  'arguments-changed': { clause: 'M12c (mrtr:234-237); §1.7', expected: 'a retry whose arguments differ from the original is refused (SHOULD: state bound to the salient params)' },
  'retry-id': { clause: 'M20 (mrtr:256); JSON-RPC 2.0 §5', expected: 'a retry under a new id is answered; one re-using the first id is answered under that id (the answer carries the id of its request)' },
};
