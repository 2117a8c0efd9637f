// A tool called as a task from the Console (tasks extension declared): started, polled,
// answered, submitted, cancelled, and the key tests that reuse or forge its task key.
import type { CallSpec, TaskView } from '../view/console-types.js';
import { ConsoleTask } from './console-task.js';
import type { ServiceContext } from './context.js';

export function createTasksService({ link }: Pick<ServiceContext, 'link'>) {
  const task = new ConsoleTask(link.keep);
  return {
    /** Calls a tool as a task (tasks extension declared); then poll, answer, submit, cancel, key tests. */
    start(spec: CallSpec): Promise<TaskView> { return task.start(spec, link.send, link.nextIdBase()); },
    /** One tasks/get (no sooner than pollIntervalMs after the last), or polls until the task asks or ends. */
    poll(untilSettled: boolean): Promise<TaskView> { return task.poll(untilSettled); },
    answer(key: string, response: Record<string, unknown>): Promise<TaskView> { return task.answer(key, response); },
    submit(): Promise<TaskView> { return task.submit(); },
    cancel(): Promise<TaskView> { return task.cancel(); },
    keyTest(kind: 'twice' | 'unknown' | 'reuse'): Promise<TaskView> { return task.keyTest(kind); },
    view(): TaskView { return task.view(); },
  };
}
