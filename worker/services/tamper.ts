// Tamper tests: a round's token altered, replayed or moved to another target, on a round of
// the step-through call or of the capture, and the report of what the server accepted.
import { tamperReportJson, tamperReportMarkdown, tamperSubjectFromRecords, tamperSubjectFromStep, type TamperTest } from '../console/index.js';
import type { Answer } from '../protocol.js';
import type { TamperView } from '../view/console-types.js';
import { placeOfExchange } from '../view/exchange-place.js';
import { StorageError } from '../storage/index.js';
import { ConsoleTamper, sentResponses } from './console-runs.js';
import { fail, safeName, type ServiceContext } from './context.js';

export function createTamperService({ store, link, step, builtOf }: Pick<ServiceContext, 'store' | 'link' | 'step' | 'builtOf'>) {
  const { send, keep } = link;
  const tamper = new ConsoleTamper(keep);
  /** A captured round as the thread names it ("round #2 of the book call"), never by the
   *  store's exchange number; "a captured round" when its session no longer places it. */
  async function roundName(record: { id: string; session?: string }): Promise<string> {
    if (record.session === undefined) return 'a captured round';
    let b;
    try {
      b = await builtOf(record.session);
    } catch (e) {
      if (e instanceof StorageError) return 'a captured round'; // the tests still run; only the name is lost
      throw e;
    }
    const place = placeOfExchange([...b.byId.values()].map((v) => v.conversation), b.analysis.records, record.id);
    const c = place ? b.byId.get(place.conversation)?.conversation : undefined;
    return place && c ? `round #${place.round + 1} of the ${c.name ?? c.method} call` : 'a captured round';
  }
  return {
    /** Tamper tests on step-through round `round` (its answer issued the token). */
    async fromStep(round: number, other?: { params: Record<string, unknown> }): Promise<Answer<TamperView>> {
      const st = step.state;
      if (!st) return fail('invalid', 'start a call first');
      const subject = tamperSubjectFromStep(st, round, step.url, other ? { otherTarget: other } : {});
      if ('error' in subject) return fail('invalid', subject.error);
      return { ok: true, value: await tamper.setSubject(subject, `round #${round + 1} of the Console call`, send) };
    },
    /** Tamper tests on a captured round (and the retry that followed it, for its answers). */
    async fromCapture(roundId: string, retryId: string | null, other?: { params: Record<string, unknown> }): Promise<Answer<TamperView>> {
      const round = await store.getExchange(roundId);
      const retry = retryId ? await store.getExchange(retryId) : undefined;
      if (!round) return fail('not-found', 'that exchange is no longer stored');
      const subject = tamperSubjectFromRecords(round, retry, other ? { otherTarget: other } : {});
      if ('error' in subject) return fail('invalid', subject.error);
      if (retry && !sentResponses(retry)) subject.inputResponses = {};
      return { ok: true, value: await tamper.setSubject(subject, await roundName(round), send) };
    },
    run(test: TamperTest, wait = false): Promise<TamperView> { return tamper.run(test, send, wait); },
    runAll(): Promise<TamperView> { return tamper.runAll(send); },
    view(): TamperView { return tamper.view(); },
    export(format: 'json' | 'md'): { text: string; fileName: string } | null {
      const r = tamper.view().report;
      if (!r) return null;
      return { text: format === 'json' ? tamperReportJson(r) : tamperReportMarkdown(r), fileName: `tamper-report-${safeName(r.name ?? r.method)}.${format === 'json' ? 'json' : 'md'}` };
    },
  };
}
