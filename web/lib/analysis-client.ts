// The page's one handle on the analysis worker: the ONE `wrap()` in the project.
import { wrap, type Remote } from 'comlink';
import type { AnalysisApi } from '../../worker/facade.js';

export type Analysis = Remote<AnalysisApi>;

export function startAnalysisWorker(): { api: Analysis; terminate: () => void } {
  const worker = new Worker(new URL('../../worker/facade.ts', import.meta.url), { type: 'module', name: 'mrtr-analysis' });
  return { api: wrap<AnalysisApi>(worker), terminate: () => worker.terminate() };
}
