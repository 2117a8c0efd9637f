// What a task driver holds and sends, and what its key tests report: types of their own, so
// the driver (task-driver.ts) and its key tests (task-key-tests.ts) need not import each other.
import type { ExchangeRecord, JsonRpcId } from '../protocol.js';
import type { TaskStatus } from './task-request.js';
import type { ConsoleRequest, InputRequest, RoundReading } from './types.js';

export type KeyTestKind = 'twice' | 'unknown' | 'reuse';

/** What one key test sent and what the server did with it. */
export interface KeyTestOutcome {
  kind: KeyTestKind;
  key: string;
  /** `ignored` is what the extension asks of servers; `skipped` means the task was not in a state to test. */
  verdict: 'ignored' | 'accepted' | 'refused' | 'failed' | 'skipped';
  detail: string;
  /** The inputResponses the test sent. */
  sent?: Record<string, unknown>;
}

/** One request the driver sent and what came back. */
export interface TaskSend {
  kind: 'call' | 'retry' | 'get' | 'update' | 'cancel' | 'key-test';
  id: JsonRpcId;
  request: ConsoleRequest;
  reading: RoundReading;
  record: ExchangeRecord;
}

/** Where the task stands, as the Console shows it (plain data; a new object after every change). */
export interface TaskDriverState {
  /** `rounds`: the call asked for input before creating a task (MRTR), its questions are
   *  outstanding; `running`: a task exists and is not terminal; `done`: terminal;
   *  `not-task`: the call did not create one. */
  phase: 'idle' | 'sending' | 'rounds' | 'running' | 'done' | 'not-task';
  /** MRTR rounds the call went through before the task (input_required answers). */
  rounds: number;
  taskId: string | null;
  status: TaskStatus | null;
  statusMessage?: string;
  pollIntervalMs: number | null;
  /** Status changes in order, each with the polls that reported it. */
  timeline: { status: TaskStatus; polls: number }[];
  polls: number;
  /** Requests the task is waiting for that the Console has not answered. */
  outstanding: Record<string, InputRequest>;
  /** Every key answered over the lifetime, with the answer delivered. */
  answered: Record<string, Record<string, unknown>>;
  /** Answers given in the Console, not sent yet. */
  staged: Record<string, Record<string, unknown>>;
  /** Keys the server re-issued for a different request after their answer was delivered. */
  reusedKeys: string[];
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  sends: TaskSend[];
  keyTests: KeyTestOutcome[];
  message?: string;
}
