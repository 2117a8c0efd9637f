// Public API of the Console's model layer: building requests, answering input requests,
// the step-through session, tamper tests and session replay. Plain TypeScript with no DOM
// and no Node APIs; the page reaches it through the facade, the CLI imports it directly.
export type { BuiltRequest, ConsoleRequest, ConsoleResponse, InputKind, InputRequest, JsonRpcRequest, RoundReading, SavedAnswer, Transport } from './types.js';
// Requests: the _meta envelope, headers (Mcp-Name, Mcp-Param-*), the exact retry, capability toggles.
export { buildRequest, buildRetry, capabilitiesFrom, encodeHeaderValue, paramHeaders, requestHeaders, toHttp, withoutMrtrFields, CONSOLE_CLIENT_INFO, CONSOLE_PROTOCOL_VERSION, type CapabilityToggles, type RequestInput } from './request.js';
// Edit-and-resend: the pure draft parser, the preview text, the line diff.
export { diffDraft, draftText, parseDraft, type DraftChange, type DraftError, type DraftParse } from './draft.js';
// Edit and re-send any captured request, linked to the original.
export { draftWithId, freshRequestId, resend, resendDraft, resendRequest, type ResendDraft } from './resend.js';
export { explainSendFailure } from './send-failure.js';
// Elicitation forms: field model, validation, ElicitResult.
export { elicitResult, formFromSchema, initialValues, validateForm, type FieldOption, type FieldType, type FieldValue, type FormCheck, type FormField, type FormModel } from './form.js';
// Sampling and roots drafts; auto mode's matcher.
export { answerAll, defaultResponse, inputKind, rootsDraft, samplingDraft, saveAnswers, savedList, validateRoots, type AutoAnswers, type OpenQuestion } from './answers.js';
// Transport over fetch (the page's fetch in the browser, so the service worker taps it).
export { fetchTransport, type FetchTransportOptions, type TapHooks } from './transport.js';
// Console sends as ExchangeRecords, and reading a round's answer.
export { answerMessage, builtFromRecord, consoleRecord, linkOrigin, newRecordId, newRunId, originOfLink, readRound, sendSafely, type RecordPlace } from './exchange.js';
// The link header: which record a send is filed under, read and stripped by the capture service worker.
export { formatLink, parseLink, LINK_HEADER, TAPPED_HEADER, type SendLink } from './link.js';
// The step-through session.
export { createStepper, type AutoSource, type RetryPreview, type StepCall, type Stepper, type StepperOptions, type StepperState, type StepperStatus, type StepRound } from './stepper.js';
// Tamper tests and their report.
export { planTamperTests, runTamperPlan, summarize, type TamperPlan, type TamperResult, type TamperSubject, type TamperTest, type TamperVerdict } from './tamper.js';
export { flipPayloadByte, type FlippedToken } from './tamper-flip.js';
export { runAllTamperTests, tamperReportJson, tamperReportMarkdown, type TamperReport } from './tamper-report.js';
export { foreignTokenFor, tamperSubjectFromRecords, tamperSubjectFromStep } from './tamper-subject.js';
// Session replay, its diff and its reports.
export { planReplay, runReplay, type ReplayItem, type ReplayOptions, type ReplayOutcome, type ReplayPlan, type ReplayRun, type ReplaySkip } from './replay.js';
export { checkIgnoreList, diffResults, parsePath, pathText, DEFAULT_IGNORE, type DiffOptions, type JsonChange } from './result-diff.js';
export { replayFailed, replayJson, replayJunit, replayText } from './replay-report.js';
// Tasks (io.modelcontextprotocol/tasks): call as a task, poll, answer through tasks/update, cancel, key tests.
export { buildTaskRequest, isTerminalStatus, readTask, withTasksExtension, TASKS_EXTENSION, type TaskClient, type TaskReading, type TaskStatus } from './task-request.js';
export { createTaskDriver, DEFAULT_POLL_INTERVAL_MS, type TaskDriver, type TaskDriverOptions, type TaskDriverState, type TaskSend } from './task-driver.js';
export { KEY_TEST_LABELS, runKeyTest, type KeyTestKind, type KeyTestOutcome } from './task-key-tests.js';
