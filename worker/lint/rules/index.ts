// Every lint rule, tier 1 first, in catalogue order (shared/spec/lint-rules.md). Adding a
// rule is its own file plus one line here.
import type { Rule } from '../rule.js';
import { inputRequiredEmpty } from './mrtr/input-required-empty.js';
import { inputRequiredMethod } from './mrtr/input-required-method.js';
import { inputRequestKind } from './mrtr/input-request-kind.js';
import { inputRequestUndeclared } from './mrtr/input-request-undeclared.js';
import { serverErrorsOnMissing } from './mrtr/server-errors-on-missing.js';
import { serverInitiatedRequest } from './mrtr/server-initiated-request.js';
import { expiredStateAccepted } from './mrtr/expired-state-accepted.js';
import { invalidStateAccepted } from './mrtr/invalid-state-accepted.js';
import { tooManyRounds } from './mrtr/too-many-rounds.js';
import { modifiedStateAccepted } from './mrtr/modified-state-accepted.js';
import { stateModified } from './mrtr/state-modified.js';
import { stateInvented } from './mrtr/state-invented.js';
import { stateDropped } from './mrtr/state-dropped.js';
import { retryReusedId } from './mrtr/retry-reused-id.js';
import { stateCrossRequest } from './mrtr/state-cross-request.js';
import { stateParallelReuse } from './mrtr/state-parallel-reuse.js';
import { responseMissing } from './mrtr/response-missing.js';
import { responseKindMismatch } from './mrtr/response-kind-mismatch.js';
import { responseUnrequested } from './mrtr/response-unrequested.js';
import { retryChangedRequest } from './mrtr/retry-changed-request.js';
import { stateUnprotected } from './state/unprotected.js';
import { stateSignatureInvalid } from './state/signature-invalid.js';
import { stateNoExpiry } from './state/no-expiry.js';
import { stateLongTtl } from './state/long-ttl.js';
import { stateNoRequestBinding } from './state/no-request-binding.js';
import { resultTypeMissing } from './result/type-missing.js';
import { resultTypeUnknown } from './result/type-unknown.js';
import { metaRequiredMissing } from './meta/required-missing.js';
import { metaClientInfoMissing } from './meta/client-info-missing.js';
import { httpAccept } from './http/accept.js';
import { httpProtocolVersionHeader } from './http/protocol-version-header.js';
import { httpMethodHeader } from './http/method-header.js';
import { httpNameHeader } from './http/name-header.js';
import { httpMismatchAccepted } from './http/mismatch-accepted.js';
import { httpContentType } from './http/content-type.js';
import { elicitRequestShape } from './elicit/request-shape.js';
import { elicitResultShape } from './elicit/result-shape.js';
import { elicitContentSchema } from './elicit/content-schema.js';
import { samplingRequestShape } from './sampling/request-shape.js';
import { samplingResultShape } from './sampling/result-shape.js';
import { rootsResultShape } from './roots/result-shape.js';
import { eventsAfterInputRequired } from './mrtr/events-after-input-required.js';
import { finalResultDegraded } from './mrtr/final-result-degraded.js';
import { stateOnlyHotLoop } from './mrtr/state-only-hot-loop.js';
import { capabilityDropped } from './mrtr/capability-dropped.js';
import { stateNoPrincipalBinding } from './state/no-principal-binding.js';
import { stateReplayed } from './state/replayed.js';
import { resultTypeInInputResponse } from './result/type-in-input-response.js';
import { metaCapabilityErrorShape } from './meta/capability-error-shape.js';
import { metaRemovedMethod } from './meta/removed-method.js';
import { metaLegacyErrorCode } from './meta/legacy-error-code.js';
import { httpSessionId } from './http/session-id.js';
import { elicitSecretField } from './elicit/secret-field.js';
import { legacySessionHeaderMissing } from './legacy/session-header-missing.js';
import { legacyResponseNot202 } from './legacy/response-not-202.js';
import { tasksUndeclared } from './tasks/undeclared.js';
import { tasksMethod } from './tasks/method.js';
import { tasksResultType } from './tasks/result-type.js';
import { tasksInputIncomplete } from './tasks/input-incomplete.js';
import { tasksKeyReused } from './tasks/key-reused.js';
import { tasksUpdateNotOutstanding } from './tasks/update-not-outstanding.js';
import { tasksInputByRetry } from './tasks/input-by-retry.js';
import { tasksNameHeader } from './tasks/name-header.js';
import { tasksStatusAfterTerminal } from './tasks/status-after-terminal.js';
import { tasksUnknownTaskCode } from './tasks/unknown-task-code.js';
import { tasksPollTooFast } from './tasks/poll-too-fast.js';

/** Tier 1 (the first release). */
export const TIER1_RULES: readonly Rule[] = [
  inputRequiredEmpty, inputRequiredMethod, inputRequestKind, inputRequestUndeclared,
  serverErrorsOnMissing, serverInitiatedRequest, expiredStateAccepted, invalidStateAccepted,
  tooManyRounds, modifiedStateAccepted,
  stateModified, stateInvented, stateDropped, retryReusedId, stateCrossRequest,
  stateParallelReuse, responseMissing, responseKindMismatch, responseUnrequested,
  retryChangedRequest,
  stateUnprotected, stateSignatureInvalid, stateNoExpiry, stateLongTtl, stateNoRequestBinding,
  resultTypeMissing, resultTypeUnknown, metaRequiredMissing, metaClientInfoMissing,
  httpAccept, httpProtocolVersionHeader, httpMethodHeader, httpNameHeader,
  httpMismatchAccepted, httpContentType,
  elicitRequestShape, elicitResultShape, elicitContentSchema,
  samplingRequestShape, samplingResultShape, rootsResultShape,
  tasksUndeclared, tasksMethod, tasksResultType, tasksInputIncomplete, tasksKeyReused,
  tasksUpdateNotOutstanding, tasksInputByRetry, tasksNameHeader, tasksStatusAfterTerminal,
];

/** Tier 2. */
export const TIER2_RULES: readonly Rule[] = [
  finalResultDegraded, eventsAfterInputRequired, stateOnlyHotLoop, capabilityDropped,
  stateNoPrincipalBinding, stateReplayed, resultTypeInInputResponse,
  metaCapabilityErrorShape, metaRemovedMethod, metaLegacyErrorCode, httpSessionId,
  elicitSecretField, legacySessionHeaderMissing, legacyResponseNot202,
  tasksUnknownTaskCode, tasksPollTooFast,
];

/** Every rule the engine runs, tier 1 first. */
export const ALL_RULES: readonly Rule[] = [...TIER1_RULES, ...TIER2_RULES];
