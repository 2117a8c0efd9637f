// The Console: the page's transport, a server's catalog, the step-through call (paused at
// each input_required, answered, edited, forked) and edit-and-resend of a captured request.
// Every send leaves and is kept through the link (services/console-link.ts).
import { consoleRecord, linkOrigin, newRecordId, newRunId, type FieldValue, type FormModel, type Transport } from '../console/index.js';
import type { Answer, ConsoleOrigin, ErrorInfo, ExchangeRecord } from '../protocol.js';
import type { CallSpec, ClientSetup, ResendDraftView, ResendView, ServerCatalog, StepView } from '../view/console-types.js';
import type { DraftError } from '../console/index.js';
import { rpcErrorOf, toolList, type ListedTool } from '../decode/tool-names.js';
import { loadCatalog } from './console-catalog.js';
import { checkDraft, resend, resendDraft, resendWithId, type ResendTarget } from './console-runs.js';
import { checkForm } from './console-step.js';
import { fail, type ServiceContext } from './context.js';

export function createConsoleService({ store, link, step }: Pick<ServiceContext, 'store' | 'link' | 'step'>) {
  const { send, keep } = link;
  return {
    /** The page's fetch as the Console's transport (a comlink proxy), so the service worker taps every send. */
    transport(t: Transport): void {
      link.setTransport(t);
    },

    /** The tools in a `tools/list` answer's body, and which run only as a task (the toolbar's demo-tool menu). */
    toolList(body: string): ListedTool[] {
      return toolList(body);
    },

    /** The JSON-RPC error a toolbar call was answered with, if any (the toolbar says why a call failed). */
    rpcError(body: string): { code: number; message: string } | null {
      return rpcErrorOf(body);
    },

    /** `server/discover` and the lists of tools, prompts, resources and templates. */
    async catalog(url: string, setup: ClientSetup): Promise<ServerCatalog> {
      const records: ExchangeRecord[] = [];
      // The catalog calls of one connect are one discovery run.
      const origin: ConsoleOrigin = { kind: 'discovery', run: newRunId() };
      const discover: Transport = (req) => send({ ...req, link: { id: newRecordId(), ...linkOrigin(origin) } });
      const cat = await loadCatalog(url, setup, discover, (req, res) => records.push(consoleRecord(req, res, { id: newRecordId(), seq: 0, origin })));
      await keep(records);
      return cat;
    },

    /** Starts a step-through call; it pauses at each input_required. */
    start(spec: CallSpec): Promise<StepView> {
      return step.start(spec, send, link.nextIdBase());
    },
    view(): StepView { return step.view(); },
    answer(key: string, response: Record<string, unknown>): Promise<StepView> { return step.answer(key, response); },
    editPreview(text: string): Promise<StepView> { return step.editPreview(text); },
    send(): Promise<StepView> { return step.send(); },
    fork(round: number, answers: Record<string, Record<string, unknown>>): Promise<StepView> { return step.fork(round, answers); },
    forkQuestions(round: number) { return step.forkQuestions(round); },
    auto(on: boolean): Promise<StepView> { return step.setAuto(on); },
    /** Forgets auto mode's remembered answers (in memory and in storage). */
    forgetAnswers(): Promise<StepView> { return step.forgetAnswers(); },
    /** Validates an elicitation form; with no errors, the ElicitResult to send. */
    checkForm(form: FormModel, values: Record<string, FieldValue>) { return checkForm(form, values); },

    /** The editable draft of a captured request. */
    async resendDraft(id: string): Promise<Answer<ResendDraftView>> {
      const r = await store.getExchange(id);
      if (!r) return fail('not-found', 'that exchange is no longer stored');
      const d = resendDraft(r);
      return 'error' in d ? fail('invalid', d.error) : { ok: true, value: d };
    },
    /** The draft with its JSON-RPC id set (the keep-old-id switch); null when it does not parse. */
    resendWithId(text: string, id: string | number) { return resendWithId(text, id); },
    resendCheck(original: string, text: string) { return checkDraft(original, text); },
    /** Sends an edited draft through the page; the new exchange is derived from the original. */
    async resend(draft: ResendTarget, text: string): Promise<Answer<ResendView, ErrorInfo & DraftError>> {
      const r = await resend(draft, text, send, keep);
      return 'error' in r ? { ok: false, error: { kind: 'invalid', ...r.error } } : { ok: true, value: r };
    },
  };
}
