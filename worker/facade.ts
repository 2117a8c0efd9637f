// The analysis worker: the ONE comlink `expose()` in the project. Its services, one file
// each in services/, share one context (storage, the sessions held in memory, the keyring,
// the capture owner, the Console's link); the page reaches them by name, `api.sessions.list()`,
// `api.console.send()`, through one `wrap<AnalysisApi>()` and `import type` only.
//
// Faults: this worker may die and be replaced by the page; all it holds is rebuilt (see
// services/context.ts). `life.lifeline` lets the page see a death that fires no event.
import { expose } from 'comlink';
import { createCaptureService } from './services/capture.js';
import { createCheckService } from './services/check.js';
import { createConsoleService } from './services/console.js';
import { createContext } from './services/context.js';
import { createFindingsService } from './services/findings.js';
import { createKeysService } from './services/keys.js';
import { createLifeService } from './services/life.js';
import { createReplayService } from './services/replay.js';
import { createSessionsService } from './services/sessions.js';
import { createTamperService } from './services/tamper.js';
import { createTasksService } from './services/tasks.js';
import { createTransferService } from './services/transfer.js';

export type * from './view/types.js';
export type * from './view/console-types.js';
export type * from './view/check-view.js';
export type { CheckFormat } from './services/check.js';
export type { UnsavedExchange } from './view/session-model.js';
export type { FindingsEntry, FindingOccurrence, FindingsSummary } from './view/findings-summary.js';
export type { ExchangePlace } from './view/exchange-place.js';
export type { ListedTool } from './decode/tool-names.js';
export type { ExchangePage, ExchangeSummary } from './services/sessions.js';
export type { ImportProgress } from './services/import-api.js';

const ctx = createContext();

const api = {
  life: createLifeService(ctx),
  sessions: createSessionsService(ctx),
  capture: createCaptureService(ctx),
  findings: createFindingsService(ctx),
  keys: createKeysService(ctx),
  transfer: createTransferService(ctx),
  console: createConsoleService(ctx),
  tasks: createTasksService(ctx),
  tamper: createTamperService(ctx),
  replay: createReplayService(ctx),
  check: createCheckService(ctx),
};

/** Every service the page may call, by namespace. */
export type AnalysisApi = typeof api;

expose(api);
