// Drives one call through all its rounds with the Console's stepper in auto mode: each
// input request answered as a client would (a form accepted with values from its
// requestedSchema, or declined, or cancelled; sampling with a fixed completion; roots with
// the configured list), until the call completes, errors, or the stepper stops.
import type { ConsoleOrigin, JsonRpcId } from '../protocol.js';
import { asObject, own } from '../decode/meta.js';
import { defaultResponse, inputKind } from '../console/answers.js';
import { rootsDraft } from '../console/answers.js';
import { buildRequest, capabilitiesFrom } from '../console/request.js';
import { createStepper, type StepperState } from '../console/stepper.js';
import type { BuiltRequest, InputRequest, SavedAnswer, Transport } from '../console/types.js';
import { objectFor } from './fill.js';

/** How form questions are answered on a run. */
export type AnswerMode = 'accept' | 'decline' | 'cancel';

/** One call the check makes: a tool, prompt or resource, with its arguments. */
export interface CheckCall {
  /** `tools/call name`, as reports show it. */
  target: string;
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  params: Record<string, unknown>;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** Everything the drive needs besides the call. */
export interface DriveContext {
  url: string;
  send: Transport;
  ids: () => JsonRpcId;
  roots: readonly { uri: string; name?: string }[];
  stateOnlyDelayMs?: number;
  session?: string;
}

/** The completion every sampling request gets: fixed, so runs compare. */
export const SAMPLING_REPLY = { role: 'assistant', content: { type: 'text', text: 'mrtr-inspector check: a fixed sampling reply.' }, model: 'mrtr-inspector-check', stopReason: 'endTurn' };

/** Every capability a check answers for: a server may ask for any kind. */
export const CHECK_CAPABILITIES = capabilitiesFrom({ elicitationForm: true, elicitationUrl: true, sampling: true, roots: true });

/** The first request of a call, as a 2026-07-28 client sends it. */
export function firstRequest(call: CheckCall, id: JsonRpcId): BuiltRequest {
  return buildRequest({ method: call.method, params: call.params, id, capabilities: CHECK_CAPABILITIES, clientInfo: { name: 'mrtr-inspector-check', version: '0.1.0' }, ...(call.inputSchema !== undefined ? { inputSchema: call.inputSchema } : {}) });
}

/** The answer this run gives to one input request. */
export function answerFor(req: InputRequest, mode: AnswerMode, roots: readonly { uri: string; name?: string }[]): Record<string, unknown> {
  switch (inputKind(req)) {
    case 'sampling': return structuredClone(SAMPLING_REPLY);
    case 'roots': return rootsDraft(roots);
    case 'elicitation-form':
      if (mode !== 'accept') return { action: mode };
      return { action: 'accept', content: objectFor(own(asObject(req.params), 'requestedSchema')) };
    case 'elicitation-url': return mode === 'accept' ? { action: 'accept' } : { action: mode };
    default: return defaultResponse(req);
  }
}

/** Whether any round of the drive asked for a form (so decline and cancel mean something). */
export function askedForm(state: StepperState): boolean {
  return state.rounds.some((r) => r.reading.kind === 'input_required' && Object.values(r.reading.inputRequests).some((q) => inputKind(q) === 'elicitation-form'));
}

/** Drives the call to its end; the stepper's final state holds every round and record. */
export async function driveCall(call: CheckCall, mode: AnswerMode, ctx: DriveContext, origin?: ConsoleOrigin): Promise<{ state: StepperState; first: BuiltRequest }> {
  const answers = ({ inputRequests }: { inputRequests: Record<string, InputRequest> }): SavedAnswer[] =>
    Object.entries(inputRequests).map(([key, req]) => ({ key, kind: inputKind(req), response: answerFor(req, mode, ctx.roots) }));
  const stepper = createStepper({
    send: ctx.send, ids: ctx.ids, auto: answers,
    ...(origin ? { origin } : {}),
    ...(ctx.stateOnlyDelayMs !== undefined ? { stateOnlyDelayMs: ctx.stateOnlyDelayMs } : {}),
    ...(ctx.session !== undefined ? { session: ctx.session } : {}),
  });
  const first = firstRequest(call, ctx.ids());
  const state = await stepper.start({ url: ctx.url, request: first });
  return { state, first };
}
